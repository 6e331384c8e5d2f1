package panes

import (
	"fmt"
	"testing"

	"clowder/vtgrid"
)

// Mode combinations the tests use.
var (
	legacy       = vtgrid.Modes{}
	decckm       = vtgrid.Modes{AppCursor: true}
	deckpam      = vtgrid.Modes{AppKeypad: true}
	mok1         = vtgrid.Modes{ModifyOtherKeys: 1}
	mok2         = vtgrid.Modes{ModifyOtherKeys: 2}
	kitty1       = vtgrid.Modes{KittyKeyboard: KittyDisambiguate}
	kittyCC      = vtgrid.Modes{KittyKeyboard: KittyDisambiguate, ModifyOtherKeys: 2}  // what Claude Code pushes
	kittyCdx     = vtgrid.Modes{KittyKeyboard: KittyDisambiguate | KittyAlternateKeys} // what Codex pushes
	kittyAll     = vtgrid.Modes{KittyKeyboard: KittyDisambiguate | KittyAllKeys}
	kittyAllText = vtgrid.Modes{KittyKeyboard: KittyDisambiguate | KittyAllKeys | KittyAssociatedText}
	kittyCKM     = vtgrid.Modes{KittyKeyboard: KittyDisambiguate, AppCursor: true}
	kittyOnly    = vtgrid.Modes{KittyKeyboard: KittyEventTypes} // no 1 or 8: legacy applies
)

