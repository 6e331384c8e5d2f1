package host

import (
	"reflect"
	"testing"

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
