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
