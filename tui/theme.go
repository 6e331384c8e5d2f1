package tui

// This file is the colour theme: the named colours of assets/themes/*.toml
// as colours the renderer paints with.

import (
	"fmt"
	"image/color"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"clowder/assets"
	"clowder/persist"
)

// Theme holds the colours of the TUI's own chrome; pane content keeps the
// colours its program chose. A nil colour is the terminal's default.
type Theme struct {
	Border, BorderFocus, Title, TitleFocus       color.Color
	BadgeNeedsInput, BadgeNeedsInputBg           color.Color
	BadgeWorking, BadgeIdle, BadgeExited         color.Color
	StatusFg, StatusBg, StatusPrefixFg           color.Color
	StatusPrefixBg, StatusError, StatusAttention color.Color
	CopyMatchFg, CopyMatchBg                     color.Color
	CopySelectFg, CopySelectBg                   color.Color
	OverlayFg, OverlayBg, OverlayBorder          color.Color
	ExitedText                                   color.Color
}

// LoadTheme parses the named embedded theme ("" is "default").
func LoadTheme(name string) (Theme, error) {
	if name == "" {
		name = "default"
	}
	data, err := assets.Theme(name)
	if err != nil {
		return Theme{}, fmt.Errorf("[tui] theme: %w", err)
	}
	f, err := persist.DecodeTheme(name, data)
	if err != nil {
		return Theme{}, err
	}
	return themeOf(f)
}

// themeOf parses every colour of f, naming the first bad one.
func themeOf(f persist.ThemeFile) (Theme, error) {
	var t Theme
	var err error
	for _, c := range []struct {
		dst *color.Color
		src string
	}{
		{&t.Border, f.Border}, {&t.BorderFocus, f.BorderFocus}, {&t.Title, f.Title}, {&t.TitleFocus, f.TitleFocus},
		{&t.BadgeNeedsInput, f.BadgeNeedsInput}, {&t.BadgeNeedsInputBg, f.BadgeNeedsInputBg},
		{&t.BadgeWorking, f.BadgeWorking}, {&t.BadgeIdle, f.BadgeIdle}, {&t.BadgeExited, f.BadgeExited},
		{&t.StatusFg, f.StatusFg}, {&t.StatusBg, f.StatusBg}, {&t.StatusPrefixFg, f.StatusPrefixFg},
		{&t.StatusPrefixBg, f.StatusPrefixBg}, {&t.StatusError, f.StatusError}, {&t.StatusAttention, f.StatusAttention},
		{&t.CopyMatchFg, f.CopyMatchFg}, {&t.CopyMatchBg, f.CopyMatchBg},
		{&t.CopySelectFg, f.CopySelectFg}, {&t.CopySelectBg, f.CopySelectBg},
		{&t.OverlayFg, f.OverlayFg}, {&t.OverlayBg, f.OverlayBg}, {&t.OverlayBorder, f.OverlayBorder},
		{&t.ExitedText, f.ExitedText},
	} {
		if *c.dst, err = parseColor(c.src); err != nil {
			return Theme{}, fmt.Errorf("theme %s: %w", f.Name, err)
		}
	}
	return t, nil
}

// parseColor reads "#rrggbb", a palette index "0".."255", or "" (default).
func parseColor(s string) (color.Color, error) {
	switch {
	case s == "":
		return nil, nil
	case strings.HasPrefix(s, "#") && len(s) == 7:
		v, err := strconv.ParseUint(s[1:], 16, 32)
		if err != nil {
			return nil, fmt.Errorf("colour %q: want #rrggbb", s)
		}
		return ansi.RGBColor{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v)}, nil
	}
	i, err := strconv.ParseUint(s, 10, 8)
	if err != nil {
		return nil, fmt.Errorf("colour %q: want #rrggbb, 0-255 or empty", s)
	}
	return paletteColor(uint8(i)), nil
}

// paletteColor is palette entry i: the 16 ANSI colours as basic colours
// (so they follow the terminal's palette in every colour profile), the
// rest as indexed colours.
func paletteColor(i uint8) color.Color {
	if i < 16 {
		return ansi.BasicColor(i)
	}
	return ansi.IndexedColor(i)
}
