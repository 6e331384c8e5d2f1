package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// savedPanes reads layout.json and returns the panes it keeps.
func savedPanes(t *testing.T, m *Model) []string {
	t.Helper()
	ids, err := readSavedPanes(m)
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// ctrlSpace is the default prefix.
var ctrlSpace = tea.KeyPressMsg{Code: tea.KeySpace, Mod: tea.ModCtrl}

// TestKillAllLeavesNoGhostInLayoutJSON pins issue 7 §2: C-Space Q with a
// pane that ignores SIGTERM left that pane in layout.json (the last save
// raced the quit), and the next start showed it as missing.
func TestKillAllLeavesNoGhostInLayoutJSON(t *testing.T) {
	r := startRealHost(t)
	other := r.dial()
	stubborn := r.spawn(other, "/bin/sh", "-c", `trap "" HUP INT TERM; echo ready; while :; do read x; done`)
	plain := r.spawn(other, "/bin/sh", "-c", "exec cat")
	m, _ := r.model()
	p := newProgram(t, m)
	p.start(m.Init())
	p.until("both panes shown and saved", func() bool {
		return m.tree.Has(stubborn) && m.tree.Has(plain) && len(savedPanesOrNone(m)) == 2
	})
	for _, k := range []tea.KeyPressMsg{ctrlSpace, {Code: 'Q', Text: "Q"}, {Code: 'y', Text: "y"}} {
		p.update(k)
	}
	p.until("the TUI quit", func() bool { return p.quit })
	if got := savedPanes(t, m); len(got) != 0 {
		t.Errorf("layout.json after kill-all keeps %v, want no pane", got)
	}
}

// savedPanesOrNone is savedPanes without failing while no file exists.
func savedPanesOrNone(m *Model) []string {
	ids, _ := readSavedPanes(m)
	return ids
}

// readSavedPanes lists the panes layout.json keeps.
func readSavedPanes(m *Model) ([]string, error) {
	raw, err := os.ReadFile(m.saver.path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Layout layoutDoc `json:"layout"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("layout.json: %w\n%s", err, raw)
	}
	var ids []string
	for id := range doc.Layout.Panes {
		ids = append(ids, id)
	}
	return ids, nil
}

// TestPaneRemovedElsewhereLeavesLayoutJSON pins issue 7 §2: a pane
// removed with `clowder rm` while the TUI ran came back as "missing" at
// the next start.
func TestPaneRemovedElsewhereLeavesLayoutJSON(t *testing.T) {
	r := startRealHost(t)
	other := r.dial()
	keep := r.spawn(other, "/bin/sh", "-c", "exec cat")
	gone := r.spawn(other, "/bin/sh", "-c", "exec cat")
	m, _ := r.model()
	p := newProgram(t, m)
	p.start(m.Init())
	p.until("both panes shown and saved", func() bool {
		return m.tree.Has(keep) && m.tree.Has(gone) && len(savedPanesOrNone(m)) == 2
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := other.Remove(ctx, gone); err != nil {
		t.Fatal(err)
	}
	p.until("the removed pane dropped", func() bool { return !m.tree.Has(gone) })
	p.update(ctrlSpace)
	p.update(tea.KeyPressMsg{Code: 'd', Text: "d"}) // detach
	p.until("the TUI quit", func() bool { return p.quit })
	if got := savedPanes(t, m); len(got) != 1 || got[0] != keep {
		t.Errorf("layout.json keeps %v, want only %s", got, keep)
	}
	tmps, _ := filepath.Glob(filepath.Join(filepath.Dir(m.saver.path), ".layout.json.tmp-*"))
	if len(tmps) != 0 {
		t.Errorf("temporary files left: %v", tmps)
	}
}
