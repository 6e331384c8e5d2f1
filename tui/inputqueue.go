package tui

// This file is a pane's input queue: every byte the TUI sends one pane
// (keys, pastes, mouse and focus reports) goes through the pane's one
// queue, in the order Update put it there, and leaves it in that order:
//
//   - Update writes straight to the PTY master the host passed when
//     nothing is queued or being written (the fast path: the key reaches
//     the pane at once, from Update, with writeDeadline);
//   - everything else (what a write could not take within its deadline,
//     keys typed before the pane's master arrived, keys for a pane whose
//     master was not passed) is appended to the queue, and one goroutine
//     per queue drains it in order, to the master or, without one, through
//     the host's input call, one call at a time.
//
// A bracketed paste the master does not take in Update's one write (one
// over directPaste) leaves its brackets to the host: the drainer asks the
// host to write ESC[200~ and ESC[201~ (a split paste's first and last
// part, with no text) and writes the body itself in between. The host then knows the paste is open while the body is
// written, and closes it if the TUI dies before its end (killed in the
// middle of a big paste, it left the program inside the paste, taking
// every later key as pasted text). Nothing else in the queue holds the
// markers: pasted text has them removed (panes.Paste), and no key
// encodes to them.
//
// So keys never race: there is never more than one writer per pane, and
// never one Cmd per key. A queue whose pane is not known yet (a split the
// host has not answered) holds what is typed until the pane is placed and
// its master arrives, which is how keys typed right after a split reach
// the new pane.
//
// Goroutine: drain, started by newInputQueue, ends when close is called
// (Update closes the queue when its pane leaves or exits, and on quit). A
// write it has under way ends within drainDeadline.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"clowder/panes"
	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

// Time limits of input writes: Update's own write must not stall the UI;
// the drainer's only bounds how long it takes to notice close.
const (
	writeDeadline = 20 * time.Millisecond
	drainDeadline = time.Second
)

// maxQueuedInput bounds what waits for one pane; a pane that reads nothing
// while more is typed or pasted loses the excess, and the user is told.
const maxQueuedInput = 64 << 20

// hostChunk is the most one input call carries (frames are bounded).
const hostChunk = 256 << 10

// directPaste is the largest bracketed paste Update writes to the master
// itself, brackets and all: a line or a prompt, which the terminal takes
// in one write, so it cannot be cut by the TUI's death, and which should
// not wait for the host (stopped, or busy). A bigger one, or what a write
// did not take, goes through the drainer, with the host's brackets.
const directPaste = 1 << 10

// route is where a queue delivers.
type route uint8

const (
	routeWait   route = iota // the master is still to come: hold everything
	routeMaster              // write to the PTY master dup
	routeHost                // no master: the host's input call
)

// inputQueue is one pane's input, in order. Safe for concurrent use.
type inputQueue struct {
	host   Host
	report func(string) // tells the user (through the mailbox) of a failure

	mu     sync.Mutex
	pane   string // "" until the spawn that made the queue is answered
	buf    []byte
	route  route
	master *client.Master
	busy   bool // a write is under way (Update's or the drainer's)
	closed bool
	wake   chan struct{} // capacity 1: "look again"
}

// newInputQueue starts the queue of pane ("" for a pane still spawning),
// holding input until setMaster says where it goes.
func newInputQueue(h Host, pane string, report func(string)) *inputQueue {
	q := &inputQueue{host: h, report: report, pane: pane, wake: make(chan struct{}, 1)}
	go q.drain() // ends on close
	return q
}

// signal wakes the drainer without blocking.
func (q *inputQueue) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// setPane names the pane a spawning queue belongs to.
func (q *inputQueue) setPane(id string) {
	q.mu.Lock()
	q.pane = id
	q.mu.Unlock()
}

// setMaster routes the queue to f, or through the host if f is nil, and
// delivers what waited.
func (q *inputQueue) setMaster(f *client.Master) {
	q.mu.Lock()
	q.master, q.route = f, routeHost
	if f != nil {
		q.route = routeMaster
	}
	q.mu.Unlock()
	q.signal()
}

// hold makes the queue wait for a new master (a resubscription).
func (q *inputQueue) hold() {
	q.mu.Lock()
	q.master, q.route = nil, routeWait
	q.mu.Unlock()
}

// takeAll closes the queue and returns what it still held.
func (q *inputQueue) takeAll() []byte {
	q.mu.Lock()
	b := q.buf
	q.mu.Unlock()
	q.close()
	return b
}

// close drops what is queued and ends the drainer. Idempotent.
func (q *inputQueue) close() {
	q.mu.Lock()
	q.closed, q.buf, q.master = true, nil, nil
	q.mu.Unlock()
	q.signal()
}

// send queues b for the pane; called from Update. With a master and
// nothing ahead of b, it writes b at once (see the file comment).
func (q *inputQueue) send(b []byte) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed || len(b) == 0 {
		return
	}
	if q.route == routeMaster && !q.busy && len(q.buf) == 0 && (len(b) <= directPaste || !hasPasteMarker(b)) {
		f := q.master
		q.busy = true
		q.mu.Unlock()
		n, err := f.WriteWithin(b, writeDeadline)
		q.mu.Lock()
		q.busy = false
		if err == nil {
			return
		}
		b = b[n:]
		q.demote(f, err)
	}
	q.enqueue(b)
}

