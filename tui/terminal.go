package tui

// This file owns the outer terminal while the TUI runs: raw mode, the
// alternate screen, the input modes (bracketed paste, focus, mouse,
// keyboard enhancements), and drawing. bubbletea's own renderer flushes on a
// fixed ticker whether or not anything changed; here a frame is drawn as
// soon as Update built it and nothing runs between frames, so an idle TUI
// sleeps and an echo is drawn the moment its frame arrives. Drawing uses
// ultraviolet's cell-diff renderer, the same one bubbletea uses, so only
// changed cells are written.

import (
	"os"
	"os/signal"
	"sync"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
)

// terminal draws views on the outer terminal. show may be called from
// Update; drawing happens on the terminal's own goroutine, which exits when
// close is called.
type terminal struct {
	in, out *os.File
	saved   *term.State
	scr     *uv.TerminalRenderer
	buf     uv.ScreenBuffer
	w, h    int
	mouse   tea.MouseMode

	mu   sync.Mutex
	next *drawing              // the newest frame not yet drawn
	cmds string                // terminal commands (OSC 52) to write before it
	free chan *lipgloss.Canvas // canvases drawn and free for the model to reuse
	wake chan struct{}         // capacity 1: "next changed"
	done chan struct{}
}

// openTerminal puts the outer terminal in raw mode and in the TUI's modes.
func openTerminal(in, out *os.File, env []string) (*terminal, error) {
	saved, err := term.MakeRaw(in.Fd())
	if err != nil {
		return nil, err
	}
	t := &terminal{in: in, out: out, saved: saved, scr: uv.NewTerminalRenderer(out, env),
		wake: make(chan struct{}, 1), done: make(chan struct{}), free: make(chan *lipgloss.Canvas, 2)}
	t.w, t.h, _ = term.GetSize(out.Fd())
	t.buf = uv.NewScreenBuffer(t.w, t.h)
	t.buf.Method = ansi.GraphemeWidth // as lipgloss's canvas measures
	t.scr.Resize(t.w, t.h)
	t.scr.EnterAltScreen()
	_, _ = t.scr.WriteString(ansi.HideCursor + ansi.SetModeBracketedPaste + ansi.SetModeFocusEvent +
		ansi.SetModifyOtherKeys2 + ansi.PushKittyKeyboard(1))
	t.setMouse(tea.MouseModeCellMotion)
	if err := t.scr.Flush(); err != nil {
		_ = term.Restore(in.Fd(), saved) // best effort: already failing
		return nil, err
	}
	go t.loop()
	return t, nil
}

// size is the terminal's size now.
func (t *terminal) size() (int, int) {
	w, h, err := term.GetSize(t.out.Fd())
	if err != nil {
		return t.w, t.h
	}
	return w, h
}

// drawing is what draw needs: the cells (never written again once shown)
// and the view's cursor and mouse mode.
type drawing struct {
	cells *lipgloss.Canvas
	view  tea.View
}

// show queues a frame to be drawn; a newer one replaces one not yet drawn.
func (t *terminal) show(v tea.View, cells *lipgloss.Canvas) {
	t.mu.Lock()
	t.next = &drawing{cells: cells, view: v}
	t.mu.Unlock()
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// reuse returns a canvas already drawn, or nil.
func (t *terminal) reuse() *lipgloss.Canvas {
	select {
	case cv := <-t.free:
		return cv
	default:
		return nil
	}
}

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

// loop writes queued commands and draws queued frames until close.
func (t *terminal) loop() {
	defer close(t.done)
	for range t.wake {
		t.mu.Lock()
		f, cmds := t.next, t.cmds
		t.next, t.cmds = nil, ""
		t.mu.Unlock()
		if cmds != "" {
			_, _ = t.scr.WriteString(cmds)
			_ = t.scr.Flush() // as in draw
		}
		if f != nil {
			t.draw(f)
		}
	}
}

// draw writes what changed since the last frame, inside a synchronized
// update so the terminal never shows half a frame.
func (t *terminal) draw(f *drawing) {
	v := &f.view
	if w, h := t.size(); w != t.w || h != t.h {
		t.w, t.h = w, h
		t.buf.Resize(w, h)
		t.scr.Resize(w, h)
		t.scr.Erase()
	}
	t.buf.Clear()
	if f.cells != nil {
		f.cells.Draw(t.buf, t.buf.Bounds())
		select { // copied: the model may paint the next frame into it
		case t.free <- f.cells:
		default:
		}
	}
	_, _ = t.scr.WriteString(ansi.SetModeSynchronizedOutput + ansi.HideCursor)
	t.setMouse(v.MouseMode)
	t.scr.Render(t.buf.RenderBuffer)
	if c := v.Cursor; c != nil {
		t.scr.MoveTo(c.X, c.Y)
		_, _ = t.scr.WriteString(ansi.ShowCursor)
	}
	_, _ = t.scr.WriteString(ansi.ResetModeSynchronizedOutput)
	_ = t.scr.Flush() // a terminal that went away ends the program through its input
}

// setMouse queues the sequences for a mouse mode change.
func (t *terminal) setMouse(m tea.MouseMode) {
	if m == t.mouse {
		return
	}
	_, _ = t.scr.WriteString(ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent)
	switch m {
	case tea.MouseModeCellMotion:
		_, _ = t.scr.WriteString(ansi.SetModeMouseButtonEvent + ansi.SetModeMouseExtSgr)
	case tea.MouseModeAllMotion:
		_, _ = t.scr.WriteString(ansi.SetModeMouseAnyEvent + ansi.SetModeMouseExtSgr)
	}
	t.mouse = m
}

// close stops drawing and gives the terminal back as it was.
func (t *terminal) close() {
	close(t.wake)
	<-t.done
	t.setMouse(tea.MouseModeNone)
	_, _ = t.scr.WriteString(ansi.ResetModeMouseExtSgr + ansi.ResetModeFocusEvent + ansi.ResetModeBracketedPaste +
		ansi.PopKittyKeyboard(1) + ansi.ResetModifyOtherKeys + ansi.ShowCursor)
	t.scr.ExitAltScreen()
	_ = t.scr.Flush()                    // best effort: the terminal may be gone
	_ = term.Restore(t.in.Fd(), t.saved) // best effort, likewise
}

// followSize tells the program the terminal's size on every SIGWINCH
// (bubbletea does not watch it when it does not render), until done is
// closed.
func (t *terminal) followSize(p *tea.Program, done <-chan struct{}) {
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	defer signal.Stop(winch)
	for {
		select {
		case <-done:
			return
		case <-winch:
			w, h := t.size()
			p.Send(tea.WindowSizeMsg{Width: w, Height: h})
		}
	}
}
