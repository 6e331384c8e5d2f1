package assets

// This file is the TUI's embedded defaults: the keymap and the colour
// themes, as TOML text. The tui package parses them; assets only stores
// them, so it needs none of clowder's packages.

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

//go:embed keymap.toml
var keymap []byte

//go:embed themes/*.toml
var themes embed.FS

// Keymap returns the default key bindings (keymap.toml): one table per TUI
// action with its keys, help text and help group.
func Keymap() []byte { return slices.Clone(keymap) }

// Theme returns the TOML text of the named colour theme.
func Theme(name string) ([]byte, error) {
	data, err := themes.ReadFile(path.Join("themes", name+".toml"))
	if err != nil {
		return nil, fmt.Errorf("unknown theme %q: want one of %s", name, strings.Join(ThemeNames(), ", "))
	}
	return data, nil
}

// ThemeNames lists the embedded themes, sorted.
func ThemeNames() []string {
	entries, _ := fs.ReadDir(themes, "themes") // cannot fail: the folder is embedded
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".toml"))
	}
	return names
}
