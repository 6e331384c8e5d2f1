package vtgrid

import (
	"runtime"
	"testing"
)

// TestASnapshotOfABlankRowCopiesNoCells: a snapshot copied every row's
// cells, 46 kB for an idle 80x24 shell whose screen is a prompt and 23
// blank rows, and the terminal keeps its last snapshot (for the next one
// to reuse) while anyone watches or after a wait or capture looked: a
// quarter of an idle pane's heap (issue 12). Blank rows now share one
// immutable row of zero cells.
func TestASnapshotOfABlankRowCopiesNoCells(t *testing.T) {
	term := New(80, 24, Options{})
	_, _ = term.Write([]byte("scale> "))
	const runs = 50
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for range runs {
		term.DropSnapshot() // every snapshot copies every row
		term.Snapshot()
	}
	runtime.ReadMemStats(&m1)
	whole := int64(80 * 24 * 24) // every row's 80 cells of 24 bytes
	if per := int64(m1.TotalAlloc-m0.TotalAlloc) / runs; per > whole/4 {
		t.Fatalf("a snapshot of a prompt and 23 blank rows allocates %d bytes; all its cells are %d", per, whole)
	}
	s := term.Snapshot()
	if got := s.Row(0); got[0].r != 's' || got[6].r != ' ' {
		t.Fatalf("row 0 is %q", s.Text())
	}
	for y := 1; y < 24; y++ {
		for x, c := range s.Row(y) {
			if c != (Cell{}) {
				t.Fatalf("cell %d,%d of a blank row is %+v", x, y, c)
			}
		}
	}
}

// TestABlankRowThatChangedIsNotTheRowBefore: rows shared between
// snapshots are the unchanged ones (a renderer compares them by
// identity), so a row blanked since the last snapshot is a new row in the
// next one, though every blank row shares the same cells.
func TestABlankRowThatChangedIsNotTheRowBefore(t *testing.T) {
	term := New(10, 3, Options{})
	_, _ = term.Write([]byte("abc"))
	s0 := term.Snapshot()
	_, _ = term.Write([]byte("\x1b[2K")) // row 0 blanked
	s1 := term.Snapshot()
	if &s1.Row(0)[0] == &s0.Row(0)[0] {
		t.Fatal("a row blanked since the last snapshot is shared with it")
	}
	if &s1.Row(1)[0] != &s0.Row(1)[0] {
		t.Fatal("an unchanged blank row is not shared with the last snapshot")
	}
}

// TestATerminalWithNoColoursSetHoldsNoPalette: every terminal held a
// copy of Options, palette included (1 kB of a fresh 80x24 terminal's 4.5
// kB), though a terminal no client gave colours answers the defaults
// (issue 12). The colours are held only once set.
func TestATerminalWithNoColoursSetHoldsNoPalette(t *testing.T) {
	const runs = 100
	keep := make([]*Terminal, 0, runs)
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for range runs {
		keep = append(keep, New(80, 24, Options{}))
	}
	runtime.ReadMemStats(&m1)
	if per := int64(m1.TotalAlloc-m0.TotalAlloc) / runs; per > 3800 {
		t.Fatalf("a fresh 80x24 terminal allocates %d bytes; want at most 3800", per)
	}
	colored := New(80, 24, Options{Colors: Colors{Foreground: RGBColor(1, 2, 3)}})
	if c := colored.Colors(); c.Foreground != RGBColor(1, 2, 3) || len(keep) != runs {
		t.Fatalf("colours %+v", c)
	}
}