// enqueue appends b within maxQueuedInput; q.mu is held.
func (q *inputQueue) enqueue(b []byte) {
	if len(q.buf)+len(b) > maxQueuedInput {
		q.report(fmt.Sprintf("input to %s: %d bytes dropped: the pane is not reading its input", q.pane, len(b)))
		return
	}
	q.buf = append(q.buf, b...)
	q.signal()
}

// demote leaves master f after a write failed for another reason than its
// deadline (closed, or the terminal gone): the host delivers the rest.
// q.mu is held.
func (q *inputQueue) demote(f *client.Master, err error) {
	if errors.Is(err, os.ErrDeadlineExceeded) || q.master != f || q.route != routeMaster {
		return
	}
	q.master, q.route = nil, routeHost
}

// drain delivers the queue in order until close.
func (q *inputQueue) drain() {
	for {
		b, r, f, pane, ok := q.take()
		if !ok {
			return
		}
		var rest []byte
		if r == routeMaster {
			rest = q.toMasterBracketed(f, pane, b)
		} else {
			q.toHost(pane, b)
		}
		q.done(rest)
	}
}

// hasPasteMarker says whether b holds a bracketed paste's start or end.
func hasPasteMarker(b []byte) bool {
	return bytes.Contains(b, []byte(panes.PasteStart)) || bytes.Contains(b, []byte(panes.PasteEnd))
}

// nextPasteMarker is the offset, length and split-paste part of the first
// paste bracket in b; i < 0 if there is none.
func nextPasteMarker(b []byte) (i, n int, part string) {
	i, n, part = -1, 0, ""
	if j := bytes.Index(b, []byte(panes.PasteStart)); j >= 0 {
		i, n, part = j, len(panes.PasteStart), proto.PastePartFirst
	}
	if j := bytes.Index(b, []byte(panes.PasteEnd)); j >= 0 && (i < 0 || j < i) {
		i, n, part = j, len(panes.PasteEnd), proto.PastePartLast
	}
	return i, n, part
}

// toMasterBracketed is toMaster, with each paste bracket in b written by
// the host (see the file comment) or, if the host cannot, to the master
// as before. It returns what is left, as toMaster.
func (q *inputQueue) toMasterBracketed(f *client.Master, pane string, b []byte) []byte {
	for len(b) > 0 {
		i, n, part := nextPasteMarker(b)
		if i < 0 {
			return q.toMaster(f, b)
		}
		if rest := q.toMaster(f, b[:i]); len(rest) > 0 {
			return append(rest, b[i:]...)
		}
		if !q.hostBracket(pane, part) {
			if rest := q.toMaster(f, b[i:i+n]); len(rest) > 0 {
				return append(rest, b[i+n:]...)
			}
		}
		b = b[i+n:]
	}
	return nil
}

// hostBracket asks the host to open or close a paste into pane (part);
// false if it did not.
func (q *inputQueue) hostBracket(pane string, part string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	return q.host.Paste(ctx, proto.PasteReq{Pane: pane, Part: part}) == nil
}

// take waits until there is something to deliver somewhere, and takes it
// all; false once the queue is closed.
func (q *inputQueue) take() (b []byte, r route, f *client.Master, pane string, ok bool) {
	for {
		q.mu.Lock()
		if q.closed {
			q.mu.Unlock()
			return nil, 0, nil, "", false
		}
		if len(q.buf) > 0 && q.route != routeWait && !q.busy {
			b, q.buf, q.busy = q.buf, nil, true
			r, f, pane = q.route, q.master, q.pane
			q.mu.Unlock()
			return b, r, f, pane, true
		}
		q.mu.Unlock()
		<-q.wake
	}
}

// done ends a delivery: rest (what the master did not take) goes back to
// the head of the queue.
func (q *inputQueue) done(rest []byte) {
	q.mu.Lock()
	q.busy = false
	if len(rest) > 0 && !q.closed {
		q.buf = append(rest, q.buf...)
	}
	q.mu.Unlock()
	q.signal()
}

// toMaster writes b to f, retrying after each deadline until it is all
// written or the queue closes. It returns what is left when f failed
// otherwise (the route then falls back to the host).
func (q *inputQueue) toMaster(f *client.Master, b []byte) []byte {
	for len(b) > 0 {
		n, err := f.WriteWithin(b, drainDeadline)
		b = b[n:]
		if err == nil {
			return nil
		}
		q.mu.Lock()
		closed := q.closed
		q.demote(f, err)
		q.mu.Unlock()
		if closed || !errors.Is(err, os.ErrDeadlineExceeded) {
			return b
		}
	}
	return nil
}

// toHost sends b through the host's input call, in chunks, each after
// the previous one's answer, so that no call overtakes another.
func (q *inputQueue) toHost(pane string, b []byte) {
	for len(b) > 0 {
		n := min(len(b), hostChunk)
		if err := q.hostInput(pane, b[:n]); err != nil {
			q.mu.Lock()
			closed := q.closed
			q.mu.Unlock()
			if !closed {
				q.report(fmt.Sprintf("input to %s: %v", pane, err))
			}
			return
		}
		b = b[n:]
	}
}

// hostInput is one input call.
func (q *inputQueue) hostInput(pane string, b []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	return q.host.Input(ctx, proto.InputReq{Pane: pane, Data: b})
}
