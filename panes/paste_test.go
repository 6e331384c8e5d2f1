package panes

import (
	"errors"
	"strings"
	"testing"
	"time"

	"clowder/vtgrid"
)

func TestPaste(t *testing.T) {
	bracketed := vtgrid.Modes{BracketedPaste: true}
	tests := []struct {
		name string
		text string
		m    vtgrid.Modes
		raw  bool
		want string
	}{
		{"plain when mode 2004 is off", "hello", legacy, false, "hello"},
		{"bracketed when mode 2004 is on", "hello", bracketed, false, "\x1b[200~hello\x1b[201~"},
		{"LF becomes CR", "a\nb", legacy, false, "a\rb"},
		{"CRLF becomes CR", "a\r\nb\n", bracketed, false, "\x1b[200~a\rb\r\x1b[201~"},
		{"tab kept", "a\tb", bracketed, false, "\x1b[200~a\tb\x1b[201~"},
		{"empty paste still bracketed", "", bracketed, false, "\x1b[200~\x1b[201~"},
		{"utf-8 kept", "héllo ✓", bracketed, false, "\x1b[200~héllo ✓\x1b[201~"},
		{"raw keeps controls and LF", "a\x03\nb", legacy, true, "a\x03\nb"},
		// Regression: a paste containing the end marker must not end the
		// paste early and have the rest run as typed keys.
		{"end marker inside is removed", "ok\x1b[201~rm -rf ~\r", bracketed, true, "\x1b[200~okrm -rf ~\r\x1b[201~"},
		{"start marker inside is removed", "a\x1b[200~b", bracketed, true, "\x1b[200~ab\x1b[201~"},
		{"marker split around another is removed", "a\x1b[20\x1b[201~1~b", bracketed, true, "\x1b[200~ab\x1b[201~"},
		{"end marker removed without brackets too", "a\x1b[201~b", legacy, true, "ab"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Paste(tt.text, tt.m, PasteOptions{Raw: tt.raw})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("Paste = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPasteRefusesControlCharactersUnlessRaw(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		char   rune
		offset int
	}{
		{"ESC", "ok\x1b[201~", 0x1b, 2},
		{"ctrl-c", "a\x03", 0x03, 1},
		{"NUL", "\x00", 0, 0},
		{"DEL", "ab\x7f", 0x7f, 2},
		{"C1 CSI", "x\u009b", 0x9b, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Paste(tt.text, vtgrid.Modes{BracketedPaste: true}, PasteOptions{})
			var cc *ControlCharError
			if !errors.As(err, &cc) {
				t.Fatalf("Paste(%q) error = %v, want *ControlCharError", tt.text, err)
			}
			if cc.Char != tt.char || cc.Offset != tt.offset {
				t.Errorf("got char %#x at %d, want %#x at %d", cc.Char, cc.Offset, tt.char, tt.offset)
			}
			if !strings.Contains(err.Error(), "--raw") {
				t.Errorf("error %q does not say how to send it anyway", err)
			}
		})
	}
}

func TestSubmitSplitsPasteAndEnter(t *testing.T) {
	ads := NewAdapters(nil, "")
	claude, _ := ads.Get("claude")
	claude.SubmitGap = 50 * time.Millisecond
	tests := []struct {
		name      string
		m         vtgrid.Modes
		a         *Adapter
		wantPaste string
		wantEnter string
		wantGap   time.Duration
	}{
		{"legacy", legacy, nil, "fix it", "\r", 0},
		{"bracketed with adapter gap", vtgrid.Modes{BracketedPaste: true}, &claude, "\x1b[200~fix it\x1b[201~", "\r", 50 * time.Millisecond},
		{"kitty report-all Enter", vtgrid.Modes{BracketedPaste: true, KittyKeyboard: KittyDisambiguate | KittyAllKeys}, nil,
			"\x1b[200~fix it\x1b[201~", "\x1b[13u", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Submit("fix it", tt.m, tt.a, PasteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if string(s.Paste) != tt.wantPaste || string(s.Enter) != tt.wantEnter || s.Gap != tt.wantGap {
				t.Errorf("Submit = %q + %q after %v, want %q + %q after %v", s.Paste, s.Enter, s.Gap, tt.wantPaste, tt.wantEnter, tt.wantGap)
			}
			if string(s.Bytes()) != tt.wantPaste+tt.wantEnter {
				t.Errorf("Bytes = %q", s.Bytes())
			}
		})
	}
	if _, err := Submit("a\x1bb", legacy, nil, PasteOptions{}); err == nil {
		t.Error("Submit accepted a control character")
	}
}

func TestPasteInPartsBracketsTheWholeOnce(t *testing.T) {
	bracketed := vtgrid.Modes{BracketedPaste: true}
	var got []byte
	for _, p := range []struct {
		text string
		o    PasteOptions
	}{{"ab", PasteOptions{NoEnd: true}}, {"c\xff", PasteOptions{NoStart: true, NoEnd: true}}, {"d\n", PasteOptions{NoStart: true}}} {
		b, err := Paste(p.text, bracketed, p.o)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, b...)
	}
	if want := "\x1b[200~abc\xffd\r\x1b[201~"; string(got) != want {
		t.Errorf("parts = %q, want %q", got, want)
	}
}
