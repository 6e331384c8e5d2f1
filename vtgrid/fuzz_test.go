package vtgrid

import (
	"fmt"
	"testing"
)

// checkInvariants fails if the terminal's state breaks what every consumer
// relies on: cursor inside the screen, rows of the screen's width, wide
// characters whole.
func checkInvariants(t *testing.T, term *Terminal) {
	t.Helper()
	s := term.SnapshotScrollback(-1)
	x, y, _ := s.Cursor()
	if x < 0 || x >= s.Cols() || y < 0 || y >= s.Rows() {
		t.Fatalf("cursor %d,%d outside %dx%d", x, y, s.Cols(), s.Rows())
	}
	if term.top < 0 || term.bot >= term.rows || term.top > term.bot {
		t.Fatalf("scroll region %d-%d outside %d rows", term.top, term.bot, term.rows)
	}
	for y := 0; y < s.Rows(); y++ {
		checkRow(t, s.Row(y), s.Cols(), y)
	}
	checkUsed(t, term.main, "main")
	checkUsed(t, term.alt, "alternate")
	for i := 0; i < s.HistoryLen(); i++ {
		checkRow(t, s.HistoryRow(i), -1, -i-1)
	}
	_ = s.Text()
	_ = s.ANSI()
}

// checkUsed checks the invariants of a row's two forms (see line): every
// cell at or after a row's used bound is the zero Cell (line.used), which
// compact and erase rely on to skip the tail; a plain row's text holds
// only printable ASCII or 0 and its cells, if any, are all zero; a styled
// row has a cell for every column.
func checkUsed(t *testing.T, s *screen, name string) {
	t.Helper()
	if s == nil { // an alternate screen never entered: no cells yet
		return
	}
	for y := range s.lines {
		l := s.row(y)
		if l.used > l.width || l.width != s.cols {
			t.Fatalf("%s screen row %d: used %d, width %d, screen width %d", name, y, l.used, l.width, s.cols)
		}
		if !l.styled {
			checkPlainRow(t, l, fmt.Sprintf("%s screen row %d", name, y))
			continue
		}
		if len(l.cells) != l.width {
			t.Fatalf("%s screen row %d is styled with %d cells, want %d", name, y, len(l.cells), l.width)
		}
		for x := l.used; x < len(l.cells); x++ {
			if l.cells[x] != (Cell{}) {
				t.Fatalf("%s screen row %d: cell %d is %+v, past the row's used bound %d", name, y, x, l.cells[x], l.used)
			}
		}
	}
}

// checkPlainRow checks a plain row: text of printable ASCII or 0 up to
// used, its cells (if allocated) all zero.
func checkPlainRow(t *testing.T, l *line, name string) {
	t.Helper()
	for x, c := range l.cells {
		if c != (Cell{}) {
			t.Fatalf("%s is plain, but its cell %d is %+v", name, x, c)
		}
	}
	if l.used > len(l.text) {
		t.Fatalf("%s is plain with used %d past its %d bytes of text", name, l.used, len(l.text))
	}
	for x, b := range l.text[:l.used] {
		if b != 0 && (b < 0x20 || b > 0x7e) {
			t.Fatalf("%s is plain, but its text holds %#x at %d", name, b, x)
		}
		if b == 0 && !l.holes {
			t.Fatalf("%s has an empty cell at %d before its used bound %d, but no holes", name, x, l.used)
		}
	}
}

func checkRow(t *testing.T, row []Cell, cols, y int) {
	t.Helper()
	if cols >= 0 && len(row) != cols {
		t.Fatalf("row %d has %d cells, want %d", y, len(row), cols)
	}
	for x, c := range row {
		wide := c.flags&flagWide != 0
		if wide && (x+1 >= len(row) || row[x+1].flags&flagCont == 0) {
			t.Fatalf("row %d: wide cell at %d without its continuation", y, x)
		}
		if c.flags&flagCont != 0 && (x == 0 || row[x-1].flags&flagWide == 0) {
			t.Fatalf("row %d: continuation cell at %d without its wide cell", y, x)
		}
	}
}

func FuzzWrite(f *testing.F) {
	seeds := []string{
		"hello\r\nworld",
		"\x1b[31mred\x1b[0m\x1b[2J\x1b[H",
		"世界\u0301e\u0301\U0001F468\u200D\U0001F469",
		"\x1b[?1049h\x1b[5;10r\x1b[3L\x1b[2M\x1b[?1049l",
		"\x1b[>1u\x1b[?u\x1b[6n\x1b[?2004$p",
		"\x1b]8;;http://x\x1b\\l\x1b]8;;\x1b\\\x1b]0;t\x07",
		"abc\x1b[4h世\x1b[1G\x1b[2@\x1b[P",
		"\x1b#8\x1b[99;99H\x1b[99999999999X",
		"\xff\xfe\xc3\x28\xe2\x82\xf0\x9f\x98",
		"\x1bP$qm\x1b\\\x1b_apc\x1b\\\x1bXsos\x1b\\",
	}
	for _, s := range seeds {
		f.Add([]byte(s), uint8(20), uint8(5), uint16(7))
	}
	f.Fuzz(func(t *testing.T, data []byte, cols, rows uint8, split uint16) {
		c, r := int(cols%40)+1, int(rows%12)+1
		term := New(c, r, Options{ScrollbackLines: 50, Reply: func([]byte) {}, Event: func(Event) {}})
		cut := int(split) % (len(data) + 1)
		term.Write(data[:cut])
		checkInvariants(t, term)
		term.Resize(r+c/2+1, c/2+1) // reflow with content in place
		checkInvariants(t, term)
		term.Resize(c, r)
		term.Write(data[cut:])
		checkInvariants(t, term)

		// Write boundaries never matter.
		whole := New(c, r, Options{ScrollbackLines: 50})
		whole.Write(data)
		parts := New(c, r, Options{ScrollbackLines: 50})
		parts.Write(data[:cut])
		parts.Write(data[cut:])
		if a, b := whole.Snapshot().ANSI(), parts.Snapshot().ANSI(); a != b {
			t.Fatalf("split at %d changes the screen:\n%q\n%q", cut, a, b)
		}
	})
}
