package tui

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"clowder/persist"
)

// A rename the host refused (a name another pane has, a pane id's form,
// too long, not ASCII) stayed on the pane's border and in layout.json:
// the TUI showed a name that `clowder ls`, scripts and other TUIs do not
// know, two panes could show the same name, and it came back after every
// restart. The TUI's label goes back to what it was, and the status bar
// says why.
func TestARenameTheHostRefusesLeavesTheNameAsItWas(t *testing.T) {
	m, h := twoPanes(t)
	id := m.tree.Focus()
	before := m.panes[id].name()
	h.renameErr = errors.New(`name: pane name "build" is taken by p2`)
	prefix(t, m)
	typeText(t, m, ",")
	press(t, m, tea.Key{Code: 'u', Mod: tea.ModCtrl})
	typeText(t, m, "build")
	press(t, m, tea.Key{Code: tea.KeyEnter})
	if got := m.panes[id].name(); got != before {
		t.Errorf("name %q after a refused rename, want %q", got, before)
	}
	if !strings.Contains(m.status, "is taken") {
		t.Errorf("status %q, want the host's refusal", m.status)
	}
	raw, err := persist.LoadLayout(m.saver.path, nil)
	if err != nil {
		t.Fatal(err)
	}
	var d layoutDoc
	if err := json.Unmarshal(raw, &d); err != nil || d.Panes[id].Label != "" {
		t.Errorf("layout.json label = %+v (%v), want none", d.Panes[id], err)
	}
}
