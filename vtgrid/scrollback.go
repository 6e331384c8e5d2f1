package vtgrid

// This file is the scrollback: a bounded ring of rows in a compact form. A
// plain row costs its text plus a small header; style runs are stored only
// where the row is not all default style; rows holding interned graphemes
// keep their cells as they are (rare).

import (
	"unicode/utf8"
	"unsafe"
)

// styleRun covers n consecutive cells (continuation cells included) that
// share a style, a link and wideness.
type styleRun struct {
	n    uint16
	link uint16
	wide bool
	st   Style
}

// compactLine is one scrollback row: 32 bytes of header plus its text for
// the commonest rows.
type compactLine struct {
	text    string        // one character per cell, continuation cells omitted, empty cells as ' '
	ext     *compactExtra // nil: all cells default style, no links, no wide characters
	wrapped bool
}

// compactExtra holds what a plain row does not need.
type compactExtra struct {
	runs  []styleRun // style runs over text
	cells []Cell     // instead of text and runs, when the row holds interned graphemes
}

// compact encodes the cells of a row, dropping trailing empty default cells.
func compact(cells []Cell, wrapped bool) compactLine {
	n := len(cells)
	for n > 0 && cells[n-1] == (Cell{}) {
		n--
	}
	cells = cells[:n]
	if text, ok := plainASCII(cells); ok {
		return compactLine{text: text, wrapped: wrapped}
	}
	for i := range cells {
		if cells[i].r >= clusterBase {
			return compactLine{ext: &compactExtra{cells: append([]Cell(nil), cells...)}, wrapped: wrapped}
		}
	}
	return compactStyled(cells, wrapped)
}

// plainASCII is the fast path for the commonest row: ASCII in the default
// style. It allocates once (the text).
func plainASCII(cells []Cell) (string, bool) {
	if len(cells) == 0 {
		return "", true
	}
	buf := make([]byte, len(cells))
	for i := range cells {
		c := &cells[i]
		if c.r >= utf8.RuneSelf || *c != (Cell{r: c.r}) {
			return "", false
		}
		buf[i] = byte(max(c.r, ' '))
	}
	// buf is never written again, so it can back the string without a copy.
	return unsafe.String(&buf[0], len(buf)), true
}

// compactStyled encodes a row with styles, links or wide characters.
func compactStyled(cells []Cell, wrapped bool) compactLine {
	n := len(cells)
	text := make([]byte, 0, n)
	var runs []styleRun
	for x := 0; x < n; {
		c := cells[x]
		w := c.Width()
		if w == 0 || x+w > n { // an orphaned continuation cell, or a wide character cut off by the trim
			w, c = 1, Cell{style: c.style, link: c.link}
		}
		text = appendRune(text, max(c.r, ' '))
		runs = addRun(runs, c, w)
		x += w
	}
	cl := compactLine{text: string(text), wrapped: wrapped}
	if len(runs) != 1 || runs[0] != (styleRun{n: runs[0].n}) { // else plain non-ASCII text
		cl.ext = &compactExtra{runs: runs}
	}
	return cl
}

func addRun(runs []styleRun, c Cell, w int) []styleRun {
	wide := w == 2
	if k := len(runs) - 1; k >= 0 {
		r := &runs[k]
		if r.st == c.style && r.link == c.link && r.wide == wide && int(r.n)+w <= 0xffff {
			r.n += uint16(w)
			return runs
		}
	}
	return append(runs, styleRun{n: uint16(w), link: c.link, wide: wide, st: c.style})
}

// expand decodes the row into cells (its natural length, no padding).
func (cl *compactLine) expand() []Cell {
	var runs []styleRun
	if cl.ext != nil {
		if cl.ext.cells != nil {
			return append([]Cell(nil), cl.ext.cells...)
		}
		runs = cl.ext.runs
	}
	out := make([]Cell, 0, len(cl.text))
	ri, left := 0, 0
	var run styleRun
	for _, r := range cl.text {
		if left == 0 && ri < len(runs) {
			run, left = runs[ri], int(runs[ri].n)
			ri++
		}
		c := Cell{r: r, style: run.st, link: run.link}
		if run.wide {
			c.flags = flagWide
			out = append(out, c, Cell{style: run.st, link: run.link, flags: flagCont})
			left -= 2
			continue
		}
		out = append(out, c)
		left--
	}
	return out
}

// scrollback is the bounded ring of compact rows.
type scrollback struct {
	max   int
	ring  []compactLine
	start int // index of the oldest row in ring once it is full
}

// push compacts a row leaving the top of the screen.
func (s *scrollback) push(cells []Cell, wrapped bool) {
	cl := compact(cells, wrapped)
	if len(s.ring) < s.max {
		s.ring = append(s.ring, cl)
		return
	}
	if s.max == 0 {
		return
	}
	s.ring[s.start] = cl
	s.start = (s.start + 1) % s.max
}

// len is the number of rows held.
func (s *scrollback) len() int { return len(s.ring) }

// at returns row i, 0 being the oldest.
func (s *scrollback) at(i int) *compactLine {
	return &s.ring[(s.start+i)%len(s.ring)]
}

// clear drops every row (ED 3).
func (s *scrollback) clear() {
	s.ring, s.start = nil, 0
}

// takeAll returns the rows oldest first and empties the ring (for reflow).
func (s *scrollback) takeAll() []compactLine {
	out := make([]compactLine, 0, len(s.ring))
	for i := range s.ring {
		out = append(out, *s.at(i))
	}
	s.clear()
	return out
}
