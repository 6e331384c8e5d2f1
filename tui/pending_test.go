package tui

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"clowder/persist"
	"clowder/supervisor/proto"
)

// onePane is a model over a host with the one running pane p1.
func onePane(t *testing.T) (*Model, *fakeHost) {
	t.Helper()
	m, h := newTestModel(t, []proto.PaneInfo{running("p1", "left")}, nil)
	if got := m.tree.Leaves(); !slices.Equal(got, []string{"p1"}) {
		t.Fatalf("leaves = %v", got)
	}
	return m, h
}

// Regression: prefix commands typed right after a split acted on the old
// pane (the second split of `% "` went below the original pane), because
// the new pane entered the layout only when the host answered. The split
// is now immediate: a pending pane takes the place and the focus at once.
func TestSplitThenSplitBeforeTheReplySplitsTheNewPane(t *testing.T) {
	bothModes(t, func(t *testing.T, mode cmdMode) {
		m, h := onePane(t)
		hold := make(chan struct{})
		if mode == cmdsConcurrent { // in order, each Cmd answers before the next key
			h.mu.Lock()
			h.spawnHold = hold
			h.mu.Unlock()
		}
		d := newDriver(t, m, mode)
		d.prefix()
		d.typeText("%")
		d.prefix()
		d.typeText(`"`)
		d.typeText("echo THIRD")
		if mode == cmdsConcurrent {
			if n := len(m.tree.Leaves()); n != 3 || m.tree.Focus() != m.tree.Leaves()[2] {
				t.Errorf("before the replies: %s, want three panes, the newest focused", m.tree)
			}
			assertSaved(t, m, "p1")
			close(hold)
		}
		d.settle()
		ids := m.tree.Leaves() // the host numbers concurrent spawns in the order they reach it
		if len(ids) != 3 {
			t.Fatalf("tree = %s, want three panes", m.tree)
		}
		want := fmt.Sprintf(`(h 0.5 "p1" (v 0.5 %q %q)) focus=%s zoom=`, ids[1], ids[2], ids[2])
		if got := m.tree.String(); got != want || !strings.HasPrefix(ids[2], "n") {
			t.Errorf("tree = %s, want %s: the second split below the first's pane", got, want)
		}
		saved := []string{ids[1], ids[2], "p1"}
		slices.Sort(saved)
		assertSaved(t, m, saved...)
		if got := streamOf(t, m, ids[2]).read(t, len("echo THIRD")); got != "echo THIRD" {
			t.Errorf("%s got %q, want the typed text", ids[2], got)
		}
	})
}

// A split whose spawn fails leaves no pane behind: the pending pane goes,
// the focus returns to the pane that was split, the status bar says why,
// and layout.json never records it.
func TestFailedSplitRemovesThePendingPaneAndGivesTheFocusBack(t *testing.T) {
	for _, key := range []string{"%", "c"} {
		t.Run(key, func(t *testing.T) {
			m, h := onePane(t)
			h.spawnErr = errors.New("no such shell")
			d := newDriver(t, m, cmdsInOrder)
			d.prefix()
			d.typeText(key)
			if got := m.tree.String(); got != `"p1" focus=p1 zoom=` {
				t.Errorf("tree = %s, want p1 alone and focused", got)
			}
			if len(m.panes) != 1 || !strings.Contains(m.status, "spawn failed: no such shell") {
				t.Errorf("panes %d, status %q; want one pane and the failure", len(m.panes), m.status)
			}
			assertSaved(t, m, "p1")
		})
	}
}

// assertSaved checks layout.json holds exactly the panes want (sorted), if
// it was written at all.
func assertSaved(t *testing.T, m *Model, want ...string) {
	t.Helper()
	raw, err := persist.LoadLayout(m.saver.path, nil)
	if err != nil || raw == nil {
		return // not written: nothing recorded
	}
	saved, err := decodeLayout(raw)
	if err != nil {
		t.Fatal(err)
	}
	got := saved.tree.Leaves()
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("layout.json has %v, want %v", got, want)
	}
}

// A new agent (a) is immediate as a split is: a split asked for before its
// spawn answers splits the agent's pane, and a failed one gives the focus
// back.
func TestNewAgentIsImmediateLikeASplit(t *testing.T) {
	bothModes(t, func(t *testing.T, mode cmdMode) {
		m, h := newTestModel(t, []proto.PaneInfo{running("p1", "left")}, func(c *persist.Config) {
			c.Agents["fake"] = persist.AgentConfig{Command: []string{"sh", "-c", "true"}}
		})
		hold := make(chan struct{})
		if mode == cmdsConcurrent {
			h.mu.Lock()
			h.spawnHold = hold
			h.mu.Unlock()
		}
		d := newDriver(t, m, mode)
		d.prefix()
		d.typeText("a")
		d.press(tea.Key{Code: 'u', Mod: tea.ModCtrl})
		d.typeText("fake")
		d.press(tea.Key{Code: tea.KeyEnter})
		d.press(tea.Key{Code: tea.KeyEnter}) // no name
		if p := m.focused(); p == nil || p.id == "p1" || p.kind() != "fake" {
			t.Fatalf("after asking for the agent the focus is on %v, want its pane", m.tree)
		}
		d.prefix()
		d.typeText(`"`)
		if mode == cmdsConcurrent {
			close(hold)
		}
		d.settle()
		ids := m.tree.Leaves()
		if len(ids) != 3 || m.panes[ids[1]].kind() != "fake" {
			t.Fatalf("tree = %s, want p1, the agent, and the split of the agent", m.tree)
		}
		want := fmt.Sprintf(`(h 0.5 "p1" (v 0.5 %q %q)) focus=%s zoom=`, ids[1], ids[2], ids[2])
		if got := m.tree.String(); got != want {
			t.Errorf("tree = %s, want %s", got, want)
		}
	})
}

// A pending pane is drawn as such, and closing it before its spawn
// answers removes the pane the spawn made once it does.
func TestClosingAPendingPaneRemovesWhatItsSpawnMakes(t *testing.T) {
	m, h := onePane(t)
	hold := make(chan struct{})
	h.spawnHold = hold
	d := newDriver(t, m, cmdsConcurrent)
	d.prefix()
	d.typeText("%")
	if !strings.Contains(stripped(m), pendingName) {
		t.Errorf("the pending pane is not drawn as starting:\n%s", stripped(m))
	}
	d.prefix()
	d.typeText("x") // a pending pane closes without a question: nothing runs yet
	if got := m.tree.String(); got != `"p1" focus=p1 zoom=` {
		t.Errorf("after closing the pending pane: %s", got)
	}
	close(hold)
	d.settle()
	h.mu.Lock()
	removed := slices.Clone(h.removed)
	h.mu.Unlock()
	if got := m.tree.String(); got != `"p1" focus=p1 zoom=` || !slices.Equal(removed, []string{"n101"}) {
		t.Errorf("tree %s, removed on the host %v; want p1 alone and n101 removed", got, removed)
	}
	assertSaved(t, m, "p1")
}
