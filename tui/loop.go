package tui

// This file is the TUI's event loop, in place of bubbletea's Program.
// Program runs its renderer's ticker (time.NewTicker(1s/fps), at least once
// a second) even with WithoutRenderer, so an idle TUI woke every second for
// nothing: drawing is terminal.go's, and terminal commands go through it
// too. The loop keeps the rest of what Program gave the TUI: the input
// decoder (ultraviolet's TerminalReader, which bubbletea wraps: kitty
// keyboard, SGR mouse, bracketed paste, focus), Update on one goroutine,
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

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
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
	msgs chan tea.Msg
	errs chan error // capacity 1: the first Cmd that panicked
	// mail, when set, is delivered by the loop itself: a frame goes from
	// the stream's watcher straight to Update, with no Cmd's goroutine
	// between (the model's waitMail then returns nil).
	mail *mailbox
}

func newEventLoop(ctx context.Context) *eventLoop {
	return &eventLoop{ctx: ctx, msgs: make(chan tea.Msg), errs: make(chan error, 1)}
}

// send hands msg to Update, or drops it once the loop has ended.
func (l *eventLoop) send(msg tea.Msg) {
	select {
	case l.msgs <- msg:
	case <-l.ctx.Done():
	}
}

// run calls Update with every message until the end and runs its Cmds;
// first is run first (Init's Cmd, say).
func (l *eventLoop) run(m tea.Model, first tea.Cmd) error {
	l.exec(first)
	var ready <-chan struct{} // the mailbox's signal, while listened to
	var paced <-chan time.Time
	if l.mail != nil {
		ready = l.mail.ready
	}
	for {
		var msg tea.Msg
		select {
		case <-l.ctx.Done():
			return nil
		case err := <-l.errs:
			return err
		case msg = <-l.msgs:
		case <-ready: // something filed: it may be due sooner than what waits
			if d := l.mail.due(); d > 0 { // paced (pace.go): deliver when due
				paced = l.mail.pace.clock.After(d)
				continue
			}
			paced, msg = nil, l.mail.deliver()
		case <-paced:
			if d := l.mail.due(); d > 0 {
				paced = l.mail.pace.clock.After(d)
				continue
			}
			paced, msg = nil, l.mail.deliver()
		}
		quit, cmd := l.handle(m, msg)
		if quit {
			return nil
		}
		l.exec(cmd)
	}
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
// (inputscan.go) and hands the events to the loop: one hop from the
// terminal to Update. Elsewhere ultraviolet's TerminalReader reads and
// decodes, on two goroutines.
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
			_ = uv.NewTerminalReader(ucr, term).StreamEvents(ctx, l.msgs) // its error is the terminal going away: Run ends through signals or ctx
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

// scanInput reads the terminal and hands its events to the loop, in
// order, until the read is cancelled or fails. Bytes that may begin a
// longer sequence wait for more at most ultraviolet's escape timeout, and
// are then taken as they are (a lone ESC is the escape key).
func (l *eventLoop) scanInput(ctx context.Context, p *pollInput) {
	var s inputScanner
	emit := func(ev uv.Event) {
		select {
		case l.msgs <- ev:
		case <-ctx.Done():
		}
	}
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
