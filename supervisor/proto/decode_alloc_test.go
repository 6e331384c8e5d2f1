package proto

import (
	"runtime"
	"strconv"
	"testing"
)

// floodFrame is a frame as a flood sends it: every row a short line of
// text padded with blanks to the width (what the host's frames carry).
func floodFrame(cols, rows int) *ScreenFrame {
	f := &ScreenFrame{Pane: "p1", Cols: uint16(cols), Rows: uint16(rows)}
	for y := range rows {
		cells := make([]FrameCell, cols)
		for x := range cells {
			cells[x] = FrameCell{Width: 1}
		}
		for x, ch := range strconv.Itoa(100000 + y) {
			cells[x].Text = string(ch)
		}
		f.Lines = append(f.Lines, FrameRow{Y: uint16(y), Cells: cells})
	}
	return f
}

func encodeBody(t testing.TB, m Message) []byte {
	t.Helper()
	body, err := EncodeMessage(m)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// TestDecodeFrameAllocatesOncePerRow pins issue 12: decodeRow grew each
// row's cells by append, run after run (23% of the TUI's CPU in a flood,
// in growslice); a row's cells are now allocated once.
func TestDecodeFrameAllocatesOncePerRow(t *testing.T) {
	body := encodeBody(t, floodFrame(80, 24))
	allocs := testing.AllocsPerRun(20, func() {
		var f ScreenFrame
		if err := f.decodeBody(body); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 24+4 {
		t.Fatalf("decoding an 80x24 frame allocates %v times; want about one per row", allocs)
	}
}

// TestDecodedRowsEndAtTheirLastNonBlank pins issue 12: a row's trailing
// default blanks, most of an echo's row and of a flood's, were expanded
// into cells (40 bytes each) that the TUI copied into its grid and threw
// away; in a young TUI that was fresh memory, 2-3 page faults an echo. A
// decoded row now ends at its last cell that is not a default blank (the
// reader pads: docs/protocol.md), however the blanks were split into runs.
func TestDecodedRowsEndAtTheirLastNonBlank(t *testing.T) {
	prompt := textCells("$ make test", FrameCell{Width: 1})
	for len(prompt) < 200 {
		prompt = append(prompt, FrameCell{Width: 1})
	}
	echo := &ScreenFrame{Pane: "p1", Cols: 200, Rows: 50, Lines: []FrameRow{
		{Y: 3, Cells: prompt},
		{Y: 4, Cells: []FrameCell{{Text: "x", Width: 1}, {Width: 1, Bg: IndexColor(1)}, {Width: 1}, {Width: 1}}},
		{Y: 5, Cells: []FrameCell{{Width: 1}, {Width: 1}}},
	}}
	body := encodeBody(t, echo)
	var got ScreenFrame
	if err := got.decodeBody(body); err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{11, 2, 0} {
		if n := len(got.Lines[i].Cells); n != want {
			t.Errorf("row %d decoded to %d cells, want %d (its cells up to the last that is not a default blank)", got.Lines[i].Y, n, want)
		}
	}
	if got.Lines[2].Cells != nil {
		t.Errorf("a blank row decoded to %#v, want no cells", got.Lines[2].Cells)
	}
	flood := encodeBody(t, floodFrame(200, 50))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var again ScreenFrame
	err := again.decodeBody(flood)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	// 50 rows of 6 characters are 12 KiB of cells; padded, they were 400.
	if n := after.TotalAlloc - before.TotalAlloc; n > 32<<10 {
		t.Fatalf("decoding a 200x50 flood frame of 6-character rows allocated %d bytes", n)
	}
}

// TestDecodeTinyFrameClaimingHugeRowsAllocatesLittle: preallocation is
// bounded by the bytes the frame has, not by the size it claims, so a
// small hostile frame cannot make the decoder allocate much.
func TestDecodeTinyFrameClaimingHugeRowsAllocatesLittle(t *testing.T) {
	f := &ScreenFrame{Pane: "p1", Cols: MaxScreenDim, Rows: MaxScreenCells / MaxScreenDim}
	for y := range 20 {
		f.Lines = append(f.Lines, FrameRow{Y: uint16(y), Cells: []FrameCell{{Width: 1}}})
	}
	body := encodeBody(t, f)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var got ScreenFrame
	err := got.decodeBody(body)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
		t.Fatalf("decoding a %d-byte frame of %d one-cell rows allocated %d bytes", len(body), len(f.Lines), n)
	}
}

// BenchmarkDecodeFloodFrame decodes a full 80x24 frame of a flood.
func BenchmarkDecodeFloodFrame(b *testing.B) {
	body := encodeBody(b, floodFrame(80, 24))
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var f ScreenFrame
		if err := f.decodeBody(body); err != nil {
			b.Fatal(err)
		}
	}
}
