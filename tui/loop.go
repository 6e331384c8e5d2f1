package tui

// This file is the TUI's event loop, in place of bubbletea's Program.
// Program runs its renderer's ticker (time.NewTicker(1s/fps), at least once
// a second) even with WithoutRenderer, so an idle TUI woke every second for
// nothing: drawing is terminal.go's, and terminal commands go through it
// too. The loop keeps the rest of what Program gave the TUI: the input
// decoder (ultraviolet's TerminalReader, which bubbletea wraps: kitty
// keyboard, SGR mouse, bracketed paste, focus), Update one at a time,
// every Cmd on a goroutine of its own (a batch's each on its own, so they
// race, as under Program), QuitMsg to end. Nothing in it ticks: idle, every
// goroutine sleeps on a read or a channel (docs/adr/0002).
//
// Goroutines: the input reader runs until the loop ends, which cancels
// the read and waits for it (at most inputStopWait). On Linux it is one
// goroutine, which waits in the runtime's poller on a description of the
// terminal of its own (pollinput_linux.go) and decodes what it read
// (inputscan.go); elsewhere ultraviolet's, two (the read and the
// decoder). Each Cmd's goroutine ends when its Cmd returns and its
// message is handed over or the loop has ended.
//
// Update runs on one goroutine at a time, not always the loop's: whoever
// holds the turn (eventLoop.turn) runs it. A key the input reader decoded,
// and a small frame the client's reader filed in the mailbox, are handled
// on that reader's goroutine itself when the loop is idle and nothing is
// queued for it (runHere, deliverNow): no goroutine hop, and no thread
// woken, between the terminal's read and Update, nor between the socket
// and the terminal's write (issue 12). Otherwise they are handed over as
// before. Order: a message handed over is counted (queued) from before
// it is sent until the loop holds the turn to handle it, and nobody
// handles one here while any is counted, so a key never overtakes an
// earlier key or a message still queued; frames are taken from the
// mailbox under the turn, so one never overtakes another.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
)

// maxWindowCells bounds a plausible window size, as bubbletea's does: a
// terminal that reports more is wrong and its size is ignored.
const (
	maxWindowSide  = 4096
	maxWindowCells = 1 << 20
)

// inputStopWait bounds how long the loop waits for the input reader to
// stop after cancelling its read (bubbletea's 500 ms).
const inputStopWait = 500 * time.Millisecond

// eventLoop runs a model until a QuitMsg, its context's end or a panicking
// Cmd. send may be called from any goroutine.
type eventLoop struct {
	ctx  context.Context
	msgs chan tea.Msg // handed over, counted in queued
	// events has ultraviolet's reader's events (not on Linux), which it
	// sends itself: never counted, never handled off the loop.
	events chan tea.Msg
	errs   chan error // capacity 1: the first Cmd that panicked
	// mail, when set, is delivered by the loop itself, or by the
	// goroutine that filed a small frame due now (deliverNow): no Cmd's
	// goroutine between the stream and Update (the model's waitMail then
	// returns nil).
	mail *mailbox
	// queued counts the messages handed over (msgs) that the loop has not
	// yet taken under the turn: while any is, nothing is handled off the
	// loop, so nothing overtakes them.
	queued atomic.Int64
	// turn is held by whoever runs Update (handleHere): the loop, or an
	// input or socket reader when the loop was idle. It guards m and
	// ended.
	turn  sync.Mutex
	m     tea.Model     // set by run: nil until the loop runs
	ended bool          // the loop ended (or a QuitMsg came): Update runs no more
	quit  chan struct{} // closed when a QuitMsg is handled, wherever
}

func newEventLoop(ctx context.Context) *eventLoop {
	return &eventLoop{ctx: ctx, msgs: make(chan tea.Msg), events: make(chan tea.Msg),
		errs: make(chan error, 1), quit: make(chan struct{})}
}

