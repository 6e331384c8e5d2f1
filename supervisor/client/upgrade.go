package client

import (
	"context"
	"errors"

	"clowder/supervisor/proto"
)

// Upgrade asks the host to exec binary (an absolute path) under its own
// pid, handing it every pane (docs/protocol.md, "upgrade"). The host
// answers only a failure, which Upgrade returns; after a successful exec
// the connection ends, and Upgrade returns nil: connect again and ask
// HostStatus which build serves.
func (c *Client) Upgrade(ctx context.Context, binary string) error {
	err := callOK(ctx, c, proto.UpgradeReq{Binary: binary})
	if errors.Is(err, ErrConnectionLost) {
		return nil
	}
	return err
}

// Resumable reports whether err ended a stream because the host upgraded
// in place (CodeUpgrading) or its connection dropped: connect again and
// resume from the sequence number reached.
func Resumable(err error) bool {
	var e *proto.ErrorReply
	if errors.As(err, &e) && e.Code == proto.CodeUpgrading {
		return true
	}
	return errors.Is(err, ErrConnectionLost)
}
