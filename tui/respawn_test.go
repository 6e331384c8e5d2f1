package tui

import (
	"slices"
	"strings"
	"testing"

	"clowder/supervisor/proto"
)

// withState is info in another state of its life.
func withState(info proto.PaneInfo, state string) proto.PaneInfo {
	info.State = state
	return info
}

// lastStream is the newest stream the host opened for pane.
func (h *fakeHost) lastStream(pane string) *fakeStream {
	h.mu.Lock()
	defer h.mu.Unlock()
	var last *fakeStream
	for _, s := range h.streams {
		if s.pane == pane {
			last = s
		}
	}
	return last
}

// TestRespawnKeyRespawnsAnExitedPaneInPlace pins issue 11 §1: R started
// a new pane (claude-2) beside the old record, with the TUI's environment
// and the adapter's --continue. It now asks the host to respawn the pane
// under its own id, which keeps its place, and shows the host's notes.
func TestRespawnKeyRespawnsAnExitedPaneInPlace(t *testing.T) {
	m, h := twoPanes(t)
	exited := withState(running("p1", "left"), "exited")
	settle(t, m, m.onPaneEvent(proto.PaneEvent{Kind: proto.EventExited, Pane: "p1", Info: &exited}))
	h.notes = []string{"no session id is recorded for p1"}
	_ = m.tree.SetFocus("p1")
	prefix(t, m)
	typeText(t, m, "R")
	if len(h.spawned) != 0 || len(h.respawn) != 1 || h.respawn[0].Pane != "p1" {
		t.Fatalf("spawned %+v, respawned %+v; want p1 respawned, nothing spawned", h.spawned, h.respawn)
	}
	if got := m.tree.Leaves(); !slices.Equal(got, []string{"p1", "p2"}) || m.tree.Focus() != "p1" {
		t.Errorf("leaves %v focus %s; want p1 p2 with p1 focused", got, m.tree.Focus())
	}
	if p := m.panes["p1"]; p.state != paneRunning {
		t.Errorf("p1 is %s after the respawn; want running", p.state)
	}
	if s := h.lastStream("p1"); s == nil || s.w == nil {
		t.Errorf("no new subscription with the terminal for p1")
	}
	if !strings.Contains(m.status, "no session id") {
		t.Errorf("status %q; want the host's note", m.status)
	}
}

// TestRespawnKeyRespawnsALostPane pins issue 11 §1: R did nothing on a
// lost pane, which the TUI counted as running.
func TestRespawnKeyRespawnsALostPane(t *testing.T) {
	m, h := newTestModel(t, []proto.PaneInfo{withState(running("p1", "left"), "lost"), running("p2", "right")}, nil)
	if p := m.panes["p1"]; !p.state.gone() || p.attention() != "lost" {
		t.Fatalf("a lost pane is %s (%s); want gone, shown as lost", p.state, p.attention())
	}
	_ = m.tree.SetFocus("p1")
	prefix(t, m)
	typeText(t, m, "R")
	if len(h.respawn) != 1 || h.respawn[0].Pane != "p1" || m.panes["p1"].state != paneRunning {
		t.Fatalf("respawned %+v, p1 %s; want p1 respawned and running", h.respawn, m.panes["p1"].state)
	}
}

// TestRespawnKeyAsksBeforeKillingALiveOrphan: an orphan's process still
// runs; R asks, and only a yes kills it and respawns it.
func TestRespawnKeyAsksBeforeKillingALiveOrphan(t *testing.T) {
	m, h := newTestModel(t, []proto.PaneInfo{withState(running("p1", "left"), "orphaned"), running("p2", "right")}, nil)
	_ = m.tree.SetFocus("p1")
	prefix(t, m)
	typeText(t, m, "R")
	if m.prompt == nil || !strings.Contains(m.prompt.label, "kill it first? y/n") {
		t.Fatalf("prompt %+v; want the kill question", m.prompt)
	}
	typeText(t, m, "n")
	if len(h.killed)+len(h.respawn) != 0 {
		t.Fatalf("after no: killed %v respawned %+v", h.killed, h.respawn)
	}
	prefix(t, m)
	typeText(t, m, "R")
	typeText(t, m, "y")
	if !slices.Equal(h.killed, []string{"p1"}) || len(h.respawn) != 1 || m.panes["p1"].state != paneRunning {
		t.Fatalf("after yes: killed %v respawned %+v p1 %s; want it killed, then respawned", h.killed, h.respawn, m.panes["p1"].state)
	}
}

// TestRespawnKeyOnARunningPaneSaysToKillFirst: R on a running pane used
// to do nothing at all.
func TestRespawnKeyOnARunningPaneSaysToKillFirst(t *testing.T) {
	m, h := twoPanes(t)
	prefix(t, m)
	typeText(t, m, "R")
	if len(h.respawn)+len(h.spawned) != 0 || !strings.Contains(m.status, "kill it first") {
		t.Fatalf("respawned %+v spawned %+v status %q; want nothing but a hint", h.respawn, h.spawned, m.status)
	}
}