func TestEncode(t *testing.T) {
	tests := []struct {
		name string
		key  string
		m    vtgrid.Modes
		want string
	}{
		// Legacy text and C0.
		{"plain char", "a", legacy, "a"},
		{"utf-8 char", "é", legacy, "é"},
		{"C-c is ETX", "C-c", legacy, "\x03"},
		{"C-C is ETX too", "C-C", legacy, "\x03"},
		{"C-Space is NUL", "C-Space", legacy, "\x00"},
		{"C-@ is NUL", "C-@", legacy, "\x00"},
		{"C-[ is ESC", "C-[", legacy, "\x1b"},
		{"C-? is DEL", "C-?", legacy, "\x7f"},
		{"C-/ is US", "C-/", legacy, "\x1f"},
		{"C-1 has no C0 byte", "C-1", legacy, "1"},
		{"M-x is ESC x", "M-x", legacy, "\x1bx"},
		{"C-M-a is ESC SOH", "C-M-a", legacy, "\x1b\x01"},
		{"S-a is A", "S-a", legacy, "A"},
		{"Enter is CR", "Enter", legacy, "\r"},
		{"M-Enter is ESC CR", "M-Enter", legacy, "\x1b\r"},
		{"C-Enter is CR", "C-Enter", legacy, "\r"},
		{"S-Enter legacy is ESC CR", "S-Enter", legacy, "\x1b\r"},
		{"Escape", "Escape", legacy, "\x1b"},
		{"Tab", "Tab", legacy, "\t"},
		{"BTab is CSI Z", "BTab", legacy, "\x1b[Z"},
		{"BSpace is DEL", "BSpace", legacy, "\x7f"},
		{"C-BSpace is BS", "C-BSpace", legacy, "\x08"},
		{"M-BSpace is ESC DEL", "M-BSpace", legacy, "\x1b\x7f"},
		{"Space", "Space", legacy, " "},

		// Legacy functional keys, DECCKM and modifiers.
		{"Up", "Up", legacy, "\x1b[A"},
		{"Up under DECCKM is SS3 A", "Up", decckm, "\x1bOA"},
		{"Left under DECCKM", "Left", decckm, "\x1bOD"},
		{"Home", "Home", legacy, "\x1b[H"},
		{"Home under DECCKM", "Home", decckm, "\x1bOH"},
		{"End under DECCKM", "End", decckm, "\x1bOF"},
		{"C-Up", "C-Up", legacy, "\x1b[1;5A"},
		{"C-Up ignores DECCKM", "C-Up", decckm, "\x1b[1;5A"},
		{"C-M-Left", "C-M-Left", legacy, "\x1b[1;7D"},
		{"S-Right", "S-Right", legacy, "\x1b[1;2C"},
		{"Insert", "Insert", legacy, "\x1b[2~"},
		{"Delete", "DC", legacy, "\x1b[3~"},
		{"PageUp", "PgUp", legacy, "\x1b[5~"},
		{"PageDown", "PgDn", legacy, "\x1b[6~"},
		{"C-Delete", "C-Delete", legacy, "\x1b[3;5~"},
		{"F1 is SS3 P", "F1", legacy, "\x1bOP"},
		{"F4 is SS3 S", "F4", legacy, "\x1bOS"},
		{"F5", "F5", legacy, "\x1b[15~"},
		{"F6", "F6", legacy, "\x1b[17~"},
		{"F10", "F10", legacy, "\x1b[21~"},
		{"F11", "F11", legacy, "\x1b[23~"},
		{"F12", "F12", legacy, "\x1b[24~"},
		{"S-F1", "S-F1", legacy, "\x1b[1;2P"},
		{"C-F3", "C-F3", legacy, "\x1b[1;5R"},
		{"M-F5", "M-F5", legacy, "\x1b[15;3~"},
		{"C-S-F12", "C-S-F12", legacy, "\x1b[24;6~"},

		// Keypad.
		{"KP5 numeric", "KP5", legacy, "5"},
		{"KPEnter numeric", "KPEnter", legacy, "\r"},
		{"KP+ numeric", "KP+", legacy, "+"},
		{"KP0 under DECKPAM", "KP0", deckpam, "\x1bOp"},
		{"KP9 under DECKPAM", "KP9", deckpam, "\x1bOy"},
		{"KPEnter under DECKPAM", "KPEnter", deckpam, "\x1bOM"},
		{"KP/ under DECKPAM", "KP/", deckpam, "\x1bOo"},
		{"KP* under DECKPAM", "KP*", deckpam, "\x1bOj"},
		{"KP- under DECKPAM", "KP-", deckpam, "\x1bOm"},
		{"KP+ under DECKPAM", "KP+", deckpam, "\x1bOk"},
		{"KP. under DECKPAM", "KP.", deckpam, "\x1bOn"},

		// modifyOtherKeys.
		{"mok1 S-Enter", "S-Enter", mok1, "\x1b[27;2;13~"},
		{"mok2 S-Enter", "S-Enter", mok2, "\x1b[27;2;13~"},
		{"mok1 C-Enter", "C-Enter", mok1, "\x1b[27;5;13~"},
		{"mok1 C-c stays ETX", "C-c", mok1, "\x03"},
		{"mok2 C-c extended", "C-c", mok2, "\x1b[27;5;99~"},
		{"mok1 M-x stays ESC x", "M-x", mok1, "\x1bx"},
		{"mok2 M-x extended", "M-x", mok2, "\x1b[27;3;120~"},
		{"mok1 C-1 extended", "C-1", mok1, "\x1b[27;5;49~"},
		{"mok1 C-Space stays NUL", "C-Space", mok1, "\x00"},
		{"mok1 C-Tab", "C-Tab", mok1, "\x1b[27;5;9~"},
		{"mok2 BTab stays CSI Z", "BTab", mok2, "\x1b[Z"},
		{"mok2 plain char", "a", mok2, "a"},
		{"mok2 S-a is A", "S-a", mok2, "A"},
		{"mok2 Enter", "Enter", mok2, "\r"},
		{"mok2 C-Up keeps CSI form", "C-Up", mok2, "\x1b[1;5A"},
		{"mok2 Up with DECCKM", "Up", vtgrid.Modes{ModifyOtherKeys: 2, AppCursor: true}, "\x1bOA"},

		// Kitty disambiguate (1).
		{"kitty S-Enter", "S-Enter", kitty1, "\x1b[13;2u"},
		{"kitty S-Enter over mok (Claude Code)", "S-Enter", kittyCC, "\x1b[13;2u"},
		{"kitty S-Enter with alternates (Codex)", "S-Enter", kittyCdx, "\x1b[13;2u"},
		{"kitty C-Enter", "C-Enter", kitty1, "\x1b[13;5u"},
		{"kitty M-Enter", "M-Enter", kitty1, "\x1b[13;3u"},
		{"kitty Enter stays CR", "Enter", kitty1, "\r"},
		{"kitty Tab stays HT", "Tab", kitty1, "\t"},
		{"kitty BSpace stays DEL", "BSpace", kitty1, "\x7f"},
		{"kitty BTab", "BTab", kitty1, "\x1b[9;2u"},
		{"kitty C-BSpace", "C-BSpace", kitty1, "\x1b[127;5u"},
		{"kitty Escape", "Escape", kitty1, "\x1b[27u"},
		{"kitty M-Escape", "M-Escape", kitty1, "\x1b[27;3u"},
		{"kitty C-c", "C-c", kitty1, "\x1b[99;5u"},
		{"kitty M-x", "M-x", kitty1, "\x1b[120;3u"},
		{"kitty M-X is shift+alt+x", "M-X", kitty1, "\x1b[120;4u"},
		{"kitty M-X with alternates", "M-X", kittyCdx, "\x1b[120:88;4u"},
		{"kitty C-S-a", "C-S-a", kitty1, "\x1b[97;6u"},
		{"kitty C-Space", "C-Space", kitty1, "\x1b[32;5u"},
		{"kitty plain char", "a", kitty1, "a"},
		{"kitty S-a is text", "S-a", kitty1, "A"},
		{"kitty Space is text", "Space", kitty1, " "},
		{"kitty Up", "Up", kitty1, "\x1b[A"},
		{"kitty Up ignores DECCKM", "Up", kittyCKM, "\x1b[A"},
		{"kitty C-Up", "C-Up", kitty1, "\x1b[1;5A"},
		{"kitty F1", "F1", kitty1, "\x1b[P"},
		{"kitty F3 is CSI 13~", "F3", kitty1, "\x1b[13~"},
		{"kitty S-F3", "S-F3", kitty1, "\x1b[13;2~"},
		{"kitty F5", "F5", kitty1, "\x1b[15~"},
		{"kitty KP5", "KP5", kitty1, "\x1b[57404u"},
		{"kitty KPEnter", "KPEnter", kitty1, "\x1b[57414u"},

		// Kitty report all keys (8) and associated text (16).
		{"kitty-all a", "a", kittyAll, "\x1b[97u"},
		{"kitty-all A", "A", kittyAll, "\x1b[97;2u"},
		{"kitty-all Enter", "Enter", kittyAll, "\x1b[13u"},
		{"kitty-all Tab", "Tab", kittyAll, "\x1b[9u"},
		{"kitty-all BSpace", "BSpace", kittyAll, "\x1b[127u"},
		{"kitty-all Space", "Space", kittyAll, "\x1b[32u"},
		{"kitty-all Up", "Up", kittyAll, "\x1b[A"},
		{"kitty-text a", "a", kittyAllText, "\x1b[97;;97u"},
		{"kitty-text S-a", "S-a", kittyAllText, "\x1b[97;2;65u"},
		{"kitty-text C-a has no text", "C-a", kittyAllText, "\x1b[97;5u"},

		// Flags without 1 or 8 change nothing for presses.
		{"kitty event types only: C-c legacy", "C-c", kittyOnly, "\x03"},
		{"kitty event types only: S-Enter legacy", "S-Enter", kittyOnly, "\x1b\r"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, err := ParseKey(tt.key)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(Encode(k, tt.m)); got != tt.want {
				t.Errorf("Encode(%s) = %q, want %q", tt.key, got, tt.want)
			}
		})
	}
}

