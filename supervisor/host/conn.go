// One client connection: peer check, handshake, then a loop reading
// request frames and dispatching them (dispatch.go). Every write to
// the client has a deadline, and the first failed write ends the
// connection: a client that stops reading costs the host one blocked
// writer for at most the write timeout, never a pane, another client or
// shutdown. When the connection ends, its context is cancelled, which ends
// its requests and subscriptions, and panes spawned with
// kill_on_disconnect are killed.

package host

import (
	"context"
	"fmt"
	"net"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"clowder/supervisor"
	"clowder/supervisor/proto"
)

// Limits of one connection (docs/protocol.md, "Limits").
const (
	// DefaultWriteTimeout bounds each reply and push to a client; a client
	// that reads nothing for this long is disconnected.
	DefaultWriteTimeout = 30 * time.Second
	// shutdownWriteTimeout bounds the last writes once the connection or
	// the host is ending.
	shutdownWriteTimeout = time.Second
	// DefaultHandshakeTimeout is how long a new connection may take to say
	// hello (Options.HandshakeTimeout).
	DefaultHandshakeTimeout = 10 * time.Second
	// MaxConnRequests is how many unordered requests (everything but
	// input, paste and resize) one connection may have running at once;
	// beyond it a request is answered busy at once.
	MaxConnRequests = 256
	// MaxConnQueued is how many ordered requests (input, paste, resize)
	// one connection may have queued; beyond it the host stops reading
	// the connection until the queue drains (nothing is refused or lost).
	MaxConnQueued = 1024
	// MaxConnQueuedBytes bounds the data (input bytes and keys, paste
	// text) of those queued requests the same way: a client sending big
	// inputs to a pane that reads slowly held up to MaxConnQueued of them
	// in the host's memory (trial 6: 114 MB). A request bigger than it
	// still queues, alone.
	MaxConnQueuedBytes = 8 << 20
	// MaxConnSubs is how many subscriptions one connection may hold open.
	MaxConnSubs = 1024
	// MaxConnFds is how many of those may have passed a PTY master.
	MaxConnFds = 256
)

// conn is one client connection.
type conn struct {
	h        *Server
	fc       proto.FrameConn
	nc       net.Conn        // the transport under fc: its read deadline ends readLoop at shutdown
	ctx      context.Context // ends with the connection, or the host
	cancel   context.CancelFunc
	serving  context.Context // ends when the host stops serving
	fds      bool            // the transport carries fds and the client agreed
	peer     proto.HelloReq  // what the client said of itself (name, pid), for host status
	slots    chan struct{}   // one token per running unordered request
	bigReply chan struct{}   // held by the connection's one big reply in the making (bigReplySlot)
	lanes    lanes           // ordered requests, per pane
	mu       sync.Mutex
	subs     map[uint32]subEntry // subscribe/events request id → its entry
	nfds     int                 // open subscriptions that passed a master
	owned    []*pane             // kill_on_disconnect panes
	// openPastes are the panes whose split paste this connection began
	// and has not ended (paste_open.go).
	openPastes map[*pane]bool
	told       bool // got the upgrade notice: executes nothing again (drain.go; under h.window.mu)
	active     sync.WaitGroup
}

// subEntry is one open subscription of a connection.
type subEntry struct {
	stop context.CancelFunc
	fd   bool // it passed a PTY master
}

