//go:build unix

// This file saves a one-shot command a round trip: the request goes in
// the same write as the hello, so the host finds it waiting as soon as it
// has answered the handshake, instead of the client waiting for the
// welcome before it sends it (bench/profiles/cli.md, Session 17).
//
// Nothing changes on the wire or in the host: the host checks the peer
// before it reads anything, reads the hello alone (frames are read one at
// a time, and nothing past a frame is read ahead), answers it, and only
// then reads the request, as from any client. A host that refuses the
// peer or the version answers the hello with an error and closes with the
// request unread: it was never executed, and the client reports the
// refusal exactly as Dial does. Only requests that are safe to repeat go
// early (safeToRepeat, retry.go), since a connection cut during the
// handshake leaves it unknown whether the request ran.

package client

import (
	"context"
	"fmt"
	"net"
	"os"
	"sync/atomic"

	"clowder/supervisor/proto"
)

// earlyID is the id of the request written with the hello (the hello is
// 1, and New leaves the next id at 2).
const earlyID = 2

// earlyConn writes its first frame (the hello) and the early request in
// one write, then is its FrameConn.
type earlyConn struct {
	proto.FrameConn
	uc    *net.UnixConn
	early proto.Frame
	sent  atomic.Bool
}

// WriteFrame writes the hello and the early request together the first
// time, and passes every later frame on.
func (e *earlyConn) WriteFrame(f proto.Frame) error {
	if e.sent.Swap(true) {
		return e.FrameConn.WriteFrame(f)
	}
	buf, err := appendFrames(f, e.early)
	if err != nil {
		return err
	}
	if _, err := e.uc.Write(buf); err != nil {
		return fmt.Errorf("write %s and %s frames: %w", f.Type, e.early.Type, err)
	}
	return nil
}

// appendFrames is the wire bytes of frames, each in the version this
// client speaks before the handshake (FdConn's own default).
func appendFrames(frames ...proto.Frame) ([]byte, error) {
	var buf []byte
	for _, f := range frames {
		if f.Version.IsZero() {
			f.Version = proto.MaxVersion
		}
		var err error
		if buf, err = proto.AppendFrame(buf, f, proto.WireMaxFrame); err != nil {
			return nil, err
		}
	}
	return buf, nil
}

// DialCall is Dial followed by Call(ctx, req), with req written in the
// same write as the hello: the host answers both without the client
// waiting for the welcome in between. setup (nil: none) prepares the
// Client before the reply is awaited, as a caller of Dial would before
// its call (SetCallTimeouts, RetryAcrossHostLoss). req must be safe to
// repeat (list, capture, ...); any other request is sent after the
// handshake, as Call does. Whatever the early request meets (no host, a
// handshake cut short, a host that went away before answering), the
// result is Dial's and Call's: it is then sent again the ordinary way.
// The caller closes the Client, also when the call failed.
func DialCall(ctx context.Context, socketPath string, req proto.Message, setup func(*Client)) (*Client, proto.Message, []*os.File, error) {
	var early *proto.Frame
	if safeToRepeat(req) {
		f, err := proto.NewFrame(earlyID, 0, req)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("send %s: %w", req.MsgType(), err)
		}
		early = &f
	}
	c, err := dialOnceWith(ctx, socketPath, early)
	if err != nil {
		early = nil // any later connection is Dial's own, without it
		if c, err = dialRecover(ctx, socketPath, true, c, err); err != nil {
			return nil, nil, nil, err
		}
	}
	if setup != nil {
		setup(c)
	}
	if early == nil {
		m, files, err := c.Call(ctx, req)
		return c, m, files, err
	}
	m, files, err := c.awaitEarly(ctx, req)
	if err != nil && ctx.Err() == nil && retryable(req, err, c.retrying()) {
		m, files, err = c.Call(ctx, req) // on a new connection: this one is gone
	}
	return c, m, files, err
}

// awaitEarly waits for the reply to the request written with the hello,
// within its deadline (SetCallTimeouts).
func (c *Client) awaitEarly(parent context.Context, req proto.Message) (proto.Message, []*os.File, error) {
	id, ch, err := c.register()
	if err != nil {
		return nil, nil, err
	}
	if id != earlyID {
		c.forget(id)
		return nil, nil, fmt.Errorf("send %s: %w: the early request has id %d, the client's next is %d", req.MsgType(), ErrNotExecuted, earlyID, id)
	}
	ctx, cancel, d := c.callContext(parent, req)
	defer cancel()
	return c.await(parent, ctx, d, id, ch, req)
}