func TestEncodeWithAdapterShiftEnter(t *testing.T) {
	tests := []struct {
		adapter string
		m       vtgrid.Modes
		want    string
	}{
		{"claude", legacy, "\x1b\r"},
		{"codex", legacy, "\x1b\r"},
		{"shell", legacy, "\r"},
		{"shell", kitty1, "\x1b[13;2u"},
		{"shell", mok2, "\x1b[27;2;13~"},
	}
	ads := NewAdapters(nil, "/bin/bash")
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %+v", tt.adapter, tt.m), func(t *testing.T) {
			a, err := ads.Get(tt.adapter)
			if err != nil {
				t.Fatal(err)
			}
			got := EncodeWith(Key{Code: KeyEnter, Mod: ModShift}, tt.m, a.EncodeOptions())
			if string(got) != tt.want {
				t.Errorf("Shift+Enter for %s = %q, want %q", tt.adapter, got, tt.want)
			}
		})
	}
}

func TestEncodeEveryNamedKeyInEveryModeIsNonEmpty(t *testing.T) {
	modes := []vtgrid.Modes{legacy, decckm, deckpam, mok1, mok2, kitty1, kittyAll, kittyAllText}
	for _, n := range keyNames() {
		for _, mod := range []Mod{0, ModShift, ModAlt, ModCtrl, ModCtrl | ModAlt | ModShift} {
			for _, m := range modes {
				k := Key{Code: n.code, Mod: mod}
				if len(Encode(k, m)) == 0 {
					t.Errorf("Encode(%s, %+v) is empty", k, m)
				}
			}
		}
	}
}

func TestEncodeTextAndKeys(t *testing.T) {
	if got := string(EncodeText("hé\r", legacy)); got != "hé\r" {
		t.Errorf("legacy text = %q", got)
	}
	if got := string(EncodeText("aB\r\x03", kittyAll)); got != "\x1b[97u\x1b[98;2u\x1b[13u\x1b[99;5u" {
		t.Errorf("report-all text = %q", got)
	}
	keys, _ := ParseKeys([]string{"C-c", "Up", "Enter"})
	if got := string(EncodeKeys(keys, decckm, EncodeOptions{})); got != "\x03\x1bOA\r" {
		t.Errorf("EncodeKeys = %q", got)
	}
}
