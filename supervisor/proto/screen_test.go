package proto

import (
	"reflect"
	"strings"
	"testing"
)

// roundTrip encodes m, decodes it and returns the decoded message.
func roundTrip(t *testing.T, m Message) Message {
	t.Helper()
	body, err := EncodeMessage(m)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeMessage(m.MsgType(), body)
	if err != nil {
		t.Fatalf("decode % x: %v", body, err)
	}
	return got
}

func TestFrameCellsRoundTrip(t *testing.T) {
	style := FrameCell{Width: 1, Fg: RGBColor(1, 2, 3), Bg: IndexColor(4), Attrs: AttrReverse | AttrStrike}
	tests := []struct {
		name  string
		cells []FrameCell
	}{
		{"ascii", textCells("hello, world", FrameCell{Width: 1})},
		{"styled ascii", textCells("error", style)},
		{"blanks", []FrameCell{{Width: 1}, {Width: 1}, {Width: 1, Bg: IndexColor(2)}}},
		{"wide run", []FrameCell{{Text: "日", Width: 2}, {}, {Text: "本", Width: 2}, {}}},
		{"wide cut by the edge", []FrameCell{{Text: "a", Width: 1}, {Text: "日", Width: 2}}},
		{"lone continuation", []FrameCell{{}, {Text: "x", Width: 1}}},
		{"emoji zwj", []FrameCell{{Text: "👩\u200d💻", Width: 2}, {}}},
		{"combining", []FrameCell{{Text: "e\u0301", Width: 1}, {Text: "a", Width: 1}}},
		{"invalid utf8 text", []FrameCell{{Text: "\xff", Width: 1}}},
		{"hyperlink and underline colour", []FrameCell{{Text: "u", Width: 1, UL: RGBColor(9, 9, 9), Link: 1 << 30,
			Attrs: FrameAttr(0).WithUnderline(UnderlineDashed) | AttrDim}}},
		{"reserved attr bits kept", []FrameCell{{Text: "r", Width: 1, Attrs: 1 << 15}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := &ScreenFrame{Pane: "p1", Cols: 20, Rows: 2, Lines: []FrameRow{{Y: 1, Cells: tc.cells}}}
			if got := roundTrip(t, in); !reflect.DeepEqual(got, in) {
				t.Fatalf("got %+v\nwant %+v", got.(*ScreenFrame).Lines, in.Lines)
			}
		})
	}
}

// TestFrameASCIIRowCostsAboutItsText pins the compactness the design asks
// for: a plain row is its text plus a few bytes.
func TestFrameASCIIRowCostsAboutItsText(t *testing.T) {
	text := "go test ./... && git commit -m 'wip'"
	cells := append(textCells(text, FrameCell{Width: 1}), make([]FrameCell, 44)...)
	for i := len(text); i < len(cells); i++ {
		cells[i].Width = 1
	}
	row := FrameRow{Cells: cells}
	b, err := appendRow(nil, &row)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > len(text)+6 {
		t.Fatalf("row of %d text bytes encodes to %d bytes: % x", len(text), len(b), b)
	}
}

