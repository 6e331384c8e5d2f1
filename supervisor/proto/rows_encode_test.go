package proto

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// appendRowTwoPass is appendRow as it was before issue 12's single pass:
// every cell checked, the runs counted, then found again and written. The
// encoding must not change: this is its reference.
func appendRowTwoPass(dst []byte, row *FrameRow) ([]byte, error) {
	var flags byte
	if row.Wrapped {
		flags |= rowWrapped
	}
	for i := range row.Cells {
		if err := checkCell(&row.Cells[i]); err != nil {
			return dst, fmt.Errorf("row %d cell %d: %w", row.Y, i, err)
		}
	}
	runs := 0
	for i := 0; i < len(row.Cells); runs++ {
		_, i = nextRun(row.Cells, i)
	}
	dst = appendUvarint(append(dst, flags), uint64(runs))
	for i := 0; i < len(row.Cells); {
		var kind int
		start := i
		kind, i = nextRun(row.Cells, i)
		dst = appendRun(dst, kind, row.Cells[start:i])
	}
	return dst, nil
}

// rowCellKinds are the cells random rows are made of: every run kind,
// styles that split runs, and cells the encoder refuses.
var rowCellKinds = []FrameCell{
	{Width: 1},            // blank
	{Text: "a", Width: 1}, // ASCII
	{Text: "z", Width: 1, Fg: IndexColor(2)},
	{Text: "é", Width: 1},       // one multi-byte rune
	{Text: "\xff", Width: 1},    // not UTF-8: a cluster cell
	{Text: "e\u0301", Width: 1}, // a cluster
	{Text: "界", Width: 2},       // wide, before its continuation below
	{Width: 0},                  // continuation
	{Text: "b", Width: 1, Bg: RGBColor(1, 2, 3), Attrs: AttrBold, Link: 7},
	{Width: 1, Bg: IndexColor(4)},      // a styled blank
	{Text: "x", Width: 3},              // invalid: width
	{Text: "y", Width: 0},              // invalid: continuation with text
	{Text: "c", Width: 1, UL: 1 << 30}, // invalid: colour
}

// randomRow is a row of n cells drawn from rowCellKinds; bad says whether
// it may hold cells the encoder refuses.
func randomRow(r *rand.Rand, n int, bad bool) FrameRow {
	row := FrameRow{Y: uint16(r.IntN(50)), Wrapped: r.IntN(2) == 0}
	kinds := len(rowCellKinds) - 3
	if bad {
		kinds = len(rowCellKinds)
	}
	for len(row.Cells) < n {
		c := rowCellKinds[r.IntN(kinds)]
		for k := r.IntN(8) + 1; k > 0 && len(row.Cells) < n; k-- { // runs of one kind
			row.Cells = append(row.Cells, c)
		}
	}
	return row
}

// TestAppendRowEncodesAsTheTwoPassEncoder: the single pass writes the same
// bytes and refuses the same cell with the same error.
func TestAppendRowEncodesAsTheTwoPassEncoder(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 18))
	for i := 0; i < 5000; i++ {
		row := randomRow(r, r.IntN(300), i%4 == 0)
		prefix := []byte{0xAA}
		want, wantErr := appendRowTwoPass(bytes.Clone(prefix), &row)
		got, gotErr := appendRow(bytes.Clone(prefix), &row)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("row %+v: error %v, want %v", row, gotErr, wantErr)
		}
		if wantErr == nil && !bytes.Equal(got, want) {
			t.Fatalf("row %+v:\n got %x\nwant %x", row, got, want)
		}
	}
}

// FuzzAppendRowEncodesAsTheTwoPassEncoder is the same over rows the
// fuzzer builds: each byte picks a cell.
func FuzzAppendRowEncodesAsTheTwoPassEncoder(f *testing.F) {
	f.Add([]byte{1, 1, 0, 0, 6, 7, 3, 4})
	f.Fuzz(func(t *testing.T, b []byte) {
		row := FrameRow{Y: 3}
		for _, k := range b {
			row.Cells = append(row.Cells, rowCellKinds[int(k)%len(rowCellKinds)])
		}
		want, wantErr := appendRowTwoPass(nil, &row)
		got, gotErr := appendRow(nil, &row)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || (wantErr == nil && !bytes.Equal(got, want)) {
			t.Fatalf("got %x, %v; want %x, %v", got, gotErr, want, wantErr)
		}
	})
}

// echoRow is an echo's row at 200 columns: a coloured prompt, typed
// text, blanks to the edge.
func echoRow() FrameRow {
	row := FrameRow{Y: 10, Cells: make([]FrameCell, 200)}
	for i := range row.Cells {
		switch {
		case i < 12:
			row.Cells[i] = FrameCell{Text: string(rune('a' + i)), Width: 1, Fg: IndexColor(2), Attrs: AttrBold}
		case i < 60:
			row.Cells[i] = FrameCell{Text: string(rune('a' + i%26)), Width: 1}
		default:
			row.Cells[i] = FrameCell{Width: 1}
		}
	}
	return row
}

// BenchmarkAppendRow is the encoding of an echo's row, by the encoder and
// by its two-pass reference.
func BenchmarkAppendRow(b *testing.B) {
	row := echoRow()
	buf := make([]byte, 0, 1024)
	for _, enc := range []struct {
		name string
		fn   func([]byte, *FrameRow) ([]byte, error)
	}{{"single-pass", appendRow}, {"two-pass", appendRowTwoPass}} {
		b.Run(enc.name, func(b *testing.B) {
			for b.Loop() {
				_, _ = enc.fn(buf[:0], &row)
			}
		})
	}
}
