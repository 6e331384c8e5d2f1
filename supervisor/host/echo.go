// The echo's fast path (issue 12): a keystroke's echo is a small chunk the
// pane's reader parses on its own goroutine (output.go); the frame that
// shows it to a screen subscriber that is caught up is built and written
// there too, with a socket write that cannot wait (proto's
// TryWriteFrame), rather than by the subscriber's goroutine after a
// wake-up. Whenever that cannot be done at once, the subscriber's
// goroutine sends the frame as before (subscribe.go), woken by the pane's
// broadcast: the subscriber is busy (its lock is held), its socket is full
// or its writer busy, the frame is big (a scroll, a redraw: bigFrameRows),
// a paced frame is waiting, a synchronized update is open, or the
// subscription has sent no frame yet. So a subscriber that stops reading
// costs the reader one failed non-blocking send, never a wait.

package host

import (
	"sync"
	"time"

	"clowder/supervisor/proto"
	"clowder/vtgrid"
)

// screenSub is one screen subscription's state, shared by its goroutine
// and the pane reader's fast path under mu. Whoever holds mu is the only
// one writing this subscription's frames, so they go out in order and
// each is a diff against the one sent before it.
type screenSub struct {
	mu    sync.Mutex
	c     *conn
	id    uint32
	last  *vtgrid.Snapshot // the picture the client has; nil before the first frame
	seq   uint64           // the output seq of last
	hold  syncHold
	pace  framePace
	ended bool          // the end frame is going or gone: nothing more may be sent
	wake  chan struct{} // the pane changed since the goroutine last looked (one token)
}

// newScreenSub is the state of subscription id of c.
func newScreenSub(c *conn, id uint32) *screenSub {
	return &screenSub{c: c, id: id, pace: framePace{period: c.h.screenFramePeriod()}, wake: make(chan struct{}, 1)}
}

// signal wakes the subscription's goroutine, or leaves it a token.
func (ss *screenSub) signal() {
	select {
	case ss.wake <- struct{}{}:
	default:
	}
}

// tryWriter is a transport that can write a frame only if it goes at once
// (proto.FdConn).
type tryWriter interface {
	TryWriteFrame(f proto.Frame) (bool, error)
}

// end marks the subscription over: neither path sends another frame.
func (ss *screenSub) end() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.ended = true
}

// echoCells is the fast path's converted rows, under mu: a pane may have
// more than one reader (a run with stdout and stderr arms, run_io.go).
type echoCells struct {
	mu   sync.Mutex
	rows rowCells
}

// addEchoSub lets the reader's fast path write ss's frames.
func (p *pane) addEchoSub(ss *screenSub) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.echoSubs = append(p.echoSubs[:len(p.echoSubs):len(p.echoSubs)], ss) // a new array: the reader may hold the old one
}

// removeEchoSub undoes addEchoSub.
func (p *pane) removeEchoSub(ss *screenSub) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var keep []*screenSub
	for _, o := range p.echoSubs {
		if o != ss {
			keep = append(keep, o)
		}
	}
	p.echoSubs = keep
	if len(keep) == 0 { // nobody to echo to: keep no cells (a row is 6.4 kB at 160 columns)
		p.echoRows.mu.Lock()
		p.echoRows.rows = rowCells{}
		p.echoRows.mu.Unlock()
	}
}

// echoFrames sends the snapshot s, at output seq read at now, to each of subs that
// can take it at once (see the file comment); served[i] reports that
// subs[i] has s, so its goroutine need not wake for it. It runs on the pane
// reader's goroutine, without the pane lock.
func (p *pane) echoFrames(subs []*screenSub, s *vtgrid.Snapshot, seq uint64, now time.Time) (served []bool) {
	var rc *rowCells
	if p.echoRows.mu.TryLock() { // else another reader of the pane converts: convert afresh
		defer p.echoRows.mu.Unlock()
		rc = &p.echoRows.rows
	}
	served = make([]bool, len(subs))
	for i, ss := range subs {
		var sent bool
		served[i], sent = ss.tryEcho(p.id, s, seq, now, rc)
		if sent {
			p.h.echoed.Add(1)
		}
	}
	return served
}

// sameSubs reports whether a and b are the same list.
func sameSubs(a, b []*screenSub) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// tryEcho sends s to ss if it can go now (the time its output was read:
// the pacing needs no finer clock), its rows converted with rc (nil: new
// cells). served: the subscriber has s (sent, or
// nothing in it to send); sent: a frame went.
func (ss *screenSub) tryEcho(pane string, s *vtgrid.Snapshot, seq uint64, now time.Time, rc *rowCells) (served, sent bool) {
	if !ss.mu.TryLock() {
		return false, false // its goroutine is sending: it will see this change too
	}
	defer ss.mu.Unlock()
	if !ss.caughtUp(s, seq, now) || changedRows(s, ss.last) > bigFrameRows {
		return false, false
	}
	f := screenFrameFrom(pane, seq, s, ss.last, rc) // encoded below, before rc's next conversion
	if len(f.Lines) == 0 && sameCursor(s, ss.last) {
		ss.last, ss.seq = s, seq // nothing to show
		return true, false
	}
	fr, err := proto.NewFrame(ss.id, proto.FlagPush, f)
	if err != nil {
		return false, false
	}
	ok, err := ss.c.fc.(tryWriter).TryWriteFrame(fr)
	if err != nil {
		ss.c.cancel() // as conn.write: a failed write ends the connection
	}
	if !ok {
		return false, false
	}
	ss.pace.sent(f, now)
	ss.last, ss.seq = s, seq
	return true, true
}

// caughtUp reports whether the frame of s may go from the fast path: the
// subscription has a picture of the same size older than s, no paced frame
// waits, and no synchronized update is open. ss.mu is held.
func (ss *screenSub) caughtUp(s *vtgrid.Snapshot, seq uint64, now time.Time) bool {
	switch {
	case ss.ended, ss.last == nil, seq <= ss.seq:
		return false
	case ss.last.Cols() != s.Cols() || ss.last.Rows() != s.Rows():
		return false // a full frame: the goroutine's
	case s.Modes().SyncOutput || !ss.hold.since.IsZero():
		return false
	}
	return ss.pace.wait(now) == 0
}

// changedRows counts the rows of s that differ from prev's (same size).
func changedRows(s, prev *vtgrid.Snapshot) int {
	n := 0
	for row := 0; row < s.Rows(); row++ {
		if !sameRow(s.Row(row), prev.Row(row)) {
			n++
		}
	}
	return n
}
