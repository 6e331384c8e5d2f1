package tui

import (
	"reflect"
	"testing"

	tea "charm.land/bubbletea/v2"

	"clowder/layout"
	"clowder/supervisor/proto"
)

// Issue 12: every echo laid the pane tree out again, twice (its repaint
// and the cursor), a quarter of its draw with eight panes. The layout is
// now computed once while the tree and the window stay as they are.
func TestAnEchoReusesTheLayout(t *testing.T) {
	m, _ := newTestModel(t, []proto.PaneInfo{running("p1", "one"), running("p2", "two")}, nil)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	first := m.geometry()
	p := m.panes["p1"]
	m.Update(mailMsg{frames: map[string]*proto.ScreenFrame{"p1": echoFrame("p1", p.size.W, p.size.H, 0, "$ a")}})
	again := m.geometry()
	if len(first.Panes) == 0 || &first.Panes[0] != &again.Panes[0] {
		t.Error("an echo laid the tree out again")
	}
}

// The layout kept is never stale: after a split, a resize of a pane, a
// zoom, a focus change and a window resize it is what laying the tree
// out gives.
func TestTheLayoutFollowsEveryChange(t *testing.T) {
	m, _ := newTestModel(t, []proto.PaneInfo{running("p1", "one"), running("p2", "two")}, nil)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	check := func(what string) {
		t.Helper()
		if got, want := m.geometry(), m.tree.Rects(m.area(), minPane); !reflect.DeepEqual(got, want) {
			t.Errorf("after %s the layout is\n%+v\nwant\n%+v", what, got, want)
		}
	}
	check("the start")
	leaves := m.tree.Leaves()
	if err := m.tree.Split(leaves[0], "p3", layout.Vertical, layout.After); err != nil {
		t.Fatal(err)
	}
	check("a split")
	if err := m.tree.Resize("p3", layout.Up, 3, m.area(), minPane); err != nil {
		t.Fatal(err)
	}
	check("a resize")
	if err := m.tree.Zoom("p3"); err != nil {
		t.Fatal(err)
	}
	check("a zoom")
	m.tree.Unzoom()
	if err := m.tree.SetFocus("p3"); err != nil {
		t.Fatal(err)
	}
	check("a focus change")
	m.Update(tea.WindowSizeMsg{Width: 90, Height: 30})
	check("a window resize")
}
