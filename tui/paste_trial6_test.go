package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"clowder/panes"
	"clowder/supervisor/proto"
)

// A TUI killed in the middle of a big paste (its drainer still writing
// the body to the master) left the program inside a bracketed paste: the
// closing ESC[201~ was never written, so every key typed later, in a new
// TUI or with send-keys, went into the paste and the pane seemed dead.
// The brackets now go through the host, as a split paste's first and
// last part, so the host knows the paste is open while the body is
// written and closes it if the TUI's connection ends first
// (supervisor/host/paste_open.go).
func TestABigPasteIsBracketedByTheHostSoAKilledTUILeavesItClosed(t *testing.T) {
	m, h := twoPanes(t)
	focus := m.tree.Focus()
	s := streamOf(t, m, focus)
	frame(t, m, focus, 39, 22, proto.FrameModes{Flags: proto.ModeBracketedPaste}, "$")
	body := strings.Repeat("x", 1<<20) // more than the pipe holds: the drainer writes most of it
	_, cmd := m.Update(tea.PasteMsg{Content: body})
	settle(t, m, cmd)
	if got := s.read(t, len(panes.PasteStart)+1); got != panes.PasteStart+"x" {
		t.Fatalf("the paste began %q", got)
	}
	if !h.pasteOpen(focus) {
		t.Fatal("the body is being written, but the host was not told that a paste is open: a TUI killed now leaves the program inside it")
	}
	rest := s.read(t, len(body)-1+len(panes.PasteEnd))
	if rest != body[1:]+panes.PasteEnd {
		t.Errorf("the paste went on with %d bytes ending %q", len(rest), rest[max(0, len(rest)-20):])
	}
	if h.pasteOpen(focus) {
		t.Error("the paste is over, but the host still holds it open")
	}
	typeText(t, m, "y")
	if got := s.read(t, 1); got != "y" {
		t.Errorf("a key after the paste sent %q", got)
	}
}

// A paste of a line or a prompt goes to the master at once, brackets and
// all, from Update: it does not wait for the host (stopped, or busy).
func TestASmallPasteGoesToTheMasterWithoutTheHost(t *testing.T) {
	m, h := twoPanes(t)
	focus := m.tree.Focus()
	s := streamOf(t, m, focus)
	frame(t, m, focus, 39, 22, proto.FrameModes{Flags: proto.ModeBracketedPaste}, "$")
	_, cmd := m.Update(tea.PasteMsg{Content: "fix the test"})
	settle(t, m, cmd)
	if got := s.read(t, 24); got != panes.PasteStart+"fix the test"+panes.PasteEnd {
		t.Errorf("the paste sent %q", got)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.pastes) != 0 {
		t.Errorf("a small paste asked the host %+v", h.pastes)
	}
}
