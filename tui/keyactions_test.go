package tui

import (
	"slices"
	"testing"

	"clowder/persist"
)

// TestKeyActionsArePersistsList keeps persist's list of [keys] action
// names (checked when config.toml loads, before the TUI) the TUI's own.
func TestKeyActionsArePersistsList(t *testing.T) {
	var mine []string
	for a := Action(0); a < actionCount; a++ {
		mine = append(mine, a.String())
	}
	if got := persist.KeyActions(); !slices.Equal(got, mine) {
		t.Fatalf("persist.KeyActions() = %v; the TUI's actions are %v", got, mine)
	}
}
