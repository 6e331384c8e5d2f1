package tui

// This file is the coalescing mailbox between the host's streams and
// Update. The client's reader (follow: a handed subscription), or else one
// goroutine per stream (watch), files what the stream delivers here: the
// newest screen state per pane (frames merged, so a flood of output in one
// pane is one pending frame), events in order, and the ends of streams.
// Each filing signals a capacity-1 channel without blocking, unless the
// filer delivered it itself (filedNow: a small frame due now, the event
// loop idle); the event loop (or, in tests, one Cmd, wait) sleeps on it
// and hands everything pending to Update as one mailMsg. So a burst is one
// Update and one render, an idle host costs nothing, and a slow UI never
// blocks a stream (and through it the host).
//
// Goroutines: watch runs until its stream's channel closes, which happens
// when the stream is closed (Model closes every stream on quit and when a
// pane leaves) or the host ends it. wait returns when the mailbox signals
// or is closed.

import (
	"sync"
	"time"

	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

// mailbox is safe for concurrent use.
type mailbox struct {
	mu     sync.Mutex
	frames map[string]*proto.ScreenFrame
	events []proto.PaneEvent
	ended  []streamEnd
	notes  []string
	ready  chan struct{} // capacity 1: "something is pending"
	done   chan struct{} // closed by close
	closed bool
	pace   pacer // spaces deliveries by their cost (pace.go); under mu
	// paced holds, for each pane whose last delivered frame was big (a
	// scroll, a repaint), when its next frame may be delivered: one period
	// later. Other panes' frames and everything else go at once, so an
	// echo never waits for another pane's flood (issue 12). Under mu.
	paced map[string]time.Time
	// typed holds the panes input was written to since their last
	// delivery (typedTo). Their next small frame, the echo, skips the cost
	// gap: the gap keeps a program that repaints a line a thousand times a
	// second from taking the TUI's time, but an echo comes once per key
	// typed, and waiting for the gap's timer cost an echo up to a
	// millisecond (the runtime sleeps at least that long) in one
	// delivery out of four or ten when keys came fast (issue 12). Under mu.
	typed map[string]bool
	// filed, when set (tests), is called by fileFrame before it files.
	filed func()
	// now, when set (the event loop's deliverNow), is called on the
	// filing goroutine after each push is filed, outside mu: it delivers
	// a small frame due now there if the loop is idle, and reports
	// whether it did. Set before any stream is followed.
	now func() bool
}

// streamEnd says a stream ended: pane "" is the events stream; token tells
// a pane's current stream from one it replaced.
type streamEnd struct {
	pane  string
	token int
	err   error
}

// mailMsg is everything pending in the mailbox, delivered to Update.
type mailMsg struct {
	frames map[string]*proto.ScreenFrame
	events []proto.PaneEvent
	ended  []streamEnd
	notes  []string // failures of background work (input queues) for the status bar
	// echo: a frame delivered is the echo of input typed into its pane
	// (typedTo), which the terminal draws without its cost gap too.
	echo bool
}

func newMailbox() *mailbox {
	return &mailbox{frames: map[string]*proto.ScreenFrame{},
		ready: make(chan struct{}, 1), done: make(chan struct{}),
		pace: pacer{clock: realClock{}, period: framePeriod}, paced: map[string]time.Time{},
		typed: map[string]bool{}}
}

// signal wakes the waiter without blocking.
func (b *mailbox) signal() {
	select {
	case b.ready <- struct{}{}:
	default:
	}
}

// fileFrame files a frame, merged into any still pending for its pane,
// without signalling.
func (b *mailbox) fileFrame(pane string, f *proto.ScreenFrame) {
	if b.filed != nil {
		b.filed()
	}
	b.mu.Lock()
	b.frames[pane] = mergeFrames(b.frames[pane], f)
	b.mu.Unlock()
}

// typedTo records that input was written to pane: its next small frame
// is delivered without waiting for the cost gap.
func (b *mailbox) typedTo(pane string) {
	b.mu.Lock()
	b.typed[pane] = true
	b.mu.Unlock()
}

// putEnd files the end of a stream.
func (b *mailbox) putEnd(e streamEnd) {
	b.mu.Lock()
	delete(b.typed, e.pane) // a pane that left keeps no mark
	b.ended = append(b.ended, e)
	b.mu.Unlock()
	b.signal()
}

// putNote files a message for the status bar.
func (b *mailbox) putNote(s string) {
	b.mu.Lock()
	b.notes = append(b.notes, s)
	b.mu.Unlock()
	b.signal()
}

// close makes wait return nil from now on. Idempotent.
func (b *mailbox) close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.closed {
		b.closed = true
		close(b.done)
	}
}