// serveConn runs one connection to its end.
func (h *Server) serveConn(ctx context.Context, uc *net.UnixConn) {
	defer uc.Close()
	fc := proto.NewFdConn(uc)
	fc.SetWriteTimeout(h.opts.WriteTimeout)
	if err := checkPeer(uc); err != nil {
		h.log.Printf("refused a client: %v", err)
		_ = fc.WriteFrame(mustFrame(0, proto.FlagReply, &proto.ErrorReply{Code: proto.CodeDenied, Message: err.Error()}))
		return
	}
	// A client that connects and says nothing must not hold a descriptor
	// and a goroutine for ever.
	_ = uc.SetReadDeadline(time.Now().Add(h.opts.HandshakeTimeout))
	g, err := proto.ReadHello(fc, proto.MinVersion, proto.MaxVersion, proto.WelcomeReply{
		Caps: []string{proto.CapFdPassing, proto.CapScreen, proto.CapRaw, proto.CapEvents, proto.CapPasteData}, Host: h.opts.Build, Pid: os.Getpid(),
	})
	if err != nil {
		h.log.Printf("refused a client: %v", err) // the error names the handshake
		return
	}
	_ = uc.SetReadDeadline(time.Time{})
	serving := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c := &conn{h: h, fc: fc, nc: uc, ctx: ctx, cancel: cancel, serving: serving, subs: map[uint32]subEntry{}, peer: g.Hello,
		fds: hasCap(g.Welcome.Caps, proto.CapFdPassing), slots: make(chan struct{}, MaxConnRequests), bigReply: make(chan struct{}, 1)}
	if welcomed, err := h.window.welcome(c, func() error { return g.Answer(fc) }); !welcomed || err != nil {
		if err != nil {
			h.log.Printf("refused a client: %v", err)
		}
		return // not welcomed while an upgrade's notice goes out: the client dials again and meets the new image (drain.go)
	}
	defer h.window.remove(c)
	c.lanes.init(c)
	h.clientDelta(1)
	defer h.clientDelta(-1)
	c.readLoop()
	cancel()
	c.active.Wait()
	told := c.h.window.toldOf(c)
	if serving.Err() != nil && !told {
		c.tellStopping() // the host is stopping (stopnotice.go)
	}
	if !told { // told of an upgrade, the client hung up to follow it: its pastes and panes go on (drain.go)
		c.closeOpenPastes()
		c.killOwned()
	}
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
func (h *Server) clientDelta(d int) {
	h.mu.Lock()
	h.clients += d
	h.mu.Unlock()
	h.armIdle()
}

// readLoop dispatches frames until the connection or the host ends. When
// it ends, the last writes get shutdownWriteTimeout at most, so a client
// that stopped reading cannot hold up the host's shutdown.
func (c *conn) readLoop() {
	go func() {
		<-c.ctx.Done()
		_ = c.nc.SetReadDeadline(pastTime) // unblocks ReadFrame at shutdown
		if wt, ok := c.fc.(writeTimeouter); ok {
			wt.SetWriteTimeout(shutdownWriteTimeout)
		}
	}()
	for {
		f, err := c.fc.ReadFrame()
		if err != nil {
			return
		}
		if f.Type != proto.MsgEscrow {
			proto.CloseFds(f.Fds) // only escrow carries fds; never leak what arrives
			f.Fds = nil
		}
		c.dispatch(f)
	}
}

// reply sends the one reply to request reqID. A failed write ends the
// connection.
func (c *conn) reply(reqID uint32, m proto.Message, fds ...int) {
	f, err := proto.NewFrame(reqID, proto.FlagReply, m)
	if err != nil {
		f = mustFrame(reqID, proto.FlagReply, &proto.ErrorReply{Code: proto.CodeInternal, Message: fmt.Sprintf("encode %s: %v", m.MsgType(), err)})
	}
	f.Fds = fds
	if n := proto.WireHeaderSize + len(f.Body); n > proto.WireMaxFrame {
		// The client could not read it, and writing it would end the
		// connection with no word of why.
		f = mustFrame(reqID, proto.FlagReply, &proto.ErrorReply{Code: proto.CodeTooLarge,
			Message: fmt.Sprintf("the %s reply is %d bytes, over the protocol's %d-byte frame; ask for less (fewer --scrollback lines, or without --ansi)", m.MsgType(), n, proto.WireMaxFrame)})
	}
	if err := c.write(f); err != nil {
		c.h.log.Printf("reply to request %d: %v", reqID, err)
	}
}

// push sends a subscription frame.
func (c *conn) push(reqID uint32, flags proto.Flags, m proto.Message) error {
	f, err := proto.NewFrame(reqID, proto.FlagPush|flags, m)
	if err != nil {
		return err
	}
	return c.write(f)
}

// write sends f; a failure (the client stopped reading past the write
// timeout, or went away) ends the connection.
func (c *conn) write(f proto.Frame) error {
	err := c.fc.WriteFrame(f)
	if err != nil {
		c.cancel()
	}
	return err
}

// fail replies with an error; err that is not an *ErrorReply becomes
// internal, with its text.
func (c *conn) fail(reqID uint32, err error) {
	e, ok := err.(*proto.ErrorReply)
	if !ok {
		e = &proto.ErrorReply{Code: proto.CodeInternal, Message: err.Error()}
	}
	c.reply(reqID, e)
}

// recoverRequest ends request reqID with an internal error if its handler
// panicked, and logs the stack: one bad request never takes down the host.
func (c *conn) recoverRequest(reqID uint32, t proto.MsgType) {
	v := recover()
	if v == nil {
		return
	}
	c.h.log.Printf("panic in %s request %d: %v\n%s", t, reqID, v, debug.Stack())
	c.reply(reqID, &proto.ErrorReply{Code: proto.CodeInternal, Message: fmt.Sprintf("the host failed on this %s request (%v); the host log has the details, please report it", t, v)})
}

func mustFrame(reqID uint32, flags proto.Flags, m proto.Message) proto.Frame {
	f, err := proto.NewFrame(reqID, flags, m)
	if err != nil {
		panic(fmt.Sprintf("encode %s: %v", m.MsgType(), err)) // our own fixed messages always encode
	}
	return f
}

// addSub records a subscription's stop function under its request id; it
// refuses one over the connection's limits.
func (c *conn) addSub(id uint32, stop context.CancelFunc, fd bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.subs) >= MaxConnSubs {
		return &proto.ErrorReply{Code: proto.CodeBusy, Message: fmt.Sprintf("this connection already holds %d subscriptions; unsubscribe some first", MaxConnSubs)}
	}
	if fd && c.nfds >= MaxConnFds {
		return &proto.ErrorReply{Code: proto.CodeBusy, Message: fmt.Sprintf("this connection already holds %d passed terminals; unsubscribe some, or subscribe without want_fd", MaxConnFds)}
	}
	if fd {
		c.nfds++
	}
	c.subs[id] = subEntry{stop: stop, fd: fd}
	return nil
}