// send hands msg to Update, or drops it once the loop has ended. It
// returns when the loop has taken it.
func (l *eventLoop) send(msg tea.Msg) { l.sendUntil(l.ctx, msg) }

// sendUntil is send, giving up when ctx ends.
func (l *eventLoop) sendUntil(ctx context.Context, msg tea.Msg) {
	l.queued.Add(1)
	select {
	case l.msgs <- msg:
	case <-ctx.Done():
		l.queued.Add(-1)
	}
}

// sendInput hands an input event to Update: here, on the caller's
// goroutine, if the loop is idle and nothing is queued for it (no hop),
// else as send does. Called by the input reader.
func (l *eventLoop) sendInput(ctx context.Context, msg tea.Msg) {
	if !l.runHere(msg) {
		l.sendUntil(ctx, msg)
	}
}

// runHere handles msg on the caller's goroutine if it can have the turn
// at once and nothing is queued, and reports whether it did.
func (l *eventLoop) runHere(msg tea.Msg) bool {
	if l.queued.Load() != 0 || !l.turn.TryLock() {
		return false
	}
	defer l.turn.Unlock()
	// Counted again under the turn: one handed over just before we took
	// it would be overtaken (the loop counts it down only under the turn).
	if l.m == nil || l.ended || l.queued.Load() != 0 {
		return false
	}
	l.handleHere(msg)
	return true
}

// deliverNow delivers the mailbox's small frames due now on the caller's
// goroutine (the client's reader, which just filed one) if the loop is
// idle and nothing is queued for it, and reports whether it did; if not,
// the caller signals the mailbox and the loop delivers them. Only frames:
// an event or a stream's end may close a stream, which waits for the
// client's reader (mailbox.smallDue). What is left (a paced frame, an
// event filed meanwhile) is signalled by deliver.
func (l *eventLoop) deliverNow() bool {
	if l.queued.Load() != 0 || !l.turn.TryLock() {
		return false
	}
	defer l.turn.Unlock()
	if l.m == nil || l.ended || l.queued.Load() != 0 || !l.mail.smallDue() {
		return false
	}
	select {
	case <-l.mail.ready: // what it signals is delivered now; a filing after this signals again
	default:
	}
	if msg := l.mail.deliver(true); len(msg.frames) > 0 {
		l.handleHere(msg)
	}
	return true
}

// handleHere handles msg and runs its Cmd; the caller holds the turn. A
// QuitMsg ends the loop: nothing is handled after it.
func (l *eventLoop) handleHere(msg tea.Msg) {
	quit, cmd := l.handle(l.m, msg)
	if quit {
		l.ended = true
		close(l.quit)
		return
	}
	l.exec(cmd)
}

// take handles a message the loop took: under the turn, after whoever
// holds it now. counted: it came through msgs. It reports whether the
// loop has ended.
func (l *eventLoop) take(msg tea.Msg, counted bool) bool {
	l.turn.Lock()
	defer l.turn.Unlock()
	if counted {
		l.queued.Add(-1)
	}
	if !l.ended {
		l.handleHere(msg)
	}
	return l.ended
}

// takeMail delivers what the mailbox has due, or reports when something
// will be (paced, pace.go; zero: nothing waits); ended: the loop has
// ended.
func (l *eventLoop) takeMail() (at time.Time, ended bool) {
	l.turn.Lock()
	defer l.turn.Unlock()
	if l.ended || !l.mail.pending() { // delivered off the loop meanwhile (deliverNow)
		return time.Time{}, l.ended
	}
	if at, later := l.mail.due(); later {
		return at, false
	}
	l.handleHere(l.mail.deliver(false))
	return time.Time{}, l.ended
}

// end ends the loop once whoever runs Update now is done: nothing is
// handled after it.
func (l *eventLoop) end() {
	l.turn.Lock()
	l.ended = true
	l.turn.Unlock()
}

