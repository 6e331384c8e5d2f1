package host

import (
	"reflect"
	"runtime"
	"testing"
	"unsafe"

	"clowder/supervisor/proto"
	"clowder/vtgrid"
)

// TestFrameOfPlainTextMatchesTheGeneralConversion pins the plain-text fast
// path of frameCell and the frame's shared cell slab (issue 12) to the
// general conversion: every row of a frame is what frameCells makes of it.
func TestFrameOfPlainTextMatchesTheGeneralConversion(t *testing.T) {
	term := vtgrid.New(12, 4, vtgrid.Options{})
	term.Write([]byte("plain text\r\n世界 wide\r\n\x1b[31mred\x1b[0m \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\r\n\x1b[44m\x1b[K"))
	s := term.Snapshot()
	f := screenFrame("p1", 0, s, nil)
	if len(f.Lines) != 4 {
		t.Fatalf("a full frame of 4 rows has %d", len(f.Lines))
	}
	for y, l := range f.Lines {
		row := s.Row(y)
		for x, c := range row {
			if got, want := frameCell(c), styledFrameCell(c); got != want {
				t.Errorf("row %d cell %d: frameCell %+v, want %+v", y, x, got, want)
			}
		}
		if want := frameCells(row, s.Cols()); !reflect.DeepEqual(l.Cells, want) {
			t.Errorf("row %d of the frame is %+v, want %+v", y, l.Cells, want)
		}
	}
}

// BenchmarkScreenFrameFull is a full frame of a 200x50 screen of plain
// text: what a subscriber costs the host per frame during a flood.
func BenchmarkScreenFrameFull(b *testing.B) {
	term := vtgrid.New(200, 50, vtgrid.Options{})
	for i := 0; i < 60; i++ {
		term.Write([]byte("go test ./... ok clowder/supervisor/host 12.3s and some more words to fill the row\r\n"))
	}
	s := term.Snapshot()
	b.ReportAllocs()
	for range b.N {
		_ = screenFrame("p1", 0, s, nil)
	}
}

// TestAnEchosFrameAllocatesCellsForItsRowOnly pins a cost of issue 12's
// keystroke path: the frame's cell slab was sized for every row from the
// first changed one to the bottom, so an echo on the top row of a 160x46
// pane allocated cells for the whole screen (294 kB) to send one row. It
// now holds the changed rows only.
func TestAnEchosFrameAllocatesCellsForItsRowOnly(t *testing.T) {
	term := vtgrid.New(160, 46, vtgrid.Options{})
	term.Write([]byte("$ "))
	prev := term.Snapshot()
	const runs = 50
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for i := 0; i < runs; i++ {
		term.Write([]byte{'a' + byte(i%26)})
		s := term.Snapshot()
		if f := screenFrame("p1", 0, s, prev); len(f.Lines) != 1 {
			t.Fatalf("an echo's frame has %d rows", len(f.Lines))
		}
		prev = s
	}
	runtime.ReadMemStats(&m1)
	row := int64(160 * unsafe.Sizeof(proto.FrameCell{}))
	if per := int64(m1.TotalAlloc-m0.TotalAlloc) / runs; per > 2*row+4096 {
		t.Fatalf("an echo's snapshot and frame allocate %d bytes; one row of frame cells is %d", per, row)
	}
}

// TestRowCellsConvertAsAFreshConversion pins the echo's row cache
// (rowCells, issue 12) to frameCells: whatever changed in a row (text,
// colour, a link, a wide character, an erase) and however many rows it
// has seen (more than it keeps), the cells it gives for a row are those
// a fresh conversion gives.
func TestRowCellsConvertAsAFreshConversion(t *testing.T) {
	term := vtgrid.New(12, 8, vtgrid.Options{})
	var rc rowCells
	prev := term.Snapshot()
	steps := []string{
		"\x1b[1;1H$ ", "a", "b", "\x1b[31mc\x1b[m", "世", "\x1b]8;;http://x\x1b\\L\x1b]8;;\x1b\\",
		"\x1b[1;3H\x1b[K", "\x1b[2;1Hrow two", "\x1b[3;1Hthree\x1b[4;1Hfour\x1b[5;1Hfive\x1b[6;1Hsix",
		"\x1b[1;3Hx", "\x1b[44m\x1b[2;1H\x1b[K\x1b[m", "\x1b[1;3H界y", "\x1b[1;4Hz",
	}
	for i, step := range steps {
		term.Write([]byte(step))
		s := term.Snapshot()
		for y := 0; y < s.Rows(); y++ {
			if sameRow(s.Row(y), prev.Row(y)) {
				continue
			}
			want := frameCells(s.Row(y), s.Cols())
			for pass := 0; pass < 2; pass++ { // the second: another subscriber of the same echo
				if got := rc.convert(y, s.Row(y), s.Cols()); !reflect.DeepEqual(got, want) {
					t.Fatalf("step %d (%q), row %d, pass %d: %+v, want %+v", i, step, y, pass, got, want)
				}
			}
		}
		prev = s
	}
}
