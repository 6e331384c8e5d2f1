// The request side of an upgrade in place (docs/protocol.md, "Upgrade
// window"): requests are exactly-once across the exec. When an upgrade
// begins, the host stops executing new requests: every request it reads
// from then on (but subscribe, events and unsubscribe, which end with the
// other subscriptions), and every ordered request still queued in a lane,
// is answered CodeUpgrading ("not executed; send it again to the new
// host"), and a pending wait ends the same way. Requests already running finish
// and are answered. Just before the exec, each connection gets one last
// frame, the upgrade notice (a push on request id 0 with FlagEnd and
// CodeUpgrading): every request the client sent on that connection and
// has no reply to was never executed, and will not be, since a
// connection that was told executes nothing again even if the exec
// fails. A client can therefore retry every unanswered request on the
// new host, input and paste included, and nothing runs twice.

package host

import (
	"fmt"
	"sync"
	"time"

	"clowder/supervisor/proto"
)

// drainTimeout bounds how long an upgrade waits for running requests (a
// kill's grace, a submit's confirmation) before it gives up and the host
// serves on.
const drainTimeout = 30 * time.Second

// upgradeWindow tracks the connections and their running requests, and
// whether an upgrade is draining them.
type upgradeWindow struct {
	hand     sync.RWMutex // read-held while a welcome is sent; tellUpgrading holds it to mark connections told
	mu       sync.Mutex
	conns    map[*conn]struct{}
	draining bool
	telling  bool          // the upgrade notice went out: a connection that comes now is not welcomed
	closing  chan struct{} // closed while draining; waits end on it
	running  int           // requests read and not yet answered or dropped
	idle     chan struct{} // closed when running falls to 0 while draining
}

// errUpgrading is the answer to a request the host will not execute
// because it is upgrading.
var errUpgrading = &proto.ErrorReply{Code: proto.CodeUpgrading,
	Message: "the host is upgrading in place and did not execute this request; send it again once the new host answers"}

// welcome registers c and sends it the welcome (send), unless the
// upgrade notice went out: c then gets no welcome, and false, and its
// client, whose handshake was cut short, dials again and meets the new
// image. Welcomes go out under hand's read lock and tellUpgrading takes
// it to mark the connections told, so every welcomed connection is among
// those told, its notice after its welcome. On send's error c is not
// registered.
func (w *upgradeWindow) welcome(c *conn, send func() error) (bool, error) {
	w.hand.RLock()
	defer w.hand.RUnlock()
	w.mu.Lock()
	if w.telling {
		w.mu.Unlock()
		return false, nil
	}
	if w.conns == nil {
		w.conns = map[*conn]struct{}{}
	}
	w.conns[c] = struct{}{}
	w.mu.Unlock()
	if err := send(); err != nil {
		w.remove(c)
		return true, err
	}
	return true, nil
}

func (w *upgradeWindow) remove(c *conn) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.conns, c)
}

// isDraining reports whether new requests must be refused.
func (w *upgradeWindow) isDraining() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.draining
}

// closingCh is closed while an upgrade drains: a wait ends on it.
func (w *upgradeWindow) closingCh() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closing == nil {
		w.closing = make(chan struct{})
	}
	return w.closing
}

// finished uncounts an admitted request once it is answered.
func (w *upgradeWindow) finished() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.running--
	if w.running == 0 && w.idle != nil {
		close(w.idle)
		w.idle = nil
	}
}

// begin starts draining; false if another upgrade already drains.
func (w *upgradeWindow) begin() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.draining {
		return false
	}
	w.draining = true
	if w.closing == nil {
		w.closing = make(chan struct{})
	}
	close(w.closing)
	return true
}

// quiet waits until no request runs, at most d.
func (w *upgradeWindow) quiet(d time.Duration) error {
	w.mu.Lock()
	if w.running == 0 {
		w.mu.Unlock()
		return nil
	}
	if w.idle == nil {
		w.idle = make(chan struct{})
	}
	idle, n := w.idle, w.running
	w.mu.Unlock()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-idle:
		return nil
	case <-t.C:
		return fmt.Errorf("upgrade: %d requests were still running after %s (a kill's grace, a stuck input?); the host keeps running, try again", n, d)
	}
}

// end stops draining (after a failed exec): requests run again.
func (w *upgradeWindow) end() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.draining, w.telling = false, false
	w.closing = make(chan struct{})
}

// drainRequests stops executing requests and waits for the running ones
// to be answered; the upgrade request itself does not count. On error the
// host serves on (endDrain).
func (h *Server) drainRequests() error {
	if !h.window.begin() {
		return &proto.ErrorReply{Code: proto.CodeUpgrading, Message: "the host is already upgrading in place; wait for it, then see clowder host status"}
	}
	h.log.Printf("upgrade: no new request runs from now on; waiting for the running ones")
	if err := h.window.quiet(drainTimeout); err != nil {
		h.window.end()
		return err
	}
	return nil
}

// endDrain lets requests run again after a failed upgrade.
func (h *Server) endDrain() { h.window.end() }

// tellUpgrading sends the upgrade notice on every connection but the one
// that asked for the upgrade (which gets the upgrade's own answer), and
// marks them told: they execute nothing again. Called just before the
// exec, once no request runs and every subscription has ended.
func (h *Server) tellUpgrading(except *conn) {
	h.window.hand.Lock() // no welcome is being sent: each connection welcomed is in conns
	h.window.mu.Lock()
	h.window.telling = true
	conns := make([]*conn, 0, len(h.window.conns))
	for c := range h.window.conns {
		if c != except {
			conns = append(conns, c)
		}
	}
	h.window.mu.Unlock()
	h.window.hand.Unlock()
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Add(1)
		go func() { // bounded: a notice write has shutdownWriteTimeout at most
			defer wg.Done()
			c.tellUpgrading()
		}()
	}
	wg.Wait()
}

// tellUpgrading marks c told and sends it the upgrade notice.
func (c *conn) tellUpgrading() {
	c.h.window.mu.Lock()
	c.told = true
	c.h.window.mu.Unlock()
	if wt, ok := c.fc.(writeTimeouter); ok {
		wt.SetWriteTimeout(shutdownWriteTimeout)
	}
	f := mustFrame(0, proto.FlagPush|proto.FlagEnd, &proto.ErrorReply{Code: proto.CodeUpgrading,
		Message: "the host is upgrading in place; requests without a reply on this connection were not executed: send them again to the new host"})
	_ = c.fc.WriteFrame(f) // best effort: a client that does not read it sees the connection end
}

// admit decides whether request m, just read from c, runs: not on a
// connection that got the notice, and while an upgrade drains, only
// (un)subscribing (the caller answers errUpgrading). A subscription opened
// then ends with the others, `upgrading`, and its client subscribes again
// from where it was, as it does for one opened before. An admitted
// request counts as running until finished.
func (w *upgradeWindow) admit(c *conn, m proto.Message) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if c.told || (w.draining && !subscribing(m)) {
		return false
	}
	if counted(m) {
		w.running++
	}
	return true
}

// toldOf reports whether c got the upgrade notice.
func (w *upgradeWindow) toldOf(c *conn) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return c.told
}

// subscribing reports whether m opens or ends a subscription.
func subscribing(m proto.Message) bool {
	switch m.(type) {
	case *proto.SubscribeReq, *proto.EventsReq, *proto.UnsubscribeReq:
		return true
	}
	return false
}

// counted reports whether request m counts as running for the drain: the
// upgrade request waits for the drain itself.
func counted(m proto.Message) bool {
	_, ok := m.(*proto.UpgradeReq)
	return !ok
}
