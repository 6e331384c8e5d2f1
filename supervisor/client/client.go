// This file is the client side of protocol v1 (docs/protocol.md): a Client
// owns one FrameConn, sends requests with atomically allocated ids, and
// hands each reply to the call waiting on its id and each push to its
// subscription (sub.go). The typed request helpers are in calls.go;
// dialing and starting a host on demand in start.go.
//
// Who reads: while no subscription, Done or concurrent call needs the
// connection read in the background, a call reads its reply itself
// (inline.go): a one-shot CLI command then runs on one goroutine, with no
// hand-off between threads. Once something needs it, one reader goroutine
// reads from then on.
//
// Goroutines: the reader is owned by the Client; it exits when the
// connection fails or Close closes it, and then fails every pending call
// and ends every subscription.

package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"clowder/persist"
	"clowder/supervisor/proto"
)

// ErrClientClosed is the cause of calls and subscriptions cut short by
// Client.Close. A connection lost for another reason gives an error that
// wraps the transport's error instead; both match ErrConnectionLost.
var ErrClientClosed = errors.New("client closed")

// ErrConnectionLost matches (errors.Is) every error that says the
// connection to the host ended under a call or subscription.
var ErrConnectionLost = errors.New("connection to the host lost")

// Caps are the capabilities a Client offers in its hello.
var Caps = []string{proto.CapFdPassing, proto.CapScreen, proto.CapRaw, proto.CapEvents, proto.CapPasteData}

// Client is one connection to a host. All methods are safe for concurrent
// use. A call's context bounds only that call: cancelling it returns
// ctx.Err() and leaves the connection usable (a late reply is dropped, and
// its fds closed).
type Client struct {
	conn    proto.FrameConn
	closer  io.Closer
	welcome proto.WelcomeReply
	nextID  atomic.Uint32
	addr    string // the socket, for errors; "" if unknown

	timeouts atomic.Pointer[func(proto.Message) time.Duration] // per-request deadlines; nil: none

	mu      sync.Mutex
	pending map[uint32]chan result
	subs    map[uint32]*Subscription
	err     error   // set once, when the reader stops; nil while it runs
	next    *Client // the connection made after this one was lost (retry.go); nil for none
	closed  bool    // Close ran: no new connection is made

	raw      readableConn // the socket, on which a call can wait for its reply (inline.go); nil: the reader runs from the start
	inline   bool         // a call reads frames itself now (under mu)
	readerOn bool         // the reader goroutine reads, or will once the inline call is done (under mu)

	redial   redialer    // makes a new connection the way this one was made; nil: none (retry.go)
	retry    atomic.Bool // RetryAcrossHostLoss was called
	noStart  atomic.Bool // its retries wait for a host, never start one (a Redialer's: startguard.go)
	redialMu sync.Mutex  // one reconnection at a time

	done      chan struct{} // closed when reading has stopped for good
	doneOnce  sync.Once
	closeOnce sync.Once
	closeErr  error
}

// result is what the reader hands a waiting call.
type result struct {
	msg proto.Message
	fds []int
	err error
}

// New runs the handshake on conn (hello with Caps, as client
// program name). closer closes the transport under
// conn; the Client owns it from now on, also on error. The context bounds
// the handshake only if closer can be closed to interrupt it, which it
// then is.
func New(ctx context.Context, conn proto.FrameConn, closer io.Closer, name string) (*Client, error) {
	stop := context.AfterFunc(ctx, func() { _ = closer.Close() }) // best effort: unblocks the handshake
	w, err := proto.Hello(conn, proto.HelloReq{Min: proto.MinVersion, Max: proto.MaxVersion, Caps: Caps,
		Client: name, Pid: os.Getpid()})
	if !stop() {
		err = errors.Join(ctx.Err(), err)
	}
	if err != nil {
		_ = closer.Close() // best effort: the handshake already failed
		return nil, err
	}
	c := &Client{conn: conn, closer: closer, welcome: w,
		pending: map[uint32]chan result{}, subs: map[uint32]*Subscription{},
		done: make(chan struct{})}
	c.nextID.Store(1) // id 1 was the hello
	if rc, ok := closer.(readableConn); ok && inlineReads {
		c.raw = rc
	} else {
		c.mu.Lock()
		c.startReaderLocked()
		c.mu.Unlock()
	}
	return c, nil
}

