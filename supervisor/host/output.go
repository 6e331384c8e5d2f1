// A pane's output path: the run's reader goroutine hands each chunk it
// read to pane.Write. A small chunk with nothing queued before it (an
// echo, a prompt) is parsed there and then, with no goroutine hop; a
// bigger one (a flood hands over about 4 KiB per read) is queued for a
// parse goroutine that exists only while output is queued, so during a
// flood the reader reads the PTY on one core while the screen is parsed on
// the other (issue 12), and an idle pane holds neither the goroutine nor
// the queue's buffers.
//
// Whoever parses writes the ring and the screen together, under the pane
// lock: the ring's end is always the output the screen shows, so a screen
// frame's seq is exact and a subscriber replaying the ring from it sees
// every byte once. The queue is bounded: a reader that gets ahead of the
// parse by outQueueMax waits, and so does the program writing the output
// (nothing is dropped). The reader calls Flush before it parks or stops
// (supervisor.Flusher), so a drained run's exit, and a frozen run's
// handover, come after its last byte is parsed.

package host

import (
	"runtime"
	"sync"
	"time"

	"clowder/supervisor"
)

// outParseInline is the largest chunk parsed on the reader's goroutine.
const outParseInline = 1 << 10

// outQueueMax bounds the output queued for the parse goroutine.
const outQueueMax = 128 << 10

// outParseMax bounds the output parsed under one hold of the pane lock,
// so a request that takes it (a list, a snapshot) waits a millisecond or
// two at most, whatever the stream.
const outParseMax = 32 << 10

// parseSlots is how many panes' parse goroutines may parse at once: one
// fewer than the runtime's processors, at least one. With every processor
// parsing a flood, nothing polls the network but the runtime's monitor,
// every 10 ms, so the echo of a key typed in a quiet pane beside seven
// flooding ones sat read-ready in the kernel for 5 ms on average, and
// its frame to the TUI waited the same way. One processor left to the
// readers and writers goes back to the poller each time they block: the
// echo's median went from 9-10 ms to 2.4-5 ms, against tmux's 5-7 in the
// same runs, and the seven floods together took 3% longer (issue 12).
var parseSlots = max(1, runtime.GOMAXPROCS(0)-1)

// outBufs recycles the queue's buffers between panes and floods.
var outBufs = sync.Pool{New: func() any { return new([]byte) }}

// outQueue is output read and not yet parsed.
type outQueue struct {
	mu      sync.Mutex
	cond    sync.Cond // room in pending, or parsing over; on mu
	pending *[]byte   // appended by the reader; nil while empty
	parsing bool      // a parse goroutine runs: set while pending holds bytes
	watched bool      // a client watched the pane as the parse goroutine started (procs.go)
}

var _ supervisor.TimedOutput = (*pane)(nil)

// Write takes output from the run's reader goroutine and never fails. It
// blocks only while outQueueMax bytes wait for the parse; never on a
// client.
func (p *pane) Write(b []byte) (int, error) {
	p.WriteAt(b, time.Now())
	return len(b), nil
}

// WriteAt is Write for output read at now (supervisor.TimedOutput): the
// reader's one clock read serves the whole chunk's work, its stamp, the
// attention timer and the echo's pacing (issue 12).
func (p *pane) WriteAt(b []byte, now time.Time) {
	q := &p.out
	q.mu.Lock()
	if !q.parsing && len(b) <= outParseInline && p.mu.TryLock() {
		q.mu.Unlock()
		p.parseEchoLocked(b, now)
		return
	}
	for q.parsing && q.pending != nil && len(*q.pending) >= outQueueMax {
		q.wait()
	}
	if q.pending == nil {
		q.pending = outBufs.Get().(*[]byte)
	}
	*q.pending = append(*q.pending, b...)
	if !q.parsing {
		q.parsing, q.watched = true, p.watchers.Load() > 0
		p.h.procs.started(q.watched)
		go p.parseQueued()
	}
	q.mu.Unlock()
}

// Flush returns once every chunk given to Write is parsed
// (supervisor.Flusher): the reader calls it before it parks or returns.
func (p *pane) Flush() {
	q := &p.out
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.parsing {
		q.wait()
	}
}

// wait waits on q.cond; q.mu is held.
func (q *outQueue) wait() {
	if q.cond.L == nil { // the zero outQueue is ready to use
		q.cond.L = &q.mu
	}
	q.cond.Wait()
}

// parseQueued is the parse goroutine: it takes everything queued, parses
// it, and returns once the queue is empty.
func (p *pane) parseQueued() {
	q := &p.out
	var buf *[]byte
	for {
		q.mu.Lock()
		if buf != nil {
			*buf = (*buf)[:0]
			outBufs.Put(buf)
		}
		buf, q.pending = q.pending, nil
		watched := false // what started told the governor; read under mu, as the next start sets it
		if buf == nil {
			q.parsing, watched = false, q.watched
		}
		q.cond.Broadcast() // room for the reader, or the end for Flush
		q.mu.Unlock()
		if buf == nil {
			p.h.procs.ended(watched)
			return
		}
		if hook := p.onParse.Load(); hook != nil {
			(*hook)()
		}
		for b := *buf; len(b) > 0; b = b[min(len(b), outParseMax):] {
			p.h.parsing <- struct{}{}
			p.mu.Lock()
			replies, run := p.parseOnlyLocked(b[:min(len(b), outParseMax)], time.Now())
			p.broadcastLocked()
			p.mu.Unlock()
			<-p.h.parsing
			writeReplies(run, replies) // may wait for the program: not while holding a slot
		}
	}
}

// parseEchoLocked is parseLocked for a small chunk on the reader's
// goroutine: the screen subscribers that can take its frame at once get
// it from here (echo.go), and the broadcast wakes only the others.
func (p *pane) parseEchoLocked(b []byte, now time.Time) {
	replies, run := p.parseOnlyLocked(b, now)
	var served []bool
	if subs := p.echoSubs; len(subs) > 0 {
		s := p.term.Snapshot()
		_, seq := p.ring.Bounds()
		p.mu.Unlock()
		served = p.echoFrames(subs, s, seq, now)
		p.mu.Lock()
		if !sameSubs(subs, p.echoSubs) {
			served = nil // one came or went meanwhile: wake them all
		}
	}
	p.broadcastExceptLocked(served)
	p.mu.Unlock()
	writeReplies(run, replies)
}

// parseOnlyLocked puts b, output at now, in the ring and the screen, and
// takes the screen's answers to the program's queries; p.mu is held.
func (p *pane) parseOnlyLocked(b []byte, now time.Time) ([]byte, *supervisor.Run) {
	_, _ = p.ring.Write(b) // never fails
	p.followSizeLocked()
	_, _ = p.term.Write(b) // never fails
	p.h.release.parsed(len(b), now)
	replies := p.replies
	p.replies = nil
	p.lastOut = now
	p.updateAttentionLocked(now)
	return replies, p.run
}

// writeReplies writes the screen's answers to the program's queries.
func writeReplies(run *supervisor.Run, replies []byte) {
	if len(replies) > 0 && run != nil {
		_, _ = run.WriteInput(replies) // best effort: a child that never reads its input loses the answer
	}
}
