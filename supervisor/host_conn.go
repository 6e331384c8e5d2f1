// One client connection: peer check, handshake, then a loop reading
// request frames. Each request runs in its own goroutine (a wait or a kill
// must not hold up the client's other requests); subscriptions push frames
// until unsubscribed or the connection ends. When the connection ends, its
// context is cancelled, which ends its requests and subscriptions, and
// panes spawned with kill_on_disconnect are killed.

package supervisor

import (
	"context"
	"fmt"
	"net"
	"os"
	"sync"
)

// conn is one client connection.
type conn struct {
	h      *Host
	fc     FrameConn
	ctx    context.Context
	fds    bool // the transport carries fds and the client agreed
	mu     sync.Mutex
	subs   map[uint32]context.CancelFunc // subscribe/events request id → stop
	owned  []*pane                       // kill_on_disconnect panes
	active sync.WaitGroup
}

// serveConn runs one connection to its end.
func (h *Host) serveConn(ctx context.Context, uc *net.UnixConn) {
	defer uc.Close()
	if err := checkPeer(uc); err != nil {
		h.log.Printf("refused a client: %v", err)
		_ = NewFdConn(uc).WriteFrame(mustFrame(0, FlagReply, &ErrorReply{Code: CodeDenied, Message: err.Error()}))
		return
	}
	fc := NewFdConn(uc)
	_, w, err := AcceptHello(fc, ProtoMin, ProtoMax, WelcomeReply{
		Caps: []string{CapFdPassing, CapScreen, CapRaw, CapEvents, CapPasteData}, Host: h.opts.Build, Pid: os.Getpid(),
	})
	if err != nil {
		h.log.Printf("handshake: %v", err)
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	c := &conn{h: h, fc: fc, ctx: ctx, subs: map[uint32]context.CancelFunc{}, fds: hasCap(w.Caps, CapFdPassing)}
	h.clientDelta(1)
	defer h.clientDelta(-1)
	c.readLoop()
	cancel()
	c.active.Wait()
	c.killOwned()
}

func hasCap(caps []string, c string) bool {
	for _, x := range caps {
		if x == c {
			return true
		}
	}
	return false
}

// clientDelta counts clients for status and idle exit.
func (h *Host) clientDelta(d int) {
	h.mu.Lock()
	h.clients += d
	h.mu.Unlock()
	h.armIdle()
}

// readLoop dispatches frames until the connection or the host ends.
func (c *conn) readLoop() {
	go func() {
		<-c.ctx.Done()
		_ = c.fc.(*FdConn).c.SetReadDeadline(pastTime) // unblocks ReadFrame at shutdown
	}()
	for {
		f, err := c.fc.ReadFrame()
		if err != nil {
			return
		}
		closeFds(f.Fds) // clients send none; never leak what arrives
		c.active.Add(1)
		go func() {
			defer c.active.Done()
			c.handle(f)
		}()
	}
}

// reply sends the one reply to request reqID. A transport error ends the
// connection's reads soon anyway, so it is only logged.
func (c *conn) reply(reqID uint32, m Message, fds ...int) {
	f, err := NewFrame(reqID, FlagReply, m)
	if err != nil {
		f = mustFrame(reqID, FlagReply, &ErrorReply{Code: CodeInternal, Message: fmt.Sprintf("encode %s: %v", m.MsgType(), err)})
	}
	f.Fds = fds
	if err := c.fc.WriteFrame(f); err != nil {
		c.h.log.Printf("reply to request %d: %v", reqID, err)
	}
}

// push sends a subscription frame.
func (c *conn) push(reqID uint32, flags Flags, m Message) error {
	f, err := NewFrame(reqID, FlagPush|flags, m)
	if err != nil {
		return err
	}
	return c.fc.WriteFrame(f)
}

// fail replies with an error; err that is not an *ErrorReply becomes
// internal, with its text.
func (c *conn) fail(reqID uint32, err error) {
	e, ok := err.(*ErrorReply)
	if !ok {
		e = &ErrorReply{Code: CodeInternal, Message: err.Error()}
	}
	c.reply(reqID, e)
}

func mustFrame(reqID uint32, flags Flags, m Message) Frame {
	f, err := NewFrame(reqID, flags, m)
	if err != nil {
		panic(fmt.Sprintf("encode %s: %v", m.MsgType(), err)) // our own fixed messages always encode
	}
	return f
}

// addSub records a subscription's stop function under its request id.
func (c *conn) addSub(id uint32, stop context.CancelFunc) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.subs[id] = stop
}

// endSub stops subscription id; it reports whether there was one.
func (c *conn) endSub(id uint32) bool {
	c.mu.Lock()
	stop, ok := c.subs[id]
	delete(c.subs, id)
	c.mu.Unlock()
	if ok {
		stop()
	}
	return ok
}

// own marks p to be killed when this connection ends.
func (c *conn) own(p *pane) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.owned = append(c.owned, p)
}

// killOwned kills the kill_on_disconnect panes of a connection that ended
// (a foreground `clowder exec` whose client died).
func (c *conn) killOwned() {
	for _, p := range c.owned {
		if p.ours() {
			c.h.log.Printf("client of %s went away; killing it", p.id)
			_, _ = p.kill(Identity{}, 0) // best effort: the client is gone
		}
	}
}
