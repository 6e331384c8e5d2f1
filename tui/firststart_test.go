package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"clowder/supervisor/proto"
)

// exited returns an exited shell pane's description.
func exited(id, name string) proto.PaneInfo {
	info := running(id, name)
	info.State = "exited"
	return info
}

// Regression: with no layout.json, the TUI tiled every pane the host had,
// exited ones included (28 panes from scripts gave 28 tiny panes). It now
// shows the running ones only; exited ones stay on the host (clowder ls).
func TestFirstStartShowsOnlyTheHostsRunningPanes(t *testing.T) {
	m, h := newTestModel(t, []proto.PaneInfo{
		exited("p1", "done1"), running("p2", "a"), exited("p3", "done2"), running("p4", "b"),
	}, nil)
	if got := m.tree.Leaves(); !slices.Equal(got, []string{"p2", "p4"}) {
		t.Errorf("leaves = %v, want the running panes p2 p4", got)
	}
	if len(h.spawned) != 0 {
		t.Errorf("spawned %+v, want nothing: the host has running panes", h.spawned)
	}
	// A fresh listing (a resubscription) does not bring them in either.
	settle(t, m, m.reconcile(h.infos))
	if got := m.tree.Leaves(); !slices.Equal(got, []string{"p2", "p4"}) {
		t.Errorf("after a relisting leaves = %v, want p2 p4", got)
	}
}

// With no layout.json and only exited panes on the host, a first start
// opens the default layout, as on an empty host.
func TestFirstStartWithOnlyExitedPanesOpensTheDefaultLayout(t *testing.T) {
	m, h := newTestModel(t, []proto.PaneInfo{exited("p1", "done1"), exited("p2", "done2")}, nil)
	if len(h.spawned) != 2 {
		t.Fatalf("spawned %d panes, want the default two", len(h.spawned))
	}
	if got := m.tree.Leaves(); !slices.Equal(got, []string{"n101", "n102"}) {
		t.Errorf("leaves = %v, want the two new panes only", got)
	}
}

// Regression: panes numbered 10 and on could not be focused by number.
// With ten panes or more, a digit after the prefix opens a prompt holding
// it, so a number of any length can be typed (Enter focuses).
func TestPanesPastNineAreFocusedByNumber(t *testing.T) {
	var infos []proto.PaneInfo
	for i := range 12 {
		infos = append(infos, running(fmt.Sprintf("p%d", i+1), fmt.Sprintf("s%d", i+1)))
	}
	m, _ := newTestModel(t, infos, nil)
	ids := m.tree.Leaves()
	if len(ids) != 12 {
		t.Fatalf("leaves = %v, want 12", ids)
	}
	prefix(t, m)
	typeText(t, m, "12")
	press(t, m, tea.Key{Code: tea.KeyEnter})
	if m.tree.Focus() != ids[11] {
		t.Errorf("after 1 2 Enter the focus is %s, want pane 12 (%s)", m.tree.Focus(), ids[11])
	}
	prefix(t, m)
	typeText(t, m, "3")
	press(t, m, tea.Key{Code: tea.KeyEnter})
	if m.tree.Focus() != ids[2] {
		t.Errorf("after 3 Enter the focus is %s, want pane 3 (%s)", m.tree.Focus(), ids[2])
	}
	prefix(t, m)
	typeText(t, m, "13")
	press(t, m, tea.Key{Code: tea.KeyEnter})
	if m.tree.Focus() != ids[2] || !strings.Contains(m.status, "no pane 13") {
		t.Errorf("pane 13: focus %s, status %q; want the focus kept and a message", m.tree.Focus(), m.status)
	}
}
