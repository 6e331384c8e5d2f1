// This file is the typed face of Client.Call: one method per protocol v1
// request, each returning the reply body it expects (docs/protocol.md,
// "Message types"). An error reply comes back as *ErrorReply; a reply of
// an unexpected type is an error naming both types.

package client

import (
	"context"
	"fmt"
	"os"

	"clowder/supervisor/proto"
)

// call sends req and checks that the reply is a T.
func call[T proto.Message](ctx context.Context, c *Client, req proto.Message) (T, error) {
	m, files, err := c.Call(ctx, req)
	return replyAs[T](req, m, files, err)
}

// callOK sends a request whose reply is MsgOK.
func callOK(ctx context.Context, c *Client, req proto.Message) error {
	_, err := call[*proto.OKReply](ctx, c, req)
	return err
}

// replyAs checks that the reply m to req is a T; it closes files, which
// only subscribe replies carry.
func replyAs[T proto.Message](req, m proto.Message, files []*os.File, err error) (T, error) {
	var zero T
	for _, f := range files {
		_ = f.Close() // best effort
	}
	if err != nil {
		return zero, err
	}
	r, ok := m.(T)
	if !ok {
		return zero, fmt.Errorf("%s: host answered with %s", req.MsgType(), m.MsgType())
	}
	return r, nil
}

// List returns the panes named (all if none), in creation order.
func (c *Client) List(ctx context.Context, panes ...string) ([]proto.PaneInfo, error) {
	r, err := call[*proto.PaneListReply](ctx, c, proto.ListReq{Panes: panes})
	if err != nil {
		return nil, err
	}
	return r.Panes, nil
}

// DialList is Dial followed by List of every pane, with the list request
// written with the hello (DialCall). The caller closes the Client when
// it is not nil.
func DialList(ctx context.Context, socketPath string, setup func(*Client)) (*Client, []proto.PaneInfo, error) {
	req := proto.ListReq{}
	c, m, files, err := DialCall(ctx, socketPath, req, setup)
	r, err := replyAs[*proto.PaneListReply](req, m, files, err)
	if err != nil {
		return c, nil, err
	}
	return c, r.Panes, nil
}

// Spawn starts a pane; a repeat with the same nonce returns the first one
// (Existing set).
func (c *Client) Spawn(ctx context.Context, req proto.SpawnReq) (proto.SpawnedReply, error) {
	r, err := call[*proto.SpawnedReply](ctx, c, req)
	if err != nil {
		return proto.SpawnedReply{}, err
	}
	return *r, nil
}

// Subscribe opens a subscription to a pane's screen and/or raw output.
// With WantFd on a connection that agreed fd-passing, Master holds the PTY
// master dup. The caller reads C until it closes, or calls Close.
func (c *Client) Subscribe(ctx context.Context, req proto.SubscribeReq) (*Subscription, error) {
	sub, m, files, err := c.subscribe(ctx, req, req.FromSeq)
	if err != nil {
		return nil, err
	}
	r, ok := m.(*proto.SubscribedReply)
	if !ok {
		closeFiles(files)
		_ = sub.Close() // best effort: the reply made no sense
		return nil, fmt.Errorf("subscribe: host answered with %s", m.MsgType())
	}
	sub.Reply = *r
	if len(files) > 0 {
		sub.Master, err = MasterOf(files[0]) // out of the poller: see Master
		closeFiles(files)
		if err != nil {
			_ = sub.Close() // best effort: the master could not be kept
			return nil, fmt.Errorf("subscribe: %w", err)
		}
	}
	return sub, nil
}

// Events subscribes to pane events for panes (all if none). C delivers
// *PaneEvent until Close.
func (c *Client) Events(ctx context.Context, panes ...string) (*Subscription, error) {
	sub, m, files, err := c.subscribe(ctx, proto.EventsReq{Panes: panes}, 0)
	closeFiles(files)
	if err != nil {
		return nil, err
	}
	if _, ok := m.(*proto.OKReply); !ok {
		_ = sub.Close() // best effort: the reply made no sense
		return nil, fmt.Errorf("events: host answered with %s", m.MsgType())
	}
	return sub, nil
}

// subscribe registers a subscription under a fresh id, then sends req on
// that id. A failed or cancelled call leaves no subscription behind.
func (c *Client) subscribe(ctx context.Context, req proto.Message, from uint64) (*Subscription, proto.Message, []*os.File, error) {
	id, ch, err := c.register()
	if err != nil {
		return nil, nil, nil, err
	}
	sub := newSubscription(c, id, from)
	if err := c.addSub(sub); err != nil {
		c.forget(id)
		_ = sub.Close() // best effort: never opened on the host
		return nil, nil, nil, err
	}
	m, files, err := c.send(ctx, id, ch, req)
	if err != nil {
		_ = sub.Close() // unsubscribes later if the host says yes after all
		return nil, nil, nil, err
	}
	return sub, m, files, nil
}

// closeFiles closes files nobody will own.
func closeFiles(files []*os.File) {
	for _, f := range files {
		_ = f.Close() // best effort: unexpected extra fds
	}
}

// Unsubscribe ends subscription sub on the host (its last push carries
// FlagEnd). Subscription.Close calls it.
func (c *Client) Unsubscribe(ctx context.Context, sub uint32) error {
	return callOK(ctx, c, proto.UnsubscribeReq{Sub: sub})
}

