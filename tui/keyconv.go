package tui

// This file converts keys between bubbletea's form (what the outer
// terminal reported), panes.Key (what the encoders take and tmux key names
// describe), and the keystroke strings key.Binding matches.

import (
	"strconv"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"clowder/panes"
)

// teaFunctional maps bubbletea's functional key codes to ours.
var teaFunctional = buildTeaFunctional()

func buildTeaFunctional() map[rune]panes.Code {
	m := map[rune]panes.Code{
		tea.KeyUp: panes.KeyUp, tea.KeyDown: panes.KeyDown, tea.KeyLeft: panes.KeyLeft, tea.KeyRight: panes.KeyRight,
		tea.KeyHome: panes.KeyHome, tea.KeyEnd: panes.KeyEnd, tea.KeyPgUp: panes.KeyPageUp, tea.KeyPgDown: panes.KeyPageDown,
		tea.KeyInsert: panes.KeyInsert, tea.KeyDelete: panes.KeyDelete,
		tea.KeyKpEnter: panes.KeyKPEnter, tea.KeyKpEqual: panes.KeyKPEqual, tea.KeyKpMultiply: panes.KeyKPMultiply,
		tea.KeyKpPlus: panes.KeyKPAdd, tea.KeyKpMinus: panes.KeyKPSubtract, tea.KeyKpDecimal: panes.KeyKPDecimal,
		tea.KeyKpDivide: panes.KeyKPDivide,
		tea.KeyKpUp:     panes.KeyUp, tea.KeyKpDown: panes.KeyDown, tea.KeyKpLeft: panes.KeyLeft, tea.KeyKpRight: panes.KeyRight,
		tea.KeyKpHome: panes.KeyHome, tea.KeyKpEnd: panes.KeyEnd, tea.KeyKpPgUp: panes.KeyPageUp,
		tea.KeyKpPgDown: panes.KeyPageDown, tea.KeyKpInsert: panes.KeyInsert, tea.KeyKpDelete: panes.KeyDelete,
	}
	for i := rune(0); i < 12; i++ {
		m[tea.KeyF1+i] = panes.KeyF1 + panes.Code(i)
	}
	for i := rune(0); i < 10; i++ {
		m[tea.KeyKp0+i] = panes.KeyKP0 + panes.Code(i)
	}
	return m
}

// teaMods maps modifiers; Meta counts as Alt, as terminals send both as ESC.
func teaMods(m tea.KeyMod) panes.Mod {
	var out panes.Mod
	if m.Contains(tea.ModShift) {
		out |= panes.ModShift
	}
	if m.Contains(tea.ModAlt) || m.Contains(tea.ModMeta) {
		out |= panes.ModAlt
	}
	if m.Contains(tea.ModCtrl) {
		out |= panes.ModCtrl
	}
	if m.Contains(tea.ModSuper) {
		out |= panes.ModSuper
	}
	return out
}

// paneKey converts a key press. ok is false for keys with no terminal
// encoding (media keys, lone modifiers); text is set instead of the key
// for multi-rune input (an IME commit), which goes to the pane as typed.
func paneKey(k tea.Key) (key panes.Key, text string, ok bool) {
	mods := teaMods(k.Mod)
	if c, found := teaFunctional[k.Code]; found {
		return panes.Key{Code: c, Mod: mods}, "", true
	}
	switch k.Code {
	case tea.KeyEnter, tea.KeyTab, tea.KeyBackspace, tea.KeyEscape, tea.KeySpace:
		return panes.Key{Code: panes.Code(k.Code), Mod: mods}, "", true
	case tea.KeyExtended:
		return panes.Key{}, k.Text, k.Text != ""
	}
	if k.Code > utf8.MaxRune || k.Code < 0x20 {
		return panes.Key{}, "", false
	}
	if k.Text != "" && mods&^panes.ModShift == 0 {
		// A typed character: its text already says what Shift did.
		r, size := utf8.DecodeRuneInString(k.Text)
		if size == len(k.Text) {
			return panes.Key{Code: panes.Code(r)}, "", true
		}
		return panes.Key{}, k.Text, true
	}
	code := k.Code
	if k.ShiftedCode != 0 && mods&panes.ModShift != 0 && mods&panes.ModCtrl == 0 {
		code, mods = k.ShiftedCode, mods&^panes.ModShift
	}
	return panes.Key{Code: panes.Code(code), Mod: mods}, "", true
}

// keystrokeNames are bubbletea's names of the named keys.
var keystrokeNames = map[panes.Code]string{
	panes.KeyEnter: "enter", panes.KeyTab: "tab", panes.KeyBackspace: "backspace",
	panes.KeyEscape: "esc", panes.KeySpace: "space",
	panes.KeyUp: "up", panes.KeyDown: "down", panes.KeyLeft: "left", panes.KeyRight: "right",
	panes.KeyHome: "home", panes.KeyEnd: "end", panes.KeyPageUp: "pgup", panes.KeyPageDown: "pgdown",
	panes.KeyInsert: "insert", panes.KeyDelete: "delete",
}

// keystroke returns the string a key.Binding matches for k: the character
// itself for a typed character (with Shift folded in, "H"), else
// bubbletea's keystroke form ("ctrl+space", "shift+left", "alt+x").
func keystroke(k panes.Key) string {
	name, named := keystrokeNames[k.Code]
	if !named && k.Code >= panes.KeyF1 && k.Code <= panes.KeyF12 {
		name, named = "f"+strconv.Itoa(int(k.Code-panes.KeyF1)+1), true
	}
	if !named {
		r := rune(k.Code)
		if k.Mod&(panes.ModCtrl|panes.ModAlt|panes.ModSuper) == 0 {
			if k.Mod&panes.ModShift != 0 {
				r = []rune(strings.ToUpper(string(r)))[0]
			}
			return string(r)
		}
		name = string(r)
	}
	var b strings.Builder
	for _, m := range []struct {
		bit  panes.Mod
		name string
	}{{panes.ModCtrl, "ctrl+"}, {panes.ModAlt, "alt+"}, {panes.ModShift, "shift+"}, {panes.ModSuper, "super+"}} {
		if k.Mod&m.bit != 0 {
			b.WriteString(m.name)
		}
	}
	b.WriteString(name)
	return b.String()
}