// wait blocks until something is due and returns it as a mailMsg, or
// returns nil once the mailbox is closed. Update runs exactly one wait at a
// time (it starts the next when it gets a mailMsg). Deliveries are paced
// (pace.go, handled): after a big frame of a pane, that pane's frames
// filed within a display refresh wait for its end, merging with what comes
// meanwhile, so a flood is one Update and one render per refresh; anything
// else goes at once.
func (b *mailbox) wait() any {
	select {
	case <-b.ready:
	case <-b.done:
		return nil
	}
	for at, later := b.due(); later; at, later = b.due() {
		select {
		case <-b.pace.clock.At(at):
		case <-b.ready: // something new: it may be due sooner
		case <-b.done:
			return nil
		}
	}
	return b.deliver(false)
}

// pending reports whether anything waits to be delivered.
func (b *mailbox) pending() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.frames) > 0 || len(b.events) > 0 || len(b.ended) > 0 || len(b.notes) > 0
}

// smallDue reports whether only frames are pending, some are due now,
// and every one due is small (an echo, a status line): what the filing
// goroutine may deliver itself (eventLoop.deliverNow).
func (b *mailbox) smallDue() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.events) > 0 || len(b.ended) > 0 || len(b.notes) > 0 || len(b.frames) == 0 || b.laterLocked() {
		return false
	}
	now := b.pace.clock.Now()
	for pane, f := range b.frames {
		if !now.Before(b.paced[pane]) && len(f.Lines) > bigRows {
			return false
		}
	}
	return true
}

// due is when something pending may be delivered, and whether that is
// later than now (false: at once, or nothing is pending).
func (b *mailbox) due() (time.Time, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	at := b.dueLocked()
	return at, at.After(b.pace.clock.Now())
}

// laterLocked reports whether what is pending may only be delivered
// later than now; b.mu is held.
func (b *mailbox) laterLocked() bool { return b.dueLocked().After(b.pace.clock.Now()) }

// dueLocked is when something pending may be delivered (zero, or not
// after now: at once); b.mu is held.
func (b *mailbox) dueLocked() time.Time {
	gap := b.pace.earliest(false)
	if len(b.events) > 0 || len(b.ended) > 0 || len(b.notes) > 0 || len(b.frames) == 0 {
		return gap
	}
	var soonest time.Time
	first := true
	for pane, f := range b.frames {
		if b.echoLocked(pane, f) {
			return time.Time{}
		}
		at := gap
		if paced := b.paced[pane]; paced.After(at) {
			at = paced
		}
		if first || at.Before(soonest) {
			soonest, first = at, false
		}
	}
	return soonest
}

// deliver takes what is due from the mailbox as a delivery; frames of
// panes still paced stay, and the mailbox signals again if any do.
// framesOnly leaves events, stream ends and notes for the next delivery
// (the loop's: deliverNow).
func (b *mailbox) deliver(framesOnly bool) mailMsg {
	b.mu.Lock()
	b.pace.begin()
	now := b.pace.clock.Now()
	m := mailMsg{frames: map[string]*proto.ScreenFrame{}}
	if !framesOnly {
		m.events, m.ended, m.notes = b.events, b.ended, b.notes
		b.events, b.ended, b.notes = nil, nil, nil
	}
	for pane, f := range b.frames {
		if echo := b.echoLocked(pane, f); echo || !now.Before(b.paced[pane]) {
			m.frames[pane] = f
			m.echo = m.echo || echo
			delete(b.frames, pane)
			delete(b.typed, pane)
		}
	}
	left := len(b.frames) > 0 || len(b.events) > 0 || len(b.ended) > 0 || len(b.notes) > 0
	b.mu.Unlock()
	if left {
		b.signal()
	}
	return m
}

// echoLocked reports whether f, pending for pane, is the echo of input
// typed into it: a small frame after typedTo. It is due at once, past the
// cost gap and past the pane's period after a big frame (a line typed at
// the bottom that scrolled the pane held the next key's echo up to a
// period); it comes once per key typed, so it cannot flood. b.mu is held.
func (b *mailbox) echoLocked(pane string, f *proto.ScreenFrame) bool {
	return b.typed[pane] && len(f.Lines) <= bigRows
}