func TestFrameEncodeRejectsInvalid(t *testing.T) {
	ok := func() *ScreenFrame {
		return &ScreenFrame{Pane: "p1", Cols: 4, Rows: 2, Lines: []FrameRow{{Y: 0, Cells: textCells("ab", FrameCell{Width: 1})}}}
	}
	tests := []struct {
		name   string
		mutate func(s *ScreenFrame)
		want   string
	}{
		{"zero size", func(s *ScreenFrame) { s.Cols = 0 }, "outside"},
		{"too many cells", func(s *ScreenFrame) { s.Cols, s.Rows = MaxScreenDim, MaxScreenDim }, "exceeds"},
		{"cursor off screen", func(s *ScreenFrame) { s.Cursor.Y = 2 }, "cursor"},
		{"row too wide", func(s *ScreenFrame) { s.Lines[0].Cells = textCells("abcde", FrameCell{Width: 1}) }, "cells"},
		{"rows out of order", func(s *ScreenFrame) { s.Lines = []FrameRow{{Y: 1}, {Y: 0}} }, "increase"},
		{"full but partial", func(s *ScreenFrame) { s.Full = true }, "full frame"},
		{"continuation with text", func(s *ScreenFrame) { s.Lines[0].Cells[0].Width = 0 }, "continuation"},
		{"width 3", func(s *ScreenFrame) { s.Lines[0].Cells[0].Width = 3 }, "width"},
		{"bad colour", func(s *ScreenFrame) { s.Lines[0].Cells[0].Fg = 3 << 24 }, "colour"},
		{"long pane id", func(s *ScreenFrame) { s.Pane = strings.Repeat("p", 256) }, "pane id"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := ok()
			tc.mutate(s)
			if _, err := EncodeMessage(s); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestFrameDecodeRejectsMalformed(t *testing.T) {
	good, err := EncodeMessage(sampleScreen())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		body []byte
	}{
		{"empty", nil},
		{"truncated", good[:len(good)-1]},
		{"trailing byte", append(append([]byte(nil), good...), 0)},
		{"reserved run bit", []byte("\x02p1" + "\x00\x00\x00\x00\x00\x00\x00\x00" + "\x04\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00" + "\x01\x00\x00\x01\x80\x01")},
		{"blank run past the width", []byte("\x02p1" + "\x00\x00\x00\x00\x00\x00\x00\x00" + "\x04\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00" + "\x01\x00\x00\x01\x00\x05")},
		{"invalid utf8 in text run", []byte("\x02p1" + "\x00\x00\x00\x00\x00\x00\x00\x00" + "\x04\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00" + "\x01\x00\x00\x01\x01\x01\xff")},
		{"overlong varint", []byte("\x02p1" + "\x00\x00\x00\x00\x00\x00\x00\x00" + "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if m, err := DecodeMessage(MsgScreen, tc.body); err == nil {
				t.Fatalf("decoded %+v, want an error", m)
			}
		})
	}
}

func TestFrameOutputChunkChecks(t *testing.T) {
	if _, err := EncodeMessage(OutputChunk{Pane: "p1", Seq: 5, Gap: 6}); err == nil {
		t.Fatal("gap reaching below seq 0 encoded")
	}
	in := &OutputChunk{Pane: "p1", Seq: 1 << 40, Gap: 1 << 20}
	if got := roundTrip(t, in); !reflect.DeepEqual(got, in) {
		t.Fatalf("got %+v want %+v", got, in)
	}
}

func TestFrameHistoryRowsChecks(t *testing.T) {
	h := sampleHistory()
	h.First = 179 // two lines from 179 run past End 180
	if _, err := EncodeMessage(h); err == nil {
		t.Fatal("page past the held range encoded")
	}
	h = sampleHistory()
	h.Lines[0].Y = 3
	if _, err := EncodeMessage(h); err == nil {
		t.Fatal("history row with a row index encoded")
	}
}

func TestFrameColorAndAttrAccessors(t *testing.T) {
	if i, ok := IndexColor(200).Index(); !ok || i != 200 {
		t.Fatalf("index: %d %v", i, ok)
	}
	if r, g, b, ok := RGBColor(1, 2, 3).RGB(); !ok || r != 1 || g != 2 || b != 3 {
		t.Fatalf("rgb: %d %d %d %v", r, g, b, ok)
	}
	if _, ok := ColorDefault.Index(); ok || !ColorDefault.Valid() || FrameColor(1<<24|1<<8).Valid() {
		t.Fatal("default or malformed colour misclassified")
	}
	a := (AttrBold | AttrBlink).WithUnderline(UnderlineDouble)
	if a.Underline() != UnderlineDouble || a&AttrBold == 0 || a.WithUnderline(0).Underline() != 0 {
		t.Fatalf("attrs %#x", a)
	}
}
