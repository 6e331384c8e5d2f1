package tui

// This file is the keymap: which key, pressed after the prefix, does which
// Action. Keys are data (key.Binding with help text, matched with
// key.Matches); the defaults come from assets/keymap.toml, config.toml's
// [keys] replaces an action's keys, and [tui] prefix names the prefix.

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"

	"clowder/assets"
	"clowder/panes"
	"clowder/persist"
)

// KeyMap is the prefix key and the action bindings. It implements
// bubbles' help.KeyMap for the help overlay.
type KeyMap struct {
	Prefix   key.Binding
	Bindings [actionCount]key.Binding
	groups   []string              // help columns, in order of first use
	groupOf  [actionCount]string   // each action's column
	names    [actionCount][]string // each action's keys as configured, for errors
	prefix   panes.Key
	prefixAs string // the prefix as configured, for errors
}

// NewKeyMap builds the keymap from the embedded defaults, the prefix (tmux
// key-name syntax) and the [keys] overrides (action name → keys). An
// unknown action or key name is an error that names it.
func NewKeyMap(prefix string, overrides map[string]persist.KeyList) (KeyMap, error) {
	var km KeyMap
	entries, err := persist.DecodeKeymap(assets.Keymap())
	if err != nil {
		return km, fmt.Errorf("default keymap: %w", err)
	}
	pk, err := panes.ParseKey(prefix)
	if err != nil { // not ParseKey's line, with send-keys' -l: see keystrokes
		return km, fmt.Errorf("[tui] prefix: unknown key %q: want %s", prefix, panes.KeyNameHelp)
	}
	km.prefix, km.prefixAs = pk, prefix
	km.Prefix = key.NewBinding(key.WithKeys(keystroke(pk)), key.WithHelp(pk.String(), "prefix (twice: send it)"))
	for a := Action(0); a < actionCount; a++ {
		e, ok := entries[a.String()]
		if !ok {
			return km, fmt.Errorf("default keymap has no %s", a)
		}
		if err := km.bind(a, e); err != nil {
			return km, fmt.Errorf("default keymap: %w", err)
		}
	}
	if err := km.override(overrides); err != nil {
		return km, err
	}
	return km, km.clash()
}

// clash refuses a key bound to two actions, or to an action and the
// prefix, defaults and [keys] together: only one of them could ever run
// (action takes the first match; the prefix pressed after the prefix
// goes to the pane). persist checks [keys] alone as written; this sees
// the keys as they match, so "C-g" and "C-G" are one key.
func (km *KeyMap) clash() error {
	owner := map[string]string{keystroke(km.prefix): "the prefix ([tui] prefix " + strconv.Quote(km.prefixAs) + ")"}
	for a := Action(0); a < actionCount; a++ {
		for i, k := range km.Bindings[a].Keys() {
			if other, ok := owner[k]; ok && other != a.String() {
				return fmt.Errorf("keys: %s and %s share the key %q; give one of them another key in config.toml ([keys] or [tui] prefix)", other, a, km.names[a][i])
			}
			owner[k] = a.String()
		}
	}
	return nil
}

// bind sets action a from a keymap entry.
func (km *KeyMap) bind(a Action, e persist.KeymapEntry) error {
	strokes, err := keystrokes(e.Keys)
	if err != nil {
		return fmt.Errorf("%s: %w", a, err)
	}
	shown := e.Keys
	if a == ActFocusNumber && len(shown) > 1 {
		shown = []string{shown[0] + "-" + shown[len(shown)-1]}
	}
	km.Bindings[a] = key.NewBinding(key.WithKeys(strokes...), key.WithHelp(joinKeys(shown), e.Help))
	km.groupOf[a], km.names[a] = e.Group, e.Keys
	if !slices.Contains(km.groups, e.Group) {
		km.groups = append(km.groups, e.Group)
	}
	return nil
}

// override applies config.toml's [keys]: each value is the action's new
// keys (persist.KeyList has already split a single string on spaces).
func (km *KeyMap) override(overrides map[string]persist.KeyList) error {
	names := make([]string, 0, len(overrides))
	for n := range overrides {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		a, ok := parseAction(n)
		if !ok {
			return fmt.Errorf("[keys] %s: unknown action; want one of %s", n, joinKeys(actionNames[:]))
		}
		old := km.Bindings[a].Help()
		e := persist.KeymapEntry{Keys: overrides[n], Help: old.Desc, Group: km.groupOf[a]}
		if err := km.bind(a, e); err != nil {
			return fmt.Errorf("[keys] %w", err)
		}
	}
	return nil
}

// keystrokes parses tmux key names into the strings bindings match.
func keystrokes(names []string) ([]string, error) {
	if len(names) == 0 {
		return nil, fmt.Errorf("no keys")
	}
	out := make([]string, len(names))
	for i, n := range names {
		k, err := panes.ParseKey(n)
		if err != nil {
			// Not ParseKey's own line, which ends with send-keys'
			// advice (-l): here the key is a binding in config.toml.
			return nil, fmt.Errorf("unknown key %q: want %s", n, panes.KeyNameHelp)
		}
		out[i] = keystroke(k)
	}
	return out, nil
}

// action returns the action bound to a key press, if any.
func (km *KeyMap) action(press fmt.Stringer) (Action, bool) {
	for a := Action(0); a < actionCount; a++ {
		if key.Matches(press, km.Bindings[a]) {
			return a, true
		}
	}
	return 0, false
}

// ShortHelp implements help.KeyMap.
func (km KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{km.Prefix, km.Bindings[ActHelp], km.Bindings[ActDetach]}
}

// FullHelp implements help.KeyMap: one column per group.
func (km KeyMap) FullHelp() [][]key.Binding {
	cols := make([][]key.Binding, len(km.groups))
	for a := Action(0); a < actionCount; a++ {
		i := slices.Index(km.groups, km.groupOf[a])
		cols[i] = append(cols[i], km.Bindings[a])
	}
	return cols
}

// joinKeys lists keys for help text.
func joinKeys(keys []string) string { return strings.Join(keys, " ") }