// Input writes data, then the tmux-named keys, to a pane. Data larger
// than a frame is sent in parts, in order.
func (c *Client) Input(ctx context.Context, req proto.InputReq) error {
	for _, part := range proto.SplitInput(req, proto.PasteChunkBytes) {
		if err := callOK(ctx, c, part); err != nil {
			return err
		}
	}
	return nil
}

// Paste pastes text (bracketed if the pane asked for it), then Enter if
// req.Submit. With a host that has paste-data, the text goes as bytes
// (invalid UTF-8 arrives as sent) and, if larger than a frame, in parts
// that the pane receives as one paste (supervisor/proto/paste.go). The whole text is
// checked before anything is sent.
func (c *Client) Paste(ctx context.Context, req proto.PasteReq) error {
	if !c.HasCap(proto.CapPasteData) {
		return callOK(ctx, c, req) // an older host: text as a string, in one frame
	}
	parts, err := proto.SplitPaste(req, proto.PasteChunkBytes)
	if err != nil {
		return err
	}
	for i, part := range parts {
		if err := callOK(ctx, c, part); err != nil {
			if i > 0 {
				c.closePaste(ctx, req.Pane)
			}
			return err
		}
	}
	return nil
}

// closePaste ends a split paste cut short, so the program is not left
// inside a bracketed paste; best effort, as the pane may be gone.
func (c *Client) closePaste(ctx context.Context, pane string) {
	_ = callOK(ctx, c, proto.PasteReq{Pane: pane, Part: proto.PastePartLast}) // best effort: see above
}

// Resize sets a pane's size.
func (c *Client) Resize(ctx context.Context, pane string, cols, rows uint16) error {
	return callOK(ctx, c, proto.ResizeReq{Pane: pane, Cols: cols, Rows: rows})
}

// Signal sends one signal to a pane's process group.
func (c *Client) Signal(ctx context.Context, req proto.SignalReq) error { return callOK(ctx, c, req) }

// Kill runs the kill ladder on a pane's tree and returns when it is dead.
func (c *Client) Kill(ctx context.Context, req proto.KillReq) error { return callOK(ctx, c, req) }

// Remove kills a pane if it runs and forgets it.
func (c *Client) Remove(ctx context.Context, pane string) error {
	return callOK(ctx, c, proto.RemoveReq{Pane: pane})
}

// Rename gives a pane a new unique name.
func (c *Client) Rename(ctx context.Context, pane, name string) error {
	return callOK(ctx, c, proto.RenameReq{Pane: pane, Name: name})
}

// Respawn starts an exited, lost or ended orphaned pane again in place
// (proto.RespawnReq). It is not retried on a lost connection: unlike a
// spawn it has no nonce, and the pane may be running already.
func (c *Client) Respawn(ctx context.Context, req proto.RespawnReq) (proto.RespawnedReply, error) {
	r, err := call[*proto.RespawnedReply](ctx, c, req)
	if err != nil {
		return proto.RespawnedReply{}, err
	}
	return *r, nil
}

// Capture returns a pane's screen as text.
func (c *Client) Capture(ctx context.Context, req proto.CaptureReq) (proto.CapturedReply, error) {
	req.TextBody = true // raw bytes, not a JSON string; an older host answers captured
	m, err := call[proto.Message](ctx, c, req)
	return captured(req, m, err)
}

// DialCapture is Dial followed by Capture, with the capture request
// written with the hello (DialCall). The caller closes the Client when it
// is not nil.
func DialCapture(ctx context.Context, socketPath string, req proto.CaptureReq, setup func(*Client)) (*Client, proto.CapturedReply, error) {
	req.TextBody = true // as Capture
	c, m, files, err := DialCall(ctx, socketPath, req, setup)
	m, err = replyAs[proto.Message](req, m, files, err)
	r, err := captured(req, m, err)
	return c, r, err
}

// captured is the capture reply m, in either of its forms.
func captured(req proto.CaptureReq, m proto.Message, err error) (proto.CapturedReply, error) {
	if err != nil {
		return proto.CapturedReply{}, err
	}
	switch r := m.(type) {
	case *proto.CapturedText:
		return r.Reply(), nil
	case *proto.CapturedReply:
		return *r, nil
	}
	return proto.CapturedReply{}, fmt.Errorf("%s: host answered with %s", req.MsgType(), m.MsgType())
}

// History returns a page of a pane's scrollback.
func (c *Client) History(ctx context.Context, req proto.HistoryReq) (*proto.HistoryRows, error) {
	return call[*proto.HistoryRows](ctx, c, req)
}

// Wait blocks until a condition of req holds; a host-side timeout is an
// *ErrorReply with CodeTimeout.
func (c *Client) Wait(ctx context.Context, req proto.WaitReq) (proto.WaitDoneReply, error) {
	r, err := call[*proto.WaitDoneReply](ctx, c, req)
	if err != nil {
		return proto.WaitDoneReply{}, err
	}
	return *r, nil
}

// HostStatus describes the host.
func (c *Client) HostStatus(ctx context.Context) (proto.HostInfoReply, error) {
	r, err := call[*proto.HostInfoReply](ctx, c, proto.HostStatusReq{})
	if err != nil {
		return proto.HostInfoReply{}, err
	}
	return *r, nil
}

// HostStop asks the host to exit; with panes running it refuses (CodeBusy)
// unless force, which kills them first.
func (c *Client) HostStop(ctx context.Context, force bool) error {
	return callOK(ctx, c, proto.HostStopReq{Force: force})
}