// SetCallTimeouts gives every request whose context has no deadline of
// its own the deadline f returns for it (0: none, for requests that wait
// on purpose, such as a wait without a timeout). A request that misses
// its deadline fails with a *NotAnsweringError; the connection stays
// usable. The CLI sets it; the TUI, which keeps its connection, does not.
func (c *Client) SetCallTimeouts(f func(proto.Message) time.Duration) { c.timeouts.Store(&f) }

// NotAnsweringError says the host accepted a request (or a connection)
// and did not answer within its deadline: it is stopped (SIGSTOP), hung or
// badly overloaded. It matches context.DeadlineExceeded.
type NotAnsweringError struct {
	Addr  string        // the host's socket
	What  string        // the request, or "the handshake"
	After time.Duration // the deadline it missed
}

func (e *NotAnsweringError) Error() string {
	return fmt.Sprintf("the clowder host at %s did not answer %s within %s; it may be stopped (SIGSTOP) or overloaded; see %s",
		e.Addr, e.What, e.After, filepath.Join(filepath.Dir(e.Addr), persist.LogFileName))
}

// Unwrap makes a NotAnsweringError match context.DeadlineExceeded.
func (e *NotAnsweringError) Unwrap() error { return context.DeadlineExceeded }

// callContext bounds ctx by the request's deadline when ctx has none.
func (c *Client) callContext(ctx context.Context, req proto.Message) (context.Context, context.CancelFunc, time.Duration) {
	f := c.timeouts.Load()
	if f == nil {
		return ctx, func() {}, 0
	}
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}, 0
	}
	d := (*f)(req)
	if d <= 0 {
		return ctx, func() {}, 0
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	return ctx, cancel, d
}

// Welcome returns the host's answer to the handshake: version and the
// capabilities both sides have.
func (c *Client) Welcome() proto.WelcomeReply { return c.welcome }

// HasCap reports whether the capability cap was agreed in the handshake.
func (c *Client) HasCap(cap string) bool {
	for _, have := range c.welcome.Caps {
		if have == cap {
			return true
		}
	}
	return false
}

// Done is closed when the connection has ended (Close, or the host went
// away); Err then says why. Watching it starts the reader, which notices
// the end while no call is made.
func (c *Client) Done() <-chan struct{} {
	c.mu.Lock()
	c.startReaderLocked()
	c.mu.Unlock()
	return c.done
}

// Err returns why the connection ended, or nil while it is up as far as
// the last read saw (an idle connection with no reader, see Done, learns
// of its end on its next call).
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Close closes the connection, fails pending calls with ErrClientClosed and
// ends every subscription. It waits for the reader to stop. Idempotent.
func (c *Client) Close() error {
	c.mu.Lock()
	if c.err == nil {
		c.err = fmt.Errorf("%w: %w", ErrConnectionLost, ErrClientClosed)
	}
	next := c.next
	c.closed = true
	reader := c.readerOn
	c.mu.Unlock()
	err := c.closeConn()
	if reader {
		<-c.done
	} else {
		// No reader will fail the calls that wait (one reading inline
		// fails on the closed socket, but one about to read sees c.err).
		c.shutdown(ErrClientClosed)
		c.stopped()
	}
	if next != nil {
		err = errors.Join(err, next.Close())
	}
	return err
}

// closeConn closes the transport once; later calls return the first
// result.
func (c *Client) closeConn() error {
	c.closeOnce.Do(func() {
		c.closeErr = c.closer.Close()
		if errors.Is(c.closeErr, net.ErrClosed) || errors.Is(c.closeErr, os.ErrClosed) {
			c.closeErr = nil
		}
	})
	return c.closeErr
}

// Call sends req and waits for its reply. It returns the decoded reply and
// the files that came with it (the caller owns and closes them). An error
// reply from the host is returned as the *ErrorReply itself. After
// RetryAcrossHostLoss, req is sent again on a new connection when the
// host went away without executing it, or when it is safe to repeat
// (retry.go).
func (c *Client) Call(ctx context.Context, req proto.Message) (proto.Message, []*os.File, error) {
	return c.callAgain(ctx, c.live(), req)
}

