package tui

// This file owns the outer terminal while the TUI runs: raw mode, the
// alternate screen, the input modes (bracketed paste, focus, mouse,
// keyboard enhancements), and drawing. bubbletea's own renderer flushes on a
// fixed ticker whether or not anything changed; here a frame is drawn as
// soon as Update built it and nothing runs between frames, so an idle TUI
// sleeps and an echo is drawn the moment its frame arrives. Only the rows
// the frame damaged are compared with what the terminal shows, and only
// the cells that differ are written (outer.go; docs/adr/0002).
//
// Frames are paced (pace.go): after a big one, at most one more per
// display refresh, the newest; a small one is drawn at once. A small
// change (an echoed key) is written as it is, a few bytes, as tmux writes
// it; a bigger one inside a synchronized update with the cursor hidden, so
// the terminal never shows half a frame.

import (
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
)

// terminal draws views on the outer terminal. show may be called from
// Update; drawing happens on the terminal's own goroutine, which exits when
// close is called.
type terminal struct {
	in, out *os.File
	dst     io.Writer // where frames go: out (tests count the writes)
	// room reports whether a small write to dst would not wait: nil, it
	// always would not (a buffer in tests). drawNow draws on the caller's
	// goroutine only then, holding the canvas: a terminal that stopped
	// taking bytes (an SSH link that stalls) must not hold Update, nor the
	// client's reader that runs it (loop.go), which the host disconnects
	// once it has not read for its write deadline.
	room  func() bool
	saved *term.State
	scr   *outer // what the terminal shows; writes the rows that change (outer.go)
	body  []byte // the frame being drawn, before wrap
	frame []byte // the frame's one write: body, wrapped when big
	mouse tea.MouseMode
	shown bool // the cursor is visible
	pace  pacer

	// canvasMu guards the model's canvas: the model paints it and calls
	// show under it, the drawer encodes the damaged rows from it under it.
	canvasMu sync.Mutex
	// drawMu is held by whoever draws (the loop, or show drawing an echo
	// itself), and guards scr, body, frame and pace. Lock order: drawMu
	// before canvasMu; show, which holds canvasMu, only tries it.
	drawMu sync.Mutex
	mu     sync.Mutex
	w, h   int           // the size followSize last learned (or the start's)
	next   *drawing      // the newest frame not yet drawn
	cmds   string        // terminal commands (OSC 52) to write before it
	wake   chan struct{} // capacity 1: "next changed"
	done   chan struct{}
}

// openTerminal puts the outer terminal in raw mode and in the TUI's modes.
func openTerminal(in, out *os.File, env []string) (*terminal, error) {
	return startTerminal(in, out, out, env, realClock{})
}

// startTerminal is openTerminal writing to w, paced by clk.
func startTerminal(in, out *os.File, w io.Writer, env []string, clk clock) (*terminal, error) {
	saved, err := term.MakeRaw(in.Fd())
	if err != nil {
		return nil, err
	}
	t := &terminal{in: in, out: out, dst: w, saved: saved, pace: pacer{clock: clk, period: framePeriod},
		wake: make(chan struct{}, 1), done: make(chan struct{})}
	if f, ok := w.(*os.File); ok {
		fd := int32(f.Fd()) // once: the terminal is in blocking mode already (MakeRaw, GetSize)
		t.room = func() bool { return writableNow(fd) }
	}
	t.scr = newOuter(out, env) // the tty, not the buffer: a buffer is no terminal, and gets no colours
	cols, rows, _ := term.GetSize(out.Fd())
	t.w, t.h = cols, rows
	t.body = append(t.body, ansi.SetModeAltScreenSaveCursor...)
	t.body = t.scr.clear(t.body, cols, rows)
	t.body = append(t.body, ansi.HideCursor+ansi.SetModeBracketedPaste+ansi.SetModeFocusEvent+
		ansi.SetModifyOtherKeys2+ansi.PushKittyKeyboard(1)...)
	t.setMouse(tea.MouseModeCellMotion)
	if err := t.flush(); err != nil {
		_ = term.Restore(in.Fd(), saved) // best effort: already failing
		return nil, err
	}
	go t.loop()
	return t, nil
}

