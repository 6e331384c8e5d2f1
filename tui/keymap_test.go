package tui

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"clowder/persist"
)

// Regression (issue 8 §1): the README's [keys] example, a list of keys,
// was a TOML type error; it must load and bind every key in the list, and
// a single string must still work.
func TestKeyMapTakesConfigKeyLists(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	text := "[keys]\nsplit-right = [\"%\", \"v\"]\nzoom = \"M-z Z\"\n"
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := persist.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	km, err := NewKeyMap(cfg.TUI.Prefix, cfg.Keys)
	if err != nil {
		t.Fatal(err)
	}
	if got := km.Bindings[ActSplitRight].Keys(); !slices.Equal(got, []string{"%", "v"}) {
		t.Errorf("split-right keys %v, want %% and v", got)
	}
	if got := km.Bindings[ActZoom].Keys(); !slices.Equal(got, []string{"alt+z", "Z"}) {
		t.Errorf("zoom keys %v", got)
	}
}
