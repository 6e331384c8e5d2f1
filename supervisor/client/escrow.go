package client

// This file is the client's side of escrow (docs/protocol.md, "escrow"):
// handing a pane's PTY master, held while its host died, to the next host.

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"clowder/supervisor/proto"
)

// Escrow hands master, a copy of the PTY master of the pane req names, to
// the host, which re-adopts the pane after checking its identity. The
// kernel passes the host its own copy: the caller still owns master and
// closes it once the host has answered (and, on success, has subscribed
// again for a new copy if it wants one). A refused hand-back is an
// *proto.ErrorReply (identity-mismatch: it is not that pane's terminal,
// or its process is another; exited: nothing to re-adopt).
func (c *Client) Escrow(ctx context.Context, req proto.EscrowReq, master *Master) (proto.EscrowedReply, error) {
	if !c.HasCap(proto.CapFdPassing) {
		return proto.EscrowedReply{}, fmt.Errorf("escrow of %s: this connection cannot pass file descriptors", req.Pane)
	}
	id, ch, err := c.register()
	if err != nil {
		return proto.EscrowedReply{}, err
	}
	var m proto.Message
	var files []*os.File
	if ctlErr := master.Control(func(fd uintptr) { m, files, err = c.send(ctx, id, ch, req, int(fd)) }); ctlErr != nil {
		c.forget(id) // never sent
		return proto.EscrowedReply{}, fmt.Errorf("escrow of %s: %w", req.Pane, ctlErr)
	}
	closeFiles(files)
	if err != nil {
		return proto.EscrowedReply{}, err
	}
	r, ok := m.(*proto.EscrowedReply)
	if !ok {
		return proto.EscrowedReply{}, fmt.Errorf("escrow: host answered with %s", m.MsgType())
	}
	return *r, nil
}

// Escrower hands a held master back: a *Client, a *Redialer, or a TUI's
// view of either.
type Escrower interface {
	Escrow(ctx context.Context, req proto.EscrowReq, master *Master) (proto.EscrowedReply, error)
}

// Held is a pane's PTY master kept while no host has it, with the request
// that hands it back.
type Held struct {
	Req    proto.EscrowReq
	Master *Master
}

// EscrowRequest names a pane's leader (as info last said it) and carries
// screen, the frame the client last drew (nil: the host starts blank).
func EscrowRequest(info proto.PaneInfo, screen *proto.ScreenFrame) proto.EscrowReq {
	req := proto.EscrowReq{Pane: info.ID, Pid: info.Pid, PidStart: info.PidStart}
	if screen != nil {
		req.Screen, _ = proto.EncodeMessage(screen) // a frame built from frames encodes; without it the host starts blank
	}
	return req
}

// HandBack hands every held master to to's host, one at a time, each
// within each; the result names the panes the host refused and why. The
// caller still owns the masters (the host got its own copies).
func HandBack(ctx context.Context, to Escrower, held []Held, each time.Duration) map[string]error {
	errs := map[string]error{}
	for _, h := range held {
		cctx, cancel := context.WithTimeout(ctx, each)
		if _, err := to.Escrow(cctx, h.Req, h.Master); err != nil {
			errs[h.Req.Pane] = err
		}
		cancel()
	}
	return errs
}

// Redialer is a connection that outlives its host: after the connection is
// lost, Reconnect dials again through connect (which starts a host if none
// runs, as Connect does, unless StartOnlyIf on its context says none is
// needed) and every later Client() is the new connection. A request its
// connections send again by themselves waits for a host and never starts
// one: starting one is the owner's call (it holds the panes). The masters that subscriptions of the old connection passed stay open:
// they are the escrow the caller hands back (HandBack). Safe for
// concurrent use.
type Redialer struct {
	cur     atomic.Pointer[Client]
	connect func(context.Context) (*Client, error) // nil: no reconnecting
	mu      sync.Mutex                             // one Reconnect at a time
}

// NewRedialer starts from the connected c; connect makes a new connection
// after c is lost (nil: Reconnect fails).
func NewRedialer(c *Client, connect func(context.Context) (*Client, error)) *Redialer {
	r := &Redialer{connect: connect}
	c.waitForHost()
	r.cur.Store(c)
	return r
}

// Client is the current connection.
func (r *Redialer) Client() *Client { return r.cur.Load() }

// Lost reports whether the current connection has ended.
func (r *Redialer) Lost() bool { return r.Client().Err() != nil }

// probeGrace is how long Probe waits for a failed round trip's connection
// to be seen ending (the read loop meets the end of a dead host's socket
// at once).
const probeGrace = 2 * time.Second

// Probe reports whether the current connection is lost, checked by a
// round trip: a host SIGKILLed a moment ago is otherwise noticed only
// when the connection's end is read. After a true, Reconnect replaces the
// connection.
func (r *Redialer) Probe(ctx context.Context) (lost bool) {
	c := r.Client()
	if c.Err() != nil {
		return true
	}
	if _, _, err := c.callOnce(ctx, proto.HostStatusReq{}); err == nil {
		return false // one round trip on this connection: a retry would wait for a host
	}
	t := time.NewTimer(probeGrace)
	defer t.Stop()
	select {
	case <-c.Done():
		return true
	case <-t.C:
		return c.Err() != nil
	}
}

// Reconnect keeps a connection that is still up (swapped false) and
// replaces a lost one by a new one (the old one closed).
func (r *Redialer) Reconnect(ctx context.Context) (swapped bool, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.Client()
	if old.Err() == nil {
		return false, nil
	}
	if r.connect == nil {
		return false, fmt.Errorf("cannot reconnect: %w", old.Err())
	}
	c, err := r.connect(ctx)
	if err != nil {
		return false, err
	}
	c.waitForHost()
	r.cur.Store(c)
	_ = old.Close() // best effort: it is already gone
	return true, nil
}

// Escrow hands a master back over the current connection (Client.Escrow).
func (r *Redialer) Escrow(ctx context.Context, req proto.EscrowReq, master *Master) (proto.EscrowedReply, error) {
	return r.Client().Escrow(ctx, req, master)
}

// Close closes the current connection.
func (r *Redialer) Close() error { return r.Client().Close() }