// size asks the terminal its size (an ioctl) and keeps it as the size
// frames are drawn at; where the terminal cannot tell, the size kept.
// Frames never ask (issue 12: an ioctl per echo): the size changes only
// when followSize learns it, on SIGWINCH.
func (t *terminal) size() (int, int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if w, h, err := term.GetSize(t.out.Fd()); err == nil {
		t.w, t.h = w, h
	}
	return t.w, t.h
}

// known is the size size last learned.
func (t *terminal) known() (int, int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.w, t.h
}

// drawing is what draw needs: the cells (read under canvasMu), the rows
// of them that changed, and the view's cursor and mouse mode.
type drawing struct {
	cells *lipgloss.Canvas
	dmg   damage
	view  tea.View
}

// show queues a frame to be drawn; a newer one replaces one not yet drawn,
// with the rows both changed. A small one (an echo) is drawn at once if it
// can be (drawNow). The caller holds canvasMu.
func (t *terminal) show(v tea.View, cells *lipgloss.Canvas, d damage) {
	f := &drawing{cells: cells, dmg: d, view: v}
	if f.small() && t.drawNow(f) {
		return
	}
	t.mu.Lock()
	if t.next != nil {
		f.dmg = t.next.dmg.merge(f.dmg)
	}
	t.next = f
	t.mu.Unlock()
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// drawNow draws small frame f on the caller's goroutine if its turn has
// come and no other draw is under way, and reports whether it did: an
// echo then reaches the terminal with no goroutine hop (issue 12), even
// while a big frame waits for its period (that one then draws with f's
// canvas and view, which are newer). The caller holds canvasMu.
func (t *terminal) drawNow(f *drawing) bool {
	if !t.drawMu.TryLock() {
		return false
	}
	defer t.drawMu.Unlock()
	if !f.dmg.echo && !t.pace.ready(false) { // an echo of typed input skips the cost gap
		return false
	}
	if t.room != nil && !t.room() { // the terminal's goroutine waits for it instead
		return false
	}
	t.mu.Lock()
	if t.cmds != "" { // commands go first, from the loop
		t.mu.Unlock()
		return false
	}
	if t.next != nil {
		t.next.cells, t.next.view = f.cells, f.view
	}
	t.mu.Unlock()
	t.pace.begin()
	t.encode(f)
	t.pace.end(t.write(f) > smallFrame)
	return true
}

// small reports whether f changes a few rows at most: an echo, a status
// line.
func (f *drawing) small() bool { return !f.dmg.all && len(f.dmg.rows) <= bigRows }

// command queues a terminal command (a clipboard set or query) to be
// written between frames, never inside one.
func (t *terminal) command(seq string) {
	t.mu.Lock()
	t.cmds += seq
	t.mu.Unlock()
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// loop writes queued commands and draws queued frames until close, at
// most one frame per period: a frame shown sooner waits for the period's
// end, and a newer one shown meanwhile replaces it.
func (t *terminal) loop() {
	defer close(t.done)
	for range t.wake {
		t.drawMu.Lock()
		t.mu.Lock()
		big := t.next != nil && !t.next.small()
		t.mu.Unlock()
		ready, at := t.pace.ready(big), t.pace.earliest(big)
		t.drawMu.Unlock()
		if !ready {
			<-t.pace.clock.At(at)
		}
		t.drawMu.Lock()
		t.canvasMu.Lock()
		t.mu.Lock()
		f, cmds := t.next, t.cmds
		t.next, t.cmds = nil, ""
		t.mu.Unlock()
		if f != nil {
			t.pace.begin()
			t.encode(f)
		}
		t.canvasMu.Unlock()
		if cmds != "" {
			_, _ = t.dst.Write([]byte(cmds)) // as in write
		}
		if f != nil {
			t.pace.end(t.write(f) > smallFrame)
		}
		t.drawMu.Unlock()
	}
}

// encode writes into body what the frame changed on the terminal: the
// rows it damaged (every row after a resize, which clears the terminal),
// then the mouse mode and the cursor. The caller holds canvasMu.
func (t *terminal) encode(f *drawing) {
	if w, h := t.known(); w != t.scr.w || h != t.scr.h {
		t.body = t.scr.clear(t.body, w, h)
		f.dmg = damage{all: true}
	}
	switch {
	case f.cells == nil:
	case f.dmg.all:
		for y := range t.scr.h {
			t.body = t.scr.row(t.body, f.cells, y)
		}
	default:
		for i, y := range f.dmg.rows {
			x0, x1 := f.dmg.span(i, t.scr.w)
			t.body = t.scr.span(t.body, f.cells, y, x0, x1)
		}
	}
	t.setMouse(f.view.MouseMode)
	if c := f.view.Cursor; c != nil {
		t.body = t.scr.moveTo(t.body, c.X, c.Y)
	}
}

// write writes the encoded frame in one write, and returns its size.
func (t *terminal) write(f *drawing) int {
	t.frame = t.wrap(t.frame[:0], t.body, f.view.Cursor != nil)
	t.body = t.body[:0]
	if len(t.frame) > 0 {
		_, _ = t.dst.Write(t.frame) // a terminal that went away ends the program through its input
	}
	return len(t.frame)
}

// smallFrame is the most bytes written without a synchronized update: an
// echo or a status change, which the terminal reads in one go anyway.
const smallFrame = 256

// wrap appends body to dst as the frame's one write: a small body as it is
// (the cursor stays where it is shown, as tmux does), a bigger one inside
// a synchronized update with the cursor hidden; then the cursor shown or
// hidden as the view wants.
func (t *terminal) wrap(dst, body []byte, cursor bool) []byte {
	big := len(body) > smallFrame
	if big {
		dst = append(dst, ansi.SetModeSynchronizedOutput...)
		if t.shown {
			dst, t.shown = append(dst, ansi.HideCursor...), false
		}
	}
	dst = append(dst, body...)
	if cursor != t.shown {
		dst, t.shown = append(dst, cursorMode(cursor)...), cursor
	}
	if big {
		dst = append(dst, ansi.ResetModeSynchronizedOutput...)
	}
	return dst
}

// cursorMode is the sequence that shows or hides the cursor.
func cursorMode(show bool) string {
	if show {
		return ansi.ShowCursor
	}
	return ansi.HideCursor
}

// flush writes body as it is straight to the terminal.
func (t *terminal) flush() error {
	if len(t.body) == 0 {
		return nil
	}
	_, err := t.dst.Write(t.body)
	t.body = t.body[:0]
	return err
}

// setMouse queues the sequences for a mouse mode change.
func (t *terminal) setMouse(m tea.MouseMode) {
	if m == t.mouse {
		return
	}
	t.body = append(t.body, ansi.ResetModeMouseButtonEvent+ansi.ResetModeMouseAnyEvent...)
	switch m {
	case tea.MouseModeCellMotion:
		t.body = append(t.body, ansi.SetModeMouseButtonEvent+ansi.SetModeMouseExtSgr...)
	case tea.MouseModeAllMotion:
		t.body = append(t.body, ansi.SetModeMouseAnyEvent+ansi.SetModeMouseExtSgr...)
	}
	t.mouse = m
}

// close stops drawing and gives the terminal back as it was.
func (t *terminal) close() {
	close(t.wake)
	<-t.done
	t.setMouse(tea.MouseModeNone)
	t.body = append(t.body, "\x1b[m"+ansi.ResetModeMouseExtSgr+ansi.ResetModeFocusEvent+ansi.ResetModeBracketedPaste+
		ansi.PopKittyKeyboard(1)+ansi.ResetModifyOtherKeys+ansi.ShowCursor+ansi.ResetModeAltScreenSaveCursor...)
	_ = t.flush()                        // best effort: the terminal may be gone
	_ = term.Restore(t.in.Fd(), t.saved) // best effort, likewise
}

// followSize tells the loop the terminal's size on every SIGWINCH, until
// done is closed.
func (t *terminal) followSize(send func(tea.Msg), done <-chan struct{}) {
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	defer signal.Stop(winch)
	for {
		select {
		case <-done:
			return
		case <-winch:
			w, h := t.size()
			send(tea.WindowSizeMsg{Width: w, Height: h})
		}
	}
}