// run calls Update with every message until the end and runs its Cmds;
// first is run first (Init's Cmd, say).
func (l *eventLoop) run(m tea.Model, first tea.Cmd) error {
	l.turn.Lock()
	l.m = m
	l.turn.Unlock()
	defer l.end()
	l.exec(first)
	var ready <-chan struct{} // the mailbox's signal, while listened to
	var paced <-chan time.Time
	if l.mail != nil {
		ready = l.mail.ready
	}
	for {
		ended := false
		select {
		case <-l.ctx.Done():
			return nil
		case err := <-l.errs:
			return err
		case <-l.quit: // handled off the loop
			return nil
		case msg := <-l.msgs:
			ended = l.take(msg, true)
		case ev := <-l.events:
			ended = l.take(ev, false)
		case <-ready: // something filed: it may be due sooner than what waits
			paced, ended = l.pace(l.takeMail())
		case <-paced:
			paced, ended = l.pace(l.takeMail())
		}
		if ended {
			return nil
		}
	}
}

// pace is the timer for a delivery due at at (none if zero).
func (l *eventLoop) pace(at time.Time, ended bool) (<-chan time.Time, bool) {
	if !at.IsZero() {
		return l.mail.pace.clock.At(at), ended
	}
	return nil, ended
}

// handle acts on one message: the loop's own (quit, a batch to run), else
// Update's. It reports whether the loop ends.
func (l *eventLoop) handle(m tea.Model, msg tea.Msg) (bool, tea.Cmd) {
	msg = inputMsg(msg)
	switch msg := msg.(type) {
	case nil:
		return false, nil
	case tea.QuitMsg:
		return true, nil
	case tea.BatchMsg:
		for _, c := range msg {
			l.exec(c)
		}
		return false, nil
	case tea.WindowSizeMsg:
		if !plausibleSize(msg.Width, msg.Height) {
			return false, nil
		}
	}
	_, cmd := m.Update(msg)
	return false, cmd
}

// exec runs cmd on a goroutine of its own and sends its message.
func (l *eventLoop) exec(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		defer l.recoverCmd()
		if msg := cmd(); msg != nil {
			l.send(msg)
		}
	}()
}

// recoverCmd turns a Cmd's panic into the loop's end, so Run gives the
// terminal back before the error is shown.
func (l *eventLoop) recoverCmd() {
	if r := recover(); r != nil {
		select {
		case l.errs <- fmt.Errorf("a TUI command panicked: %v\n%s", r, debug.Stack()):
		default: // another one already ends the loop
		}
	}
}

// plausibleSize reports whether a reported window size can be real.
func plausibleSize(w, h int) bool {
	return w >= 0 && h >= 0 && w <= maxWindowSide && h <= maxWindowSide && w*h <= maxWindowCells
}

// readInput decodes the terminal's input into messages for the loop until
// the returned stop is called, which cancels the read and waits for the
// reader to end. term is the TERM the decoder reads keys for.
//
// Where the terminal can be read through the runtime's poller
// (pollinput_linux.go), the goroutine that reads it decodes what it read
// (inputscan.go) and runs Update with each event itself when the loop
// is idle (sendInput), else hands it to the loop: no hop from the
// terminal to Update, or one. Elsewhere ultraviolet's TerminalReader
// reads and decodes, on two goroutines, and the loop takes its events.
func (l *eventLoop) readInput(in io.Reader, term string) (stop func(), err error) {
	ctx, cancel := context.WithCancel(l.ctx)
	done := make(chan struct{})
	var cr canceler
	closeIn := func() {}
	if p, ok := openPollInput(in); ok {
		cr, closeIn = p, func() { _ = p.Close() } // best effort: a second description of the terminal
		go func() {
			defer close(done)
			l.scanInput(ctx, p)
		}()
	} else {
		ucr, err := uv.NewCancelReader(in)
		if err != nil {
			cancel()
			return nil, fmt.Errorf("read the terminal: %w", err)
		}
		cr = ucr
		go func() {
			defer close(done)
			// Straight into the loop's channel (a tea.Msg is a uv.Event).
			_ = uv.NewTerminalReader(ucr, term).StreamEvents(ctx, l.events) // its error is the terminal going away: Run ends through signals or ctx
		}()
	}
	return func() {
		cancel()
		cr.Cancel()
		l.drainUntil(done, inputStopWait)
		closeIn()
	}, nil
}

