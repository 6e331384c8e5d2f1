package vtgrid

import (
	"strings"
	"testing"
)

// screenOf feeds in to a fresh cols x rows terminal and returns it.
func screenOf(cols, rows int, in string) *Terminal {
	t := New(cols, rows, Options{})
	t.Write([]byte(in))
	return t
}

// picture renders the screen as the expected-picture form used in tests:
// each row padded to the width between '|' bars, the cursor not shown.
func picture(s *Snapshot) string {
	var b strings.Builder
	for y := 0; y < s.Rows(); y++ {
		b.WriteByte('|')
		for x := 0; x < s.Cols(); x++ {
			c := s.Cell(x, y)
			switch {
			case c.Width() == 0:
			case c.r == 0:
				b.WriteByte(' ')
			default:
				b.WriteString(c.Text())
			}
		}
		b.WriteString("|\n")
	}
	return b.String()
}

// want strips the common indentation of an inline picture.
func want(p string) string {
	lines := strings.Split(strings.TrimPrefix(p, "\n"), "\n")
	var out []string
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n") + "\n"
}

// checkSplits feeds in whole and split at every byte offset (and byte by
// byte) and fails unless every feeding gives the same picture and cursor.
func checkSplits(t *testing.T, cols, rows int, in string) *Snapshot {
	t.Helper()
	whole := screenOf(cols, rows, in).Snapshot()
	ref := picture(whole)
	rx, ry, _ := whole.Cursor()
	feeds := [][]string{bytesOf(in)}
	for i := 1; i < len(in); i++ {
		feeds = append(feeds, []string{in[:i], in[i:]})
	}
	for _, parts := range feeds {
		term := New(cols, rows, Options{})
		for _, p := range parts {
			term.Write([]byte(p))
		}
		s := term.Snapshot()
		x, y, _ := s.Cursor()
		if got := picture(s); got != ref || x != rx || y != ry {
			t.Fatalf("feeding %q in parts %q gives\n%s cursor %d,%d; whole gives\n%s cursor %d,%d",
				in, parts, got, x, y, ref, rx, ry)
		}
	}
	return whole
}

func bytesOf(s string) []string {
	out := make([]string, len(s))
	for i := 0; i < len(s); i++ {
		out[i] = s[i : i+1]
	}
	return out
}

// rowCells returns a copy of row y's cells (the screen's width of them),
// whichever form the row is in: for code that reads a screen whole
// (serializing it).
func (s *screen) rowCells(y int) []Cell {
	return s.row(y).appendCells(make([]Cell, 0, s.cols))
}

// setRow replaces row y with cells (cut or padded to the screen's width)
// and its soft-wrap flag, marking it changed at ver: the inverse of
// rowCells.
func (s *screen) setRow(y int, cells []Cell, wrapped bool, ver uint64) {
	l := s.row(y)
	l.erase(0, l.width, ver, Style{})
	if n := min(len(cells), l.width); n > 0 {
		copy(l.toCells(), cells[:n])
		l.mark(n)
	}
	l.wrapped = wrapped
}
