package vtgrid

import (
	"runtime"
	"slices"
	"testing"
	"unsafe"
)

// TestFreshTerminalAllocatesNoRows (issue 12, memory): a new terminal's
// rows hold no cells until written, so an idle pane costs row headers, not
// cols x rows cells (240 KB at 200x50 before).
func TestFreshTerminalAllocatesNoRows(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	term := New(200, 50, Options{})
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(term)
	if got := after.TotalAlloc - before.TotalAlloc; got > 20<<10 {
		t.Fatalf("a fresh 200x50 terminal allocated %d bytes, want at most 20 KiB", got)
	}
}

// TestPlainRowsHoldTextNotCells (issue 12): rows of default-style ASCII are
// a byte per cell; only a row that gets a style, a link or a non-ASCII
// character turns into 24-byte cells.
func TestPlainRowsHoldTextNotCells(t *testing.T) {
	term := screenOf(200, 5, "hello\r\n\x1b[31mred\x1b[0m\r\nworld")
	for y, wantCells := range []bool{false, true, false, false} {
		if got := term.scr.row(y).cells != nil; got != wantCells {
			t.Errorf("row %d has cells %v, want %v", y, got, wantCells)
		}
	}
	if got := term.Snapshot().Text(); got != "hello\nred\nworld\n\n" {
		t.Fatalf("screen %q", got)
	}
}

// TestWholeScreenScrollMovesNoRows (issue 12): scrolling the whole screen
// moves the ring's head; every row stays in its storage slot (rows were
// copied one slot up per scrolled line before).
func TestWholeScreenScrollMovesNoRows(t *testing.T) {
	term := screenOf(6, 3, "\x1b[31ma\r\nb\r\nc")
	slots := func() []uintptr {
		var out []uintptr
		for _, l := range term.main.lines {
			out = append(out, uintptr(unsafe.Pointer(unsafe.SliceData(l.cells))))
		}
		return out
	}
	was := slots()
	term.Write([]byte("\r\nd"))
	if now := slots(); !slices.Equal(now, was) {
		t.Fatalf("rows moved between storage slots on a scroll: %v, then %v", was, now)
	}
	if got := term.Snapshot().Text(); got != "b\nc\nd" {
		t.Fatalf("screen after the scroll %q", got)
	}
	if got := term.SnapshotScrollback(-1).HistoryText(); got != "a\nb\nc\nd" {
		t.Fatalf("scrollback %q", got)
	}
}

// TestScrollsMarkTheirRowsDirty: a whole-screen scroll marks every row
// changed at once (screen.moved), a region scroll only the region's rows.
func TestScrollsMarkTheirRowsDirty(t *testing.T) {
	term := screenOf(5, 4, "a\r\nb\r\nc\r\nd")
	term.Snapshot()
	term.Write([]byte("\r\ne"))
	if d := term.Snapshot().DirtyRows(); len(d) != 4 {
		t.Fatalf("after a whole-screen scroll dirty %v, want every row", d)
	}
	term.Write([]byte("\x1b[2;3r\x1b[3;1H\n"))
	if d := term.Snapshot().DirtyRows(); !slices.Equal(d, []int{1, 2}) {
		t.Fatalf("after a region scroll dirty %v, want [1 2]", d)
	}
	if got := term.Snapshot().Text(); got != "b\nd\n\ne" {
		t.Fatalf("screen %q", got)
	}
}

// TestPlainRowTurningStyledKeepsItsText: a plain row gets a coloured
// character past a gap; the gap stays empty, the text stays, and once the
// row is erased it is plain again and takes new text with no stale bytes.
func TestPlainRowTurningStyledKeepsItsText(t *testing.T) {
	term := screenOf(10, 3, "abc\x1b[6G\x1b[32mX\x1b[0m")
	s := term.Snapshot()
	if got := s.Text(); got != "abc  X\n\n" || s.Cell(5, 0).Style().Fg != IndexedColor(2) {
		t.Fatalf("row %q, X's style %+v", got, s.Cell(5, 0).Style())
	}
	term.Write([]byte("\x1b[2K\x1b[1Gxy\x1b[8Gz"))
	if l := term.scr.row(0); l.styled {
		t.Fatalf("an erased row written in the default style is still styled")
	}
	if got := term.Snapshot().Text(); got != "xy     z\n\n" {
		t.Fatalf("row after erase and rewrite %q", got)
	}
	term.Write([]byte("\r\n\r\n\r\n"))
	if got := term.SnapshotScrollback(-1).HistoryText(); got != "xy     z\n\n\n" {
		t.Fatalf("scrollback %q", got)
	}
}

// TestASCIIRunStopsAtTheFirstNonPrintableByte checks the word-at-a-time
// scan against the byte loop for every byte value at every position of a
// long run.
func TestASCIIRunStopsAtTheFirstNonPrintableByte(t *testing.T) {
	base := []byte("the quick brown fox jumps over the lazy dog 0123456789")
	for pos := range base {
		for b := 0; b < 256; b++ {
			p := append([]byte(nil), base...)
			p[pos] = byte(b)
			want := len(p)
			if b < 0x20 || b > 0x7e {
				want = pos
			}
			if got := asciiRun(p); got != want {
				t.Fatalf("byte %#x at %d: run %d, want %d", b, pos, got, want)
			}
		}
	}
}

// TestSetRowRoundTripsRowCells: a row written back with setRow reads the
// same through rowCells and the snapshot.
func TestSetRowRoundTripsRowCells(t *testing.T) {
	src := screenOf(8, 3, "pl\x1b[4Gain\r\n\x1b[1;31mred\x1b[0m 漢\r\n")
	dst := New(8, 3, Options{})
	for y := range 3 {
		dst.main.setRow(y, src.main.rowCells(y), src.main.row(y).wrapped, dst.ver)
		if got, want := dst.main.rowCells(y), src.main.rowCells(y); !slices.Equal(got, want) {
			t.Fatalf("row %d: %v, want %v", y, got, want)
		}
	}
	if got, want := picture(dst.Snapshot()), picture(src.Snapshot()); got != want {
		t.Fatalf("restored screen\n%s\nwant\n%s", got, want)
	}
	checkUsed(t, dst.main, "restored")
}
