package vtgrid

// This file is the scrollback: a bounded ring of rows in a compact form. A
// plain row costs its text plus a small header; style runs are stored only
// where the row is not all default style; rows holding interned graphemes
// keep their cells as they are (rare).

// styleRun covers n consecutive cells (continuation cells included) that
// share a style, a link and wideness.
type styleRun struct {
	n    uint16
	link uint16
	wide bool
	st   Style
}

// compactLine is one scrollback row.
type compactLine struct {
	text    string     // one character per cell, continuation cells omitted, empty cells as ' '
	runs    []styleRun // nil: all cells default style, no links, no wide characters
	cells   []Cell     // instead of text and runs, when the row holds interned graphemes
	wrapped bool
}

// compact encodes the cells of a row, dropping trailing empty default cells.
func compact(cells []Cell, wrapped bool) compactLine {
	n := len(cells)
	for n > 0 && cells[n-1] == (Cell{}) {
		n--
	}
	cells = cells[:n]
	for i := range cells {
		if cells[i].r >= clusterBase {
			return compactLine{cells: append([]Cell(nil), cells...), wrapped: wrapped}
		}
	}
	text := make([]byte, 0, n)
	var runs []styleRun
	plain := true
	for x := 0; x < n; {
		c := cells[x]
		w := c.Width()
		if w == 0 || x+w > n { // an orphaned continuation cell, or a wide character cut off by the trim
			w, c = 1, Cell{style: c.style, link: c.link}
		}
		text = appendRune(text, max(c.r, ' '))
		runs = addRun(runs, c, w)
		plain = plain && c.style == (Style{}) && c.link == 0 && w == 1
		x += w
	}
	cl := compactLine{text: string(text), wrapped: wrapped}
	if !plain {
		cl.runs = runs
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
	if cl.cells != nil {
		return append([]Cell(nil), cl.cells...)
	}
	out := make([]Cell, 0, len(cl.text))
	ri, left := 0, 0
	var run styleRun
	for _, r := range cl.text {
		if left == 0 && ri < len(cl.runs) {
			run, left = cl.runs[ri], int(cl.runs[ri].n)
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

// size estimates the bytes the row holds, for memory accounting in tests.
func (cl *compactLine) size() int {
	return len(cl.text) + len(cl.runs)*24 + len(cl.cells)*24 + 64
}

// scrollback is the bounded ring of compact rows.
type scrollback struct {
	max   int
	ring  []compactLine
	start int // index of the oldest row in ring once it is full
}

// push compacts a row leaving the top of the screen.
func (s *scrollback) push(l *line) {
	cl := compact(l.cells, l.wrapped)
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
