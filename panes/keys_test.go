package panes

import (
	"strings"
	"testing"
)

func TestParseKeyAcceptsTmuxNames(t *testing.T) {
	tests := []struct {
		in   string
		want Key
	}{
		{"Enter", Key{Code: KeyEnter}},
		{"enter", Key{Code: KeyEnter}},
		{"Escape", Key{Code: KeyEscape}},
		{"Esc", Key{Code: KeyEscape}},
		{"Tab", Key{Code: KeyTab}},
		{"BTab", Key{Code: KeyTab, Mod: ModShift}},
		{"S-Tab", Key{Code: KeyTab, Mod: ModShift}},
		{"Space", Key{Code: KeySpace}},
		{"BSpace", Key{Code: KeyBackspace}},
		{"Up", Key{Code: KeyUp}},
		{"Down", Key{Code: KeyDown}},
		{"Left", Key{Code: KeyLeft}},
		{"Right", Key{Code: KeyRight}},
		{"Home", Key{Code: KeyHome}},
		{"End", Key{Code: KeyEnd}},
		{"PageUp", Key{Code: KeyPageUp}},
		{"PgUp", Key{Code: KeyPageUp}},
		{"PPage", Key{Code: KeyPageUp}},
		{"PageDown", Key{Code: KeyPageDown}},
		{"PgDn", Key{Code: KeyPageDown}},
		{"NPage", Key{Code: KeyPageDown}},
		{"Insert", Key{Code: KeyInsert}},
		{"IC", Key{Code: KeyInsert}},
		{"Delete", Key{Code: KeyDelete}},
		{"DC", Key{Code: KeyDelete}},
		{"F1", Key{Code: KeyF1}},
		{"F12", Key{Code: KeyF12}},
		{"KP0", Key{Code: KeyKP0}},
		{"KP9", Key{Code: KeyKP9}},
		{"KP/", Key{Code: KeyKPDivide}},
		{"KP*", Key{Code: KeyKPMultiply}},
		{"KP-", Key{Code: KeyKPSubtract}},
		{"KP+", Key{Code: KeyKPAdd}},
		{"KP.", Key{Code: KeyKPDecimal}},
		{"KPEnter", Key{Code: KeyKPEnter}},
		{"C-c", Key{Code: 'c', Mod: ModCtrl}},
		{"C-C means Ctrl+c as in tmux", Key{Code: 'c', Mod: ModCtrl}},
		{"^c", Key{Code: 'c', Mod: ModCtrl}},
		{"M-x", Key{Code: 'x', Mod: ModAlt}},
		{"m-x", Key{Code: 'x', Mod: ModAlt}},
		{"S-x", Key{Code: 'x', Mod: ModShift}},
		{"C-M-Left", Key{Code: KeyLeft, Mod: ModCtrl | ModAlt}},
		{"M-C-Left", Key{Code: KeyLeft, Mod: ModCtrl | ModAlt}},
		{"S-Enter", Key{Code: KeyEnter, Mod: ModShift}},
		{"C-Enter", Key{Code: KeyEnter, Mod: ModCtrl}},
		{"C-Space", Key{Code: KeySpace, Mod: ModCtrl}},
		{"C-S-F5", Key{Code: KeyF1 + 4, Mod: ModCtrl | ModShift}},
		{"C--", Key{Code: '-', Mod: ModCtrl}},
		{"x", Key{Code: 'x'}},
		{"X", Key{Code: 'X'}},
		{"-", Key{Code: '-'}},
		{"^", Key{Code: '^'}},
		{"é", Key{Code: 'é'}},
		{"M-é", Key{Code: 'é', Mod: ModAlt}},
	}
	for _, tt := range tests {
		in, _, _ := strings.Cut(tt.in, " ")
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseKey(in)
			if err != nil {
				t.Fatalf("ParseKey(%q): %v", in, err)
			}
			if got != tt.want {
				t.Errorf("ParseKey(%q) = %+v, want %+v", in, got, tt.want)
			}
		})
	}
}

func TestParseKeyRejectsUnknownNamesListingValidForms(t *testing.T) {
	for _, in := range []string{"Entr", "hello", "C-", "C-Foo", "F13", "", "\x01", "M-"} {
		t.Run(in, func(t *testing.T) {
			_, err := ParseKey(in)
			if err == nil {
				t.Fatalf("ParseKey(%q) succeeded; want an error", in)
			}
			for _, want := range []string{"Enter", "C-c", "-l"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not mention %q", err, want)
				}
			}
		})
	}
}

func TestKeyStringRoundTrips(t *testing.T) {
	for _, in := range []string{"Enter", "BTab", "C-M-Left", "S-Enter", "C-c", "M-x", "F7", "KP5", "KPEnter", "PageUp", "C-Space", "x", "é"} {
		t.Run(in, func(t *testing.T) {
			k, err := ParseKey(in)
			if err != nil {
				t.Fatal(err)
			}
			if k.String() != in {
				t.Errorf("ParseKey(%q).String() = %q", in, k.String())
			}
			back, err := ParseKey(k.String())
			if err != nil || back != k {
				t.Errorf("round trip of %q gave %+v, %v", in, back, err)
			}
		})
	}
}

func TestParseKeysNamesTheBadArgument(t *testing.T) {
	keys, err := ParseKeys([]string{"C-c", "Enter"})
	if err != nil || len(keys) != 2 {
		t.Fatalf("ParseKeys = %v, %v", keys, err)
	}
	_, err = ParseKeys([]string{"Enter", "Retrun"})
	if err == nil || !strings.Contains(err.Error(), `"Retrun"`) {
		t.Errorf("error %v does not name the bad argument", err)
	}
}