// callOnce sends req on this connection and waits for its reply.
func (c *Client) callOnce(ctx context.Context, req proto.Message) (proto.Message, []*os.File, error) {
	id, ch, err := c.register()
	if err != nil {
		return nil, nil, err
	}
	return c.send(ctx, id, ch, req)
}

// register allocates a request id and a reply slot for it.
func (c *Client) register() (uint32, chan result, error) {
	id := c.nextID.Add(1)
	ch := make(chan result, 1)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return 0, nil, fmt.Errorf("%w: %w", ErrNotExecuted, c.err) // never sent
	}
	c.pending[id] = ch
	return id, ch, nil
}

// send writes request id and waits for the reply on ch, within the
// request's deadline (SetCallTimeouts).
func (c *Client) send(parent context.Context, id uint32, ch chan result, req proto.Message, fds ...int) (proto.Message, []*os.File, error) {
	ctx, cancel, d := c.callContext(parent, req)
	defer cancel()
	f, err := proto.NewFrame(id, 0, req)
	f.Fds = fds
	if err != nil {
		c.forget(id)
		return nil, nil, fmt.Errorf("send %s: %w", req.MsgType(), err)
	}
	if err := c.conn.WriteFrame(f); err != nil {
		c.forget(id)
		// A frame the kernel did not take whole never reached the host whole.
		return nil, nil, fmt.Errorf("send %s: %w: %w: %w", req.MsgType(), ErrNotExecuted, ErrConnectionLost, err)
	}
	return c.await(parent, ctx, d, id, ch, req)
}

// await waits for the reply to request id on ch, within ctx (the
// request's deadline d, if its own, or the caller's parent context),
// reading it itself when nobody else reads (inline.go).
func (c *Client) await(parent, ctx context.Context, d time.Duration, id uint32, ch chan result, req proto.Message) (proto.Message, []*os.File, error) {
	if c.claimInline() {
		c.readUntil(ctx, ch)
		c.releaseInline()
	}
	select {
	case r := <-ch:
		return r.msg, filesOf(r.fds), r.err
	case <-ctx.Done():
		c.forget(id)
		if d > 0 && parent.Err() == nil {
			return nil, nil, &NotAnsweringError{Addr: c.addr, What: req.MsgType().String(), After: d}
		}
		return nil, nil, ctx.Err()
	}
}

// forget drops the reply slot of id; a reply that already landed in it has
// its fds closed.
func (c *Client) forget(id uint32) {
	c.mu.Lock()
	ch := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if ch == nil {
		return
	}
	select {
	case r := <-ch:
		proto.CloseFds(r.fds)
	default:
	}
}

// filesOf wraps received fds as files.
func filesOf(fds []int) []*os.File {
	if len(fds) == 0 {
		return nil
	}
	files := make([]*os.File, len(fds))
	for i, fd := range fds {
		files[i] = os.NewFile(uintptr(fd), fmt.Sprintf("clowder-fd-%d", fd))
	}
	return files
}

// startReaderLocked makes the reader goroutine read from now on: at once,
// or when the call reading inline is done. c.mu is held.
func (c *Client) startReaderLocked() {
	if c.readerOn {
		return
	}
	c.readerOn = true
	if !c.inline {
		go c.readLoop()
	}
}

// readLoop is the reader goroutine: it runs until ReadFrame fails.
func (c *Client) readLoop() {
	defer c.stopped()
	for c.readOne() {
	}
}

// readOne reads one frame and hands it on; false when the connection has
// ended.
func (c *Client) readOne() bool {
	f, err := c.conn.ReadFrame()
	if err != nil {
		c.shutdown(err)
		return false
	}
	switch {
	case f.Flags&proto.FlagReply != 0:
		c.dispatchReply(f)
	case f.Flags&proto.FlagPush != 0:
		c.dispatchPush(f)
	default:
		proto.CloseFds(f.Fds) // neither reply nor push: nothing of ours
	}
	return true
}

