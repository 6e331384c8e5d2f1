package tui

// This file is the TUI's view of the host: the few protocol operations it
// uses, as an interface, so that Update can be tested against a fake with
// no host, and clientHost, the real one over a *client.Client. The
// real host is exercised by end-to-end tests.

import (
	"context"
	"fmt"

	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

// Host is what the TUI asks of the host. Every method may be called from
// any goroutine (Cmds run concurrently) and blocks until the host answers
// or ctx ends.
type Host interface {
	List(ctx context.Context) ([]proto.PaneInfo, error)
	Spawn(ctx context.Context, req proto.SpawnReq) (proto.SpawnedReply, error)
	// Subscribe opens a screen subscription to pane, with the PTY master
	// dup when the pane runs and the transport passes fds.
	Subscribe(ctx context.Context, pane string, wantFd bool) (Stream, error)
	// Events opens the pane-event subscription for every pane.
	Events(ctx context.Context) (Stream, error)
	Input(ctx context.Context, req proto.InputReq) error
	Paste(ctx context.Context, req proto.PasteReq) error
	Resize(ctx context.Context, pane string, cols, rows uint16) error
	Kill(ctx context.Context, pane string) error
	Remove(ctx context.Context, pane string) error
	Rename(ctx context.Context, pane, name string) error
	// Respawn starts an exited, lost or ended orphaned pane again in place.
	Respawn(ctx context.Context, req proto.RespawnReq) (proto.RespawnedReply, error)
	History(ctx context.Context, req proto.HistoryReq) (*proto.HistoryRows, error)
	// Close ends the connection; panes keep running.
	Close() error
}

// Stream is an open subscription. C delivers *proto.ScreenFrame (for
// screens) or *proto.PaneEvent (for events) and is closed when the
// subscription ends; Err then says why (nil for a normal end). Master is
// the PTY master dup or nil; the Stream owns it and Close closes it.
type Stream interface {
	C() <-chan proto.Message
	Master() *client.Master
	Err() error
	Close() error
}

// clientHost is Host over a protocol v1 client. After the connection is
// lost, Reconnect dials again (starting a host if none runs) and every
// later call goes to the new connection: the model, its Cmds and its
// input queues keep the one Host (client.Redialer).
type clientHost struct{ r *client.Redialer }

// NewReconnectingHost wraps a connected client as the TUI's Host; Close
// closes it. Reconnect replaces a lost connection with connect's (which
// starts a host on demand); with connect nil it cannot reconnect.
func NewReconnectingHost(c *client.Client, connect func(context.Context) (*client.Client, error)) Host {
	return &clientHost{r: client.NewRedialer(c, connect)}
}

// c is the current connection.
func (h *clientHost) c() *client.Client { return h.r.Client() }

func (h *clientHost) List(ctx context.Context) ([]proto.PaneInfo, error) { return h.c().List(ctx) }

func (h *clientHost) Spawn(ctx context.Context, req proto.SpawnReq) (proto.SpawnedReply, error) {
	return h.c().Spawn(ctx, req)
}

func (h *clientHost) Subscribe(ctx context.Context, pane string, wantFd bool) (Stream, error) {
	c := h.c()
	wantFd = wantFd && c.HasCap(proto.CapFdPassing)
	s, err := c.Subscribe(ctx, proto.SubscribeReq{Pane: pane, Screen: true, WantFd: wantFd})
	if err != nil {
		return nil, err
	}
	return subStream{s}, nil
}

func (h *clientHost) Events(ctx context.Context) (Stream, error) {
	s, err := h.c().Events(ctx)
	if err != nil {
		return nil, err
	}
	return subStream{s}, nil
}

func (h *clientHost) Input(ctx context.Context, req proto.InputReq) error {
	return h.c().Input(ctx, req)
}

func (h *clientHost) Paste(ctx context.Context, req proto.PasteReq) error {
	c := h.c()
	if req.Part != "" && !c.HasCap(proto.CapPasteData) {
		// A host without split pastes would read a part as a whole paste
		// and bracket it; the input queue writes the bracket itself.
		return fmt.Errorf("paste into %s: the host takes no paste in parts", req.Pane)
	}
	return c.Paste(ctx, req)
}

func (h *clientHost) Resize(ctx context.Context, pane string, cols, rows uint16) error {
	return h.c().Resize(ctx, pane, cols, rows)
}

func (h *clientHost) Kill(ctx context.Context, pane string) error {
	return h.c().Kill(ctx, proto.KillReq{Pane: pane})
}

func (h *clientHost) Remove(ctx context.Context, pane string) error { return h.c().Remove(ctx, pane) }

func (h *clientHost) Rename(ctx context.Context, pane, name string) error {
	return h.c().Rename(ctx, pane, name)
}

func (h *clientHost) Respawn(ctx context.Context, req proto.RespawnReq) (proto.RespawnedReply, error) {
	return h.c().Respawn(ctx, req)
}

func (h *clientHost) History(ctx context.Context, req proto.HistoryReq) (*proto.HistoryRows, error) {
	return h.c().History(ctx, req)
}

func (h *clientHost) Close() error { return h.c().Close() }

// Reconnect implements recoverer: a connection that is still up is kept;
// a lost one is replaced by a new one (the old one closed, which leaves
// the masters its subscriptions passed open: they are the escrow).
func (h *clientHost) Reconnect(ctx context.Context) (bool, error) { return h.r.Reconnect(ctx) }

// Probe implements prober.
func (h *clientHost) Probe(ctx context.Context) bool { return h.r.Probe(ctx) }

// Escrow implements recoverer.
func (h *clientHost) Escrow(ctx context.Context, req proto.EscrowReq, master *client.Master) (proto.EscrowedReply, error) {
	return h.r.Escrow(ctx, req, master)
}

// subStream is Stream over a *client.Subscription.
type subStream struct{ s *client.Subscription }

func (s subStream) C() <-chan proto.Message { return s.s.C }
func (s subStream) Master() *client.Master  { return s.s.Master }
func (s subStream) Err() error              { return s.s.Err() }
func (s subStream) Close() error            { return s.s.Close() }

// Hand makes h the consumer of the stream's pushes, called on the
// client's reader goroutine (mailbox.follow).
func (s subStream) Hand(h client.Handler) { s.s.Hand(h) }
