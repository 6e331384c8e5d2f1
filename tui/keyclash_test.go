package tui

import (
	"strings"
	"testing"

	"clowder/persist"
)

// TestKeyMapRefusesClashes pins a trial bug: a [keys] binding on a key
// another action keeps by default (zoom = "x", while close is x), or on
// the prefix itself, was accepted and the first action in the table won
// silently. The keymap is refused, naming both actions and the key.
func TestKeyMapRefusesClashes(t *testing.T) {
	tests := []struct {
		name, prefix string
		keys         map[string]persist.KeyList
		want         []string
	}{
		{"a default of another action", "C-Space", map[string]persist.KeyList{"zoom": {"x"}}, []string{"zoom", "close", `"x"`}},
		{"the prefix", "C-g", map[string]persist.KeyList{"help": {"?", "C-g"}}, []string{"help", "prefix", `"C-g"`}},
		{"a prefix a default shadows", "z", nil, []string{"zoom", "prefix", `"z"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewKeyMap(tc.prefix, tc.keys)
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err = %v; want it to name %s", err, w)
				}
			}
		})
	}
	if _, err := NewKeyMap("C-Space", map[string]persist.KeyList{"zoom": {"x"}, "close": {"q"}}); err != nil {
		t.Errorf("close moved off x first: %v", err)
	}
}