// canceler is a reader whose pending read Cancel ends.
type canceler interface{ Cancel() bool }

// errTimedOut is a read that waited its whole timeout.
var errTimedOut = errors.New("timed out")

// scanInput reads the terminal and hands its events to Update (sendInput),
// in order, until the read is cancelled or fails. Bytes that may begin a
// longer sequence wait for more at most ultraviolet's escape timeout, and
// are then taken as they are (a lone ESC is the escape key).
func (l *eventLoop) scanInput(ctx context.Context, p *pollInput) {
	var s inputScanner
	emit := func(ev uv.Event) { l.sendInput(ctx, ev) }
	buf := make([]byte, 4096)
	for {
		var timeout time.Duration
		if s.pending() {
			timeout = uv.DefaultEscTimeout
		}
		n, err := p.readFor(buf, timeout)
		if n > 0 {
			s.feed(buf[:n], emit)
		}
		if err != nil {
			s.expire(emit)
			if !errors.Is(err, errTimedOut) {
				return // cancelled, or the terminal went away: Run ends through signals or ctx
			}
		}
	}
}

// drainUntil discards messages until done is closed or d has passed: the
// loop has ended, and the decoder may be blocked handing it an event.
func (l *eventLoop) drainUntil(done <-chan struct{}, d time.Duration) {
	timeout := time.After(d)
	for {
		select {
		case <-done:
			return
		case <-l.msgs:
			l.queued.Add(-1)
		case <-l.events:
		case <-timeout: // a read cancelreader could not interrupt
			return
		}
	}
}

// inputMsg is the message for an input event, as bubbletea names them;
// any other message is itself.
func inputMsg(e tea.Msg) tea.Msg {
	switch e := e.(type) {
	case uv.KeyPressEvent:
		return tea.KeyPressMsg(e)
	case uv.KeyReleaseEvent:
		return tea.KeyReleaseMsg(e)
	case uv.MouseClickEvent:
		return tea.MouseClickMsg(e)
	case uv.MouseMotionEvent:
		return tea.MouseMotionMsg(e)
	case uv.MouseReleaseEvent:
		return tea.MouseReleaseMsg(e)
	case uv.MouseWheelEvent:
		return tea.MouseWheelMsg(e)
	case uv.PasteEvent:
		return tea.PasteMsg(e)
	case uv.PasteStartEvent:
		return tea.PasteStartMsg(e)
	case uv.PasteEndEvent:
		return tea.PasteEndMsg(e)
	case uv.FocusEvent:
		return tea.FocusMsg(e)
	case uv.BlurEvent:
		return tea.BlurMsg(e)
	}
	return replyMsg(e)
}

// replyMsg is the message for a terminal's reply to a query.
func replyMsg(e tea.Msg) tea.Msg {
	switch e := e.(type) {
	case uv.ClipboardEvent:
		return tea.ClipboardMsg(e)
	case uv.ForegroundColorEvent:
		return tea.ForegroundColorMsg(e)
	case uv.BackgroundColorEvent:
		return tea.BackgroundColorMsg(e)
	case uv.CursorColorEvent:
		return tea.CursorColorMsg(e)
	case uv.CursorPositionEvent:
		return tea.CursorPositionMsg(e)
	case uv.WindowSizeEvent:
		return tea.WindowSizeMsg(e)
	case uv.CapabilityEvent:
		return tea.CapabilityMsg(e)
	case uv.TerminalVersionEvent:
		return tea.TerminalVersionMsg(e)
	case uv.KeyboardEnhancementsEvent:
		return tea.KeyboardEnhancementsMsg(e)
	case uv.ModeReportEvent:
		return tea.ModeReportMsg(e)
	}
	return e
}
