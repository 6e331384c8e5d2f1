package panes

// This file is key names: the Key value (a code plus modifiers) and the
// tmux send-keys syntax that names one ("Enter", "C-c", "C-M-Left", "x").
// It knows nothing about terminal modes; encode.go turns a Key into bytes.

import (
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Code identifies a key. A printable key is its Unicode code point (the
// character it types, 'a' or 'A' or 'é'); Enter, Tab, Backspace, Escape and
// Space are their C0/ASCII values; every other key is its number in the
// kitty keyboard protocol's Private Use Area table, so the kitty encoder
// needs no second table.
type Code rune

// Named key codes.
const (
	KeyTab       Code = 9
	KeyEnter     Code = 13
	KeyEscape    Code = 27
	KeySpace     Code = ' '
	KeyBackspace Code = 127

	KeyInsert   Code = 57348
	KeyDelete   Code = 57349
	KeyLeft     Code = 57350
	KeyRight    Code = 57351
	KeyUp       Code = 57352
	KeyDown     Code = 57353
	KeyPageUp   Code = 57354
	KeyPageDown Code = 57355
	KeyHome     Code = 57356
	KeyEnd      Code = 57357

	KeyF1  Code = 57364 // F2..F12 follow in order
	KeyF12 Code = 57375

	KeyKP0        Code = 57399 // KP1..KP9 follow in order
	KeyKP9        Code = 57408
	KeyKPDecimal  Code = 57409
	KeyKPDivide   Code = 57410
	KeyKPMultiply Code = 57411
	KeyKPSubtract Code = 57412
	KeyKPAdd      Code = 57413
	KeyKPEnter    Code = 57414
	KeyKPEqual    Code = 57415
)

// Mod is a set of modifiers. The bit values are those of xterm's and
// kitty's modifier parameter (which sends 1 + Mod).
type Mod uint8

// Modifiers.
const (
	ModShift Mod = 1 << iota // S-
	ModAlt                   // M- (Meta and Alt are one modifier for terminals)
	ModCtrl                  // C-
	ModSuper                 // no tmux name; reachable only from the TUI
)

// String returns the tmux prefix form, e.g. "C-M-" for Ctrl+Alt.
func (m Mod) String() string {
	var b strings.Builder
	if m&ModCtrl != 0 {
		b.WriteString("C-")
	}
	if m&ModAlt != 0 {
		b.WriteString("M-")
	}
	if m&ModShift != 0 {
		b.WriteString("S-")
	}
	if m&ModSuper != 0 {
		b.WriteString("Super-")
	}
	return b.String()
}

// Key is one key press: a key and the modifiers held with it.
type Key struct {
	Code Code
	Mod  Mod
}

// String returns the key in tmux syntax ("C-M-Left", "BTab", "x"), which
// ParseKey reads back to the same Key.
func (k Key) String() string {
	if k.Code == KeyTab && k.Mod == ModShift {
		return "BTab"
	}
	return k.Mod.String() + codeName(k.Code)
}

// keyName is one row of the key-name table: a code and its spellings,
// canonical first.
type keyName struct {
	code  Code
	names []string
}

// keyNames is the table of tmux key names, built on first use: most
// processes (an ls, a capture) never name a key.
var keyNames = sync.OnceValue(buildKeyNames)

// namedKeys maps each accepted spelling, lower-cased, to its code.
var namedKeys = sync.OnceValue(func() map[string]Code {
	m := make(map[string]Code)
	for _, n := range keyNames() {
		for _, s := range n.names {
			m[strings.ToLower(s)] = n.code
		}
	}
	return m
})

func buildKeyNames() []keyName {
	t := []keyName{
		{KeyEnter, []string{"Enter"}}, {KeyEscape, []string{"Escape", "Esc"}},
		{KeyTab, []string{"Tab"}}, {KeySpace, []string{"Space"}},
		{KeyBackspace, []string{"BSpace"}},
		{KeyUp, []string{"Up"}}, {KeyDown, []string{"Down"}},
		{KeyLeft, []string{"Left"}}, {KeyRight, []string{"Right"}},
		{KeyHome, []string{"Home"}}, {KeyEnd, []string{"End"}},
		{KeyPageUp, []string{"PageUp", "PgUp", "PPage"}},
		{KeyPageDown, []string{"PageDown", "PgDn", "NPage"}},
		{KeyInsert, []string{"Insert", "IC"}}, {KeyDelete, []string{"Delete", "DC"}},
		{KeyKPDecimal, []string{"KP."}}, {KeyKPDivide, []string{"KP/"}},
		{KeyKPMultiply, []string{"KP*"}}, {KeyKPSubtract, []string{"KP-"}},
		{KeyKPAdd, []string{"KP+"}}, {KeyKPEnter, []string{"KPEnter"}},
		{KeyKPEqual, []string{"KP="}},
	}
	for i := Code(0); i < 12; i++ {
		t = append(t, keyName{KeyF1 + i, []string{fmt.Sprintf("F%d", i+1)}})
	}
	for i := Code(0); i < 10; i++ {
		t = append(t, keyName{KeyKP0 + i, []string{fmt.Sprintf("KP%d", i)}})
	}
	return t
}

// codeName is the canonical name of a code, or the character itself.
func codeName(c Code) string {
	for _, n := range keyNames() {
		if n.code == c {
			return n.names[0]
		}
	}
	return string(rune(c))
}

// KeyNameHelp describes the accepted key names; errors and the CLI's help
// quote it.
const KeyNameHelp = "a key name (Enter, Escape/Esc, Tab, BTab, Space, BSpace, Up, Down, Left, Right, " +
	"Home, End, PageUp/PgUp/PPage, PageDown/PgDn/NPage, Insert/IC, Delete/DC, F1-F12, " +
	"KP0-KP9, KP/ KP* KP- KP+ KP. KP= KPEnter) or a single character, " +
	"optionally after modifiers C- (Ctrl), M- (Meta/Alt), S- (Shift) or ^ (Ctrl), " +
	"e.g. C-c, M-x, C-M-Left, S-Enter"

// ParseKey reads one key in tmux send-keys syntax. Names are matched
// without regard to case ("enter" is Enter); a single character stands for
// itself; "C-C" means Ctrl+c, as in tmux. An unknown name is an error that
// lists the valid forms and points at -l for literal text.
func ParseKey(s string) (Key, error) {
	mods, rest := splitModifiers(s)
	if rest == "" {
		return Key{}, unknownKey(s)
	}
	if strings.EqualFold(rest, "BTab") {
		return Key{Code: KeyTab, Mod: mods | ModShift}, nil
	}
	code, ok := namedKeys()[strings.ToLower(rest)]
	if !ok {
		r, size := utf8.DecodeRuneInString(rest)
		if size != len(rest) || r == utf8.RuneError || unicode.IsControl(r) {
			return Key{}, unknownKey(s)
		}
		code = Code(r)
	}
	return normalize(Key{Code: code, Mod: mods}), nil
}

// ParseKeys parses each argument of send-keys. The error names the first
// argument that is not a key.
func ParseKeys(args []string) ([]Key, error) {
	keys := make([]Key, 0, len(args))
	for _, a := range args {
		k, err := ParseKey(a)
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	return keys, nil
}

// splitModifiers strips leading "C-", "M-", "S-" (any case) and "^"
// prefixes. A prefix is taken only when something follows it, so "-",
// "C-" and "^" alone are characters or errors, not modifiers.
func splitModifiers(s string) (Mod, string) {
	var m Mod
	for {
		switch {
		case len(s) > 2 && s[1] == '-' && modPrefix(s[0]) != 0:
			m |= modPrefix(s[0])
			s = s[2:]
		case len(s) > 1 && s[0] == '^':
			m |= ModCtrl
			s = s[1:]
		default:
			return m, s
		}
	}
}

// modPrefix is the modifier a tmux prefix letter names, or 0.
func modPrefix(b byte) Mod {
	switch b | 0x20 {
	case 'c':
		return ModCtrl
	case 'm':
		return ModAlt
	case 's':
		return ModShift
	}
	return 0
}

// normalize makes equal presses equal values: Ctrl with an ASCII capital
// means Ctrl with the lower-case letter, as in tmux ("C-C" is Ctrl+c, not
// Ctrl+Shift+c), which is what people who write "C-C" mean.
func normalize(k Key) Key {
	if k.Mod&ModCtrl != 0 && k.Code >= 'A' && k.Code <= 'Z' {
		k.Code += 'a' - 'A'
	}
	return k
}

func unknownKey(s string) error {
	return fmt.Errorf("unknown key %q: want %s; to send text as typed, use -l", s, KeyNameHelp)
}

// isText reports whether c is a key that types a character (including
// Space), as opposed to a functional key.
func (c Code) isText() bool {
	return c == KeySpace || (c > 32 && c != KeyBackspace && !c.isPrivate())
}

// isPrivate reports whether c is a functional key from the PUA table.
func (c Code) isPrivate() bool { return c >= 57344 && c <= 63743 }

// isKeypad reports whether c is a keypad key.
func (c Code) isKeypad() bool { return c >= KeyKP0 && c <= KeyKPEqual }
