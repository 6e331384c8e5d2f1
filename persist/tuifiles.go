// This file decodes the TUI's own TOML files, the keymap (assets/keymap.toml)
// and the themes (assets/themes/*.toml), so that config is parsed in one
// place; what the values mean (keys, colours) stays the TUI's business.

package persist

import (
	"fmt"

	"github.com/BurntSushi/toml"
)

// KeymapEntry is one table of keymap.toml: an action's keys, help text and
// help column.
type KeymapEntry struct {
	Keys  []string `toml:"keys"`
	Help  string   `toml:"help"`
	Group string   `toml:"group"`
}

// DecodeKeymap reads keymap.toml: action name → entry.
func DecodeKeymap(data []byte) (map[string]KeymapEntry, error) {
	entries := map[string]KeymapEntry{}
	if _, err := toml.Decode(string(data), &entries); err != nil {
		return nil, fmt.Errorf("decode keymap: %w", err)
	}
	return entries, nil
}

// ThemeFile is a theme (assets/themes/*.toml) as written: every colour
// as text, which the TUI parses.
type ThemeFile struct {
	Name              string `toml:"name"`
	Border            string `toml:"border"`
	BorderFocus       string `toml:"border_focus"`
	Title             string `toml:"title"`
	TitleFocus        string `toml:"title_focus"`
	BadgeNeedsInput   string `toml:"badge_needs_input"`
	BadgeNeedsInputBg string `toml:"badge_needs_input_bg"`
	BadgeWorking      string `toml:"badge_working"`
	BadgeIdle         string `toml:"badge_idle"`
	BadgeExited       string `toml:"badge_exited"`
	StatusFg          string `toml:"status_fg"`
	StatusBg          string `toml:"status_bg"`
	StatusPrefixFg    string `toml:"status_prefix_fg"`
	StatusPrefixBg    string `toml:"status_prefix_bg"`
	StatusError       string `toml:"status_error"`
	StatusAttention   string `toml:"status_attention"`
	CopyMatchFg       string `toml:"copy_match_fg"`
	CopyMatchBg       string `toml:"copy_match_bg"`
	CopySelectFg      string `toml:"copy_select_fg"`
	CopySelectBg      string `toml:"copy_select_bg"`
	OverlayFg         string `toml:"overlay_fg"`
	OverlayBg         string `toml:"overlay_bg"`
	OverlayBorder     string `toml:"overlay_border"`
	ExitedText        string `toml:"exited_text"`
}

// DecodeTheme reads the theme called name; an unknown key is an error that
// names it.
func DecodeTheme(name string, data []byte) (ThemeFile, error) {
	var f ThemeFile
	md, err := toml.Decode(string(data), &f)
	if err != nil {
		return ThemeFile{}, fmt.Errorf("theme %s: %w", name, err)
	}
	if u := md.Undecoded(); len(u) > 0 {
		return ThemeFile{}, fmt.Errorf("theme %s: unknown key %q", name, u[0].String())
	}
	return f, nil
}
