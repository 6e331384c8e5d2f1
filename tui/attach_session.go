package tui

// This file is the running part of `clowder attach` (attach.go): raw
// output to the terminal, the detach hint, and the pane's exit.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

// session is one attach session; only Attach's goroutine uses it (the
// keys goroutine only writes to master and sends on typed and keys).
type session struct {
	r      *client.Redialer
	pane   string
	in     *os.File
	out    io.Writer
	link   *link // nil while the connection is being made again
	events <-chan proto.Message
	master *masterBox // the pane's PTY master: keys go there, and it is the escrow
	info   proto.PaneInfo
	scr    screen // the pane's screen as the host's frames drew it: handed back with the master
	first  *proto.ScreenFrame
	seq    uint64        // end of the output written so far
	typed  chan struct{} // the keys goroutine read something
	keys   chan error    // the keys goroutine ended (ErrDetached: the detach key)
	hint   bool          // the detach hint is on the screen
	exit   *proto.PaneInfo
	ended  bool // the pane exited (exit may still be nil if the host said nothing more)
	// Reconnecting (attach_escrow.go).
	held    bool             // the link is lost: the host may not hold the pane's terminal
	resumed chan resumed     // the outcome of a resume attempt
	retry   <-chan time.Time // when to try again
}

// newSession starts a session on the link l.
func newSession(r *client.Redialer, pane string, in *os.File, out io.Writer, l *link) *session {
	s := &session{r: r, pane: pane, in: in, out: out, master: &masterBox{},
		typed: make(chan struct{}, 1), keys: make(chan error, 1), resumed: make(chan resumed, 1)}
	s.use(l)
	return s
}

// use makes l the session's link: its master, identity, screen and streams.
func (s *session) use(l *link) {
	s.link, s.events, s.held = l, l.events.C, false
	s.master.set(l.master)
	s.info, s.first, s.seq = l.info, l.first, l.first.Seq
	s.scr.apply(l.first)
}

// startKeys starts the keys goroutine.
func (s *session) startKeys() {
	gate := &pasteGate{master: s.master, bracket: s.bracket} // attach_paste.go
	go func() { s.keys <- copyKeys(s.in, gate, s.typed) }()
}

// subC is the link's subscription channel, nil while there is no link.
func (s *session) subC() <-chan proto.Message {
	if s.link == nil {
		return nil
	}
	return s.link.sub.C
}

// run copies output until detach, the pane's exit (and its last output),
// or ctx's end.
func (s *session) run(ctx context.Context) error {
	hint := time.NewTimer(hintTTL)
	defer hint.Stop()
	var drain <-chan time.Time
	for !s.ended || (s.exit != nil && s.seq < s.exit.Seq) {
		select {
		case err := <-s.keys:
			if !errors.Is(err, ErrDetached) {
				return err
			}
			if s.leave(ctx) {
				return nil
			}
		case <-s.typed:
			s.clearHint()
		case <-hint.C:
			s.clearHint()
		case m, ok := <-s.subC():
			if !ok {
				if !s.resumable() {
					return s.link.sub.Err()
				}
				s.suspend(ctx)
				continue
			}
			if err := s.output(m); err != nil {
				return err
			}
		case res := <-s.resumed:
			if err := s.onResumed(ctx, res); err != nil {
				return err
			}
		case <-s.retry:
			s.startResume(ctx)
		case m, ok := <-s.events:
			if s.onEvent(m, ok) {
				drain = time.After(exitDrain)
			}
		case <-drain:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// output writes one raw chunk (the hint leaves the screen first).
func (s *session) output(m proto.Message) error {
	if f, ok := m.(*proto.ScreenFrame); ok {
		s.scr.apply(f)
		return nil
	}
	ch, ok := m.(*proto.OutputChunk)
	if !ok {
		return nil
	}
	s.clearHint()
	if _, err := s.out.Write(ch.Data); err != nil {
		return err
	}
	s.seq = ch.Seq + uint64(len(ch.Data))
	return nil
}

// onEvent notes the pane's exit; true when it just exited. An ended
// events stream counts as the end of the pane only if the host said so.
func (s *session) onEvent(m proto.Message, ok bool) bool {
	if !ok {
		s.events = nil // no more events: the output stream still ends the session
		return false
	}
	e, isEvent := m.(*proto.PaneEvent)
	if !isEvent || e.Kind != proto.EventExited || s.ended {
		return false
	}
	s.ended, s.exit = true, e.Info
	return true
}

// ending is the line printed when the session ends.
func (s *session) ending(pane string) string {
	if !s.ended {
		return "[detached]"
	}
	if s.exit == nil {
		return "[" + pane + " exited]"
	}
	return "[" + pane + " " + exitSummary(*s.exit) + "]"
}

// exitSummary says how a pane ended: "exited with code 3", "killed by
// SIGTERM", "timed out".
func exitSummary(info proto.PaneInfo) string {
	switch {
	case info.ExitSignal != "":
		sig := info.ExitSignal
		if !strings.HasPrefix(sig, "SIG") {
			sig = "SIG" + sig
		}
		return "killed by " + sig
	case info.ExitReason == "timeout" || info.ExitReason == "idle-timeout":
		return "ended: " + info.ExitReason
	case info.ExitReason == "completed" || info.ExitReason == "failed":
		return "exited with code " + strconv.Itoa(info.ExitCode)
	}
	return fmt.Sprintf("exited (%s, code %d)", info.ExitReason, info.ExitCode)
}

// showHint draws how to detach on the bottom row, in reverse video.
func (s *session) showHint(pane string) {
	f := s.first
	if f.Rows == 0 || f.Cols == 0 {
		return
	}
	text := " [attached to " + pane + "; Ctrl-\\ detaches] "
	if len(text) > int(f.Cols) {
		text = text[:f.Cols]
	}
	io.WriteString(s.out, cup(int(f.Rows)-1, 0)+"\x1b[0;7m"+text+"\x1b[0m"+cursorOf(f))
	s.hint = true
}

// clearHint paints the bottom row back as the first frame had it. Nothing
// was written since the hint, so the screen is the frame's again.
func (s *session) clearHint() {
	if !s.hint {
		return
	}
	s.hint = false
	f := s.first
	y := int(f.Rows) - 1
	cv := lipgloss.NewCanvas(int(f.Cols), 1)
	for _, l := range f.Lines {
		if int(l.Y) == y {
			paintCells(cv, 0, 0, int(f.Cols), l.Cells, nil)
		}
	}
	io.WriteString(s.out, cup(y, 0)+"\x1b[0m\x1b[2K"+cv.Render()+"\x1b[0m"+cursorOf(f))
}

// cup moves the cursor to row y, column x (from 0).
func cup(y, x int) string { return "\x1b[" + strconv.Itoa(y+1) + ";" + strconv.Itoa(x+1) + "H" }

// cursorOf puts the cursor where the frame has it.
func cursorOf(f *proto.ScreenFrame) string { return cup(int(f.Cursor.Y), int(f.Cursor.X)) }