// endSub stops subscription id; it reports whether there was one.
func (c *conn) endSub(id uint32) bool {
	c.mu.Lock()
	e, ok := c.subs[id]
	delete(c.subs, id)
	if ok && e.fd {
		c.nfds--
	}
	c.mu.Unlock()
	if ok && e.fd {
		c.h.holders.remove(c, id)
	}
	if ok {
		e.stop()
	}
	return ok
}

// own ties p to this connection: it is killed when the last connection
// it is tied to ends. A client ties its run again on each connection it
// makes (clowder exec across an upgrade), and ends the older ones.
func (c *conn) own(p *pane) {
	c.mu.Lock()
	c.owned = append(c.owned, p)
	c.mu.Unlock()
	p.mu.Lock()
	p.ties++
	p.mu.Unlock()
}

// killOwned kills the kill_on_disconnect panes of a connection that ended
// (a foreground `clowder exec` whose client died) that no other
// connection holds.
func (c *conn) killOwned() {
	for _, p := range c.owned {
		p.mu.Lock()
		p.ties--
		last := p.ties == 0
		p.mu.Unlock()
		if last && p.ours() {
			c.h.log.Printf("client of %s went away; killing it", p.id)
			_, _ = p.kill(supervisor.Identity{}, 0) // best effort: the client is gone
		}
	}
}

// writeTimeouter is a transport that can bound its writes (proto.FdConn
// can); on one that cannot, the transport's own closing ends a stuck write.
type writeTimeouter interface {
	SetWriteTimeout(d time.Duration)
}