// stopped closes done: reading has stopped for good.
func (c *Client) stopped() { c.doneOnce.Do(func() { close(c.done) }) }

// dispatchReply hands a reply to the call waiting on its id.
func (c *Client) dispatchReply(f proto.Frame) {
	m, err := f.Message()
	if err == nil {
		if e, ok := m.(*proto.ErrorReply); ok {
			m, err = nil, e
		}
	}
	c.mu.Lock()
	ch := c.pending[f.ReqID]
	delete(c.pending, f.ReqID)
	sub := c.subs[f.ReqID]
	c.mu.Unlock()
	if sub != nil {
		sub.replied(err)
	}
	if ch == nil {
		proto.CloseFds(f.Fds) // the call was cancelled
		return
	}
	ch <- result{msg: m, fds: f.Fds, err: err} // never blocks: capacity 1, one reply per id
}

// dispatchPush hands a push to its subscription; pushes for no known
// subscription (one just closed) are dropped.
func (c *Client) dispatchPush(f proto.Frame) {
	proto.CloseFds(f.Fds) // no push carries fds in v1
	if f.ReqID == 0 {
		c.notice(f)
		return
	}
	c.mu.Lock()
	sub := c.subs[f.ReqID]
	if sub != nil && f.Flags&proto.FlagEnd != 0 {
		delete(c.subs, f.ReqID)
	}
	c.mu.Unlock()
	if sub == nil {
		return
	}
	m, err := f.Message()
	if f.Flags&proto.FlagEnd != 0 {
		if err == nil {
			sub.push(m)
		}
		sub.hostEnded(nil)
		return
	}
	if err != nil {
		sub.fail(fmt.Errorf("subscription %d: bad %s push: %w", sub.id, f.Type, err))
		return
	}
	sub.push(m)
}

// notice handles a push on request id 0: the host's upgrade notice ends
// the connection, and every request still unanswered on it was not
// executed (docs/protocol.md, "Upgrade window"); its stop notice ends it
// too, the requests unanswered in doubt and no host to wait for ("Stop
// notice").
func (c *Client) notice(f proto.Frame) {
	m, err := f.Message()
	e, ok := m.(*proto.ErrorReply)
	if err != nil || !ok || f.Flags&proto.FlagEnd == 0 {
		return
	}
	switch e.Code {
	case proto.CodeUpgrading:
		c.shutdown(fmt.Errorf("%w: %w", ErrNotExecuted, e))
	case proto.CodeShuttingDown:
		c.shutdown(fmt.Errorf("%w: %w", ErrHostStopped, e))
	}
}

// shutdown records why the connection ended and fails everything waiting.
func (c *Client) shutdown(cause error) {
	c.mu.Lock()
	if c.err == nil {
		if errors.Is(cause, io.EOF) {
			cause = errors.New("the host closed the connection")
		}
		c.err = fmt.Errorf("%w: %w", ErrConnectionLost, cause)
	}
	err := c.err
	pending, subs := c.pending, c.subs
	c.pending, c.subs = map[uint32]chan result{}, map[uint32]*Subscription{}
	c.mu.Unlock()
	_ = c.closeConn() // best effort: the connection is already unusable
	for _, ch := range pending {
		ch <- result{err: err}
	}
	for _, s := range subs {
		s.hostEnded(err)
	}
}

// addSub registers s before its request is sent, so that no push that
// follows the reply can arrive before s is known.
func (c *Client) addSub(s *Subscription) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return c.err
	}
	c.subs[s.id] = s
	c.startReaderLocked() // pushes come whether or not a call waits
	return nil
}

// dropSub forgets subscription id locally.
func (c *Client) dropSub(id uint32) {
	c.mu.Lock()
	delete(c.subs, id)
	c.mu.Unlock()
}

// unsubscribeLater asks the host to end subscription id without making the
// caller wait; used when nobody is left to read its pushes.
func (c *Client) unsubscribeLater(id uint32) {
	go func() { // exits when the call returns: bounded by the timeout below
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = c.Unsubscribe(ctx, id) // best effort: the host also ends it when we disconnect
	}()
}
