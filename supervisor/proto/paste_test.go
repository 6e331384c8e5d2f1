package proto

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"clowder/panes"
	"clowder/vtgrid"
)

func TestSplitPasteReassemblesToOneBracketedPaste(t *testing.T) {
	text := strings.Repeat("ab\r\né世\n", 50) + "\xff\xfe"
	for size := 1; size <= 40; size++ {
		parts, err := SplitPaste(PasteReq{Pane: "p1", Text: text, Submit: true}, size)
		if err != nil {
			t.Fatal(err)
		}
		var got []byte
		for i, p := range parts {
			if len(p.Data) > size && size >= utf8.UTFMax {
				t.Fatalf("size %d: part %d has %d bytes", size, i, len(p.Data))
			}
			if p.Submit != (i == len(parts)-1) || (len(parts) > 1 && p.Part == "") {
				t.Fatalf("size %d: part %d is %q submit %v", size, i, p.Part, p.Submit)
			}
			opts, err := p.PasteOptions()
			if err != nil {
				t.Fatal(err)
			}
			b, err := panes.Paste(p.PasteText(), vtgrid.Modes{BracketedPaste: true}, opts)
			if err != nil {
				t.Fatalf("size %d: part %d: %v", size, i, err)
			}
			got = append(got, b...)
		}
		want, _ := panes.Paste(text, vtgrid.Modes{BracketedPaste: true}, panes.PasteOptions{})
		if !bytes.Equal(got, want) {
			t.Fatalf("size %d: the parts paste %q, want %q", size, got, want)
		}
	}
}

func TestSplitPasteRefusesABadByteBeforeAnyPart(t *testing.T) {
	text := strings.Repeat("x", 100) + "\x03"
	parts, err := SplitPaste(PasteReq{Pane: "p1", Text: text}, 10)
	var cc *panes.ControlCharError
	if !errors.As(err, &cc) || cc.Offset != 100 || parts != nil {
		t.Errorf("SplitPaste = %d parts, %v; want no part and the control character at byte 100", len(parts), err)
	}
}

func TestSplitInputKeepsOrderAndKeysLast(t *testing.T) {
	parts := SplitInput(InputReq{Pane: "p", Data: []byte("abcdefg"), Keys: []string{"Enter"}}, 3)
	var data []byte
	for i, p := range parts {
		data = append(data, p.Data...)
		if (len(p.Keys) > 0) != (i == len(parts)-1) {
			t.Errorf("part %d keys %v", i, p.Keys)
		}
	}
	if string(data) != "abcdefg" || len(parts) != 3 {
		t.Errorf("%d parts, data %q", len(parts), data)
	}
}

func TestHostRefusesAnUnknownPastePart(t *testing.T) {
	if _, err := (&PasteReq{Part: "second"}).PasteOptions(); err == nil || !strings.Contains(err.Error(), `"second"`) {
		t.Errorf("PasteOptions of part second = %v", err)
	}
}
