package client

// This file is the client's side of escrow (docs/protocol.md, "escrow"):
// handing a pane's PTY master, held while its host died, to the next host.

import (
	"context"
	"fmt"
	"os"

	"clowder/supervisor/proto"
)

// Escrow hands master, a copy of the PTY master of the pane req names, to
// the host, which re-adopts the pane after checking its identity. The
// kernel passes the host its own copy: the caller still owns master and
// closes it once the host has answered (and, on success, has subscribed
// again for a new copy if it wants one). A refused hand-back is an
// *proto.ErrorReply (identity-mismatch: it is not that pane's terminal,
// or its process is another; exited: nothing to re-adopt).
func (c *Client) Escrow(ctx context.Context, req proto.EscrowReq, master *os.File) (proto.EscrowedReply, error) {
	if !c.HasCap(proto.CapFdPassing) {
		return proto.EscrowedReply{}, fmt.Errorf("escrow of %s: this connection cannot pass file descriptors", req.Pane)
	}
	id, ch, err := c.register()
	if err != nil {
		return proto.EscrowedReply{}, err
	}
	rc, err := master.SyscallConn()
	if err != nil {
		c.forget(id)
		return proto.EscrowedReply{}, fmt.Errorf("escrow of %s: %w", req.Pane, err)
	}
	var m proto.Message
	var files []*os.File
	ctlErr := rc.Control(func(fd uintptr) { m, files, err = c.send(ctx, id, ch, req, int(fd)) })
	closeFiles(files)
	if err == nil {
		err = ctlErr
	}
	if err != nil {
		return proto.EscrowedReply{}, err
	}
	r, ok := m.(*proto.EscrowedReply)
	if !ok {
		return proto.EscrowedReply{}, fmt.Errorf("escrow: host answered with %s", m.MsgType())
	}
	return *r, nil
}