// bigRows is how many changed rows make a delivery big (pace.go): more
// than an echo or a status line, as a scrolling pane or a repaint.
const bigRows = 4

// handled tells the mailbox that Update has applied and drawn what the
// last wait delivered, which sets when the next delivery may come: after
// what this one cost, and for a pane whose frame was big, after the
// period.
func (b *mailbox) handled(m mailMsg) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.pace.start.IsZero() {
		return
	}
	big := false
	for _, f := range m.frames {
		big = big || len(f.Lines) > bigRows
	}
	now := b.pace.clock.Now()
	for pane, t := range b.paced { // panes whose period is over, or that left
		if !now.Before(t) {
			delete(b.paced, pane)
		}
	}
	next := b.pace.endAt(big, now)
	for pane, f := range m.frames {
		if len(f.Lines) > bigRows {
			b.paced[pane] = next
		} else {
			delete(b.paced, pane)
		}
	}
}

// handing is a Stream that can hand its pushes to a client.Handler on
// the client's reader goroutine (client.Subscription.Hand).
type handing interface {
	Hand(client.Handler)
}

// follow files everything s delivers, until its end: a real subscription
// hands its pushes to the mailbox from the client's reader goroutine (no
// goroutine between the socket and the mailbox: issue 12), any other
// stream gets a watcher goroutine. pane is "" for the events stream.
func (b *mailbox) follow(s Stream, pane string, token int) {
	if h, ok := s.(handing); ok {
		h.Hand(streamSink{b: b, pane: pane, token: token})
		b.signal() // for what Hand filed from the subscription's queue (no AfterPush)
		return
	}
	go b.watch(s, pane, token) // ends when the stream's channel closes
}

// streamSink files one stream's pushes and its end (client.Handler).
type streamSink struct {
	b     *mailbox
	pane  string
	token int
}

// Push files a frame or an event, without waking the loop: AfterPush
// follows (client.AfterPusher), and follow signals once Hand has filed
// what the subscription held.
func (k streamSink) Push(m proto.Message) { k.b.fileQuiet(k.pane, m) }

// AfterPush delivers a small frame due now on the client's reader, if the
// loop is idle (called outside the subscription's lock), else wakes the
// loop.
func (k streamSink) AfterPush() { k.b.filedNow() }

// filedNow is called on the filing goroutine after a push was filed
// without a signal: the loop's deliverNow (now) delivers it there if it
// can; else the loop is woken to, so a frame delivered here wakes no
// other goroutine (issue 12).
func (b *mailbox) filedNow() {
	if b.now == nil || !b.now() {
		b.signal()
	}
}

// End files the stream's end.
func (k streamSink) End(err error) {
	k.b.putEnd(streamEnd{pane: k.pane, token: k.token, err: err})
}

// fileQuiet files one push of pane's stream without signalling (filedNow
// follows).
func (b *mailbox) fileQuiet(pane string, m proto.Message) {
	switch v := m.(type) {
	case *proto.ScreenFrame:
		b.fileFrame(pane, v)
	case *proto.PaneEvent:
		b.mu.Lock()
		b.events = append(b.events, *v)
		b.mu.Unlock()
	}
}

// watch files everything a stream delivers until its channel closes. pane
// is "" for the events stream. It runs on its own goroutine.
func (b *mailbox) watch(s Stream, pane string, token int) {
	for m := range s.C() {
		b.fileQuiet(pane, m)
		b.filedNow()
	}
	b.putEnd(streamEnd{pane: pane, token: token, err: s.Err()})
}

// mergeFrames folds newer into older (nil if none) so that the result shows
// what newer shows: a full or resized newer frame replaces older, else
// newer's rows overwrite older's and its header (cursor, modes) wins.
func mergeFrames(older, newer *proto.ScreenFrame) *proto.ScreenFrame {
	if older == nil || newer.Full || newer.Cols != older.Cols || newer.Rows != older.Rows {
		return newer
	}
	merged := *newer
	merged.Full = older.Full
	rows := make(map[uint16]proto.FrameRow, len(older.Lines)+len(newer.Lines))
	for _, l := range older.Lines {
		rows[l.Y] = l
	}
	for _, l := range newer.Lines {
		rows[l.Y] = l
	}
	merged.Lines = make([]proto.FrameRow, 0, len(rows))
	for y := uint16(0); y < newer.Rows; y++ {
		if l, ok := rows[y]; ok {
			merged.Lines = append(merged.Lines, l)
		}
	}
	return &merged
}
