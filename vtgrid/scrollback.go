package vtgrid

// This file is the scrollback: a bounded ring of rows in a compact form. A
// plain row costs its text plus a small header; style runs are stored only
// where the row is not all default style; rows holding interned graphemes
// keep their cells as they are (rare).

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// styleRun covers n consecutive cells (continuation cells included) that
// share a style, a link, wideness and DECSCA protection.
type styleRun struct {
	n    uint16
	link uint16
	wide bool
	prot cellFlags // flagProtected or 0; fits in wide's padding
	st   Style
}

// compactLine is one scrollback row: 56 bytes of header plus its text (and
// its style runs, for a styled row), both kept in the scrollback's arenas.
type compactLine struct {
	text    string        // one character per cell, continuation cells omitted, empty cells as ' '
	runs    []styleRun    // nil: all cells default style, no links, no wide characters
	ext     *compactExtra // the rare row holding interned graphemes
	wrapped bool
}

// compactExtra holds the cells of a row that text and runs cannot express.
type compactExtra struct {
	cells []Cell
}

// arenaChunk is the size of one text arena block. Rows leave the ring in the
// order they came, so a block is freed once its last row is gone.
const arenaChunk = 64 << 10

// compact encodes the cells of a row, dropping trailing empty default cells
// (used bounds the non-empty ones: see line.used). It allocates nothing in steady
// state: text and runs go into the arenas.
func (s *scrollback) compact(cells []Cell, used int, wrapped bool) compactLine {
	n := min(used, len(cells))
	for n > 0 && cells[n-1] == (Cell{}) {
		n--
	}
	text, runs := s.text[:0], s.runs[:0]
	for x := 0; x < n; {
		c := &cells[x]
		if c.r >= clusterBase {
			return compactLine{ext: &compactExtra{cells: append([]Cell(nil), cells[:n]...)}, wrapped: wrapped}
		}
		if c.flags == 0 && c.r < utf8.RuneSelf { // the common case: a run of narrow ASCII in one style
			var end int
			text, end = appendASCIICells(text, cells[:n], x)
			runs = addRun(runs, c, end-x, false)
			x = end
			continue
		}
		r, w := max(c.r, ' '), 1
		switch {
		case c.flags&flagWide != 0 && x+1 < n:
			w = 2
		case c.flags&(flagWide|flagCont) != 0: // an orphaned half: keep its style as a blank
			r = ' '
		}
		text = utf8.AppendRune(text, r)
		runs = addRun(runs, c, w, w == 2)
		x += w
	}
	s.text, s.runs = text, runs
	cl := compactLine{text: s.keepText(text), wrapped: wrapped}
	if len(runs) > 1 || len(runs) == 1 && runs[0] != (styleRun{n: runs[0].n}) {
		cl.runs = s.keepRuns(runs)
	}
	return cl
}

// compactPlain is compact for a plain row (see line): its text, a byte per
// cell, 0 for an empty cell (only where holes says there may be one). The row is its text, trailing empty cells
// dropped and the others as spaces, copied straight into the arena.
func (s *scrollback) compactPlain(src []byte, holes, wrapped bool) compactLine {
	n := len(src)
	for n > 0 && src[n-1] == 0 {
		n--
	}
	if n == 0 {
		return compactLine{wrapped: wrapped}
	}
	text := s.arenaText(n) // straight into the arena: no scratch copy
	copy(text, src[:n])
	if holes {
		for i := bytes.IndexByte(text, 0); i >= 0; i = bytes.IndexByte(text, 0) {
			text[i] = ' ' // an empty cell before the row's end
		}
	}
	// The arena's bytes below its length are never written again.
	return compactLine{text: unsafe.String(&text[0], n), wrapped: wrapped}
}

// arenaText reserves n bytes at the end of the text arena for the caller
// to fill.
func (s *scrollback) arenaText(n int) []byte {
	if cap(s.textArena)-len(s.textArena) < n {
		s.textArena = make([]byte, 0, max(arenaChunk, n))
	}
	start := len(s.textArena)
	s.textArena = s.textArena[:start+n]
	return s.textArena[start : start+n : start+n]
}

// appendASCIICells appends the characters of the run of narrow ASCII cells
// from x that share cells[x]'s style and link (empty cells as ' ') and
// returns the run's end. Checking and copying in one pass reads each cell
// once.
func appendASCIICells(text []byte, cells []Cell, x int) ([]byte, int) {
	st, link := cells[x].style, cells[x].link
	text = slices.Grow(text, len(cells)-x)
	for ; x < len(cells); x++ {
		d := &cells[x]
		if d.flags != 0 || d.r >= utf8.RuneSelf || d.link != link || d.style != st {
			break
		}
		text = append(text, byte(max(d.r, ' ')))
	}
	return text, x
}

// keepText copies b into the text arena.
func (s *scrollback) keepText(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	text := s.arenaText(len(b))
	copy(text, b)
	// The arena's bytes below its length are never written again.
	return unsafe.String(&text[0], len(b))
}

// keepRuns copies runs into the run arena.
func (s *scrollback) keepRuns(runs []styleRun) []styleRun {
	if cap(s.runArena)-len(s.runArena) < len(runs) {
		s.runArena = make([]styleRun, 0, max(arenaChunk/32, len(runs)))
	}
	start := len(s.runArena)
	s.runArena = append(s.runArena, runs...)
	return s.runArena[start:len(s.runArena):len(s.runArena)]
}

// addRun extends the last run by n cells of c's style, or starts a new one.
func addRun(runs []styleRun, c *Cell, n int, wide bool) []styleRun {
	if k := len(runs) - 1; k >= 0 {
		r := &runs[k]
		if r.wide == wide && r.prot == c.flags&flagProtected && r.link == c.link && r.st == c.style && int(r.n)+n <= 0xffff {
			r.n += uint16(n)
			return runs
		}
	}
	return append(runs, styleRun{n: uint16(n), link: c.link, wide: wide, prot: c.flags & flagProtected, st: c.style})
}

// appendText appends the row's characters with trailing blanks trimmed, as
// appendRowText does for its expansion, without expanding it: text already
// holds one character per cell, continuation cells omitted.
func (cl *compactLine) appendText(b []byte) []byte {
	if cl.ext != nil {
		return appendRowText(b, cl.ext.cells)
	}
	return append(b, strings.TrimRight(cl.text, " ")...)
}

// expand decodes the row into cells (its natural length, no padding).
func (cl *compactLine) expand() []Cell {
	return cl.appendCells(make([]Cell, 0, len(cl.text)))
}

// appendCells appends the row's cells to out.
func (cl *compactLine) appendCells(out []Cell) []Cell {
	if cl.ext != nil {
		return append(out, cl.ext.cells...)
	}
	runs := cl.runs
	ri, left := 0, 0
	var run styleRun
	for _, r := range cl.text {
		if left == 0 && ri < len(runs) {
			run, left = runs[ri], int(runs[ri].n)
			ri++
		}
		c := Cell{r: r, style: run.st, link: run.link, flags: run.prot}
		if run.wide {
			c.flags |= flagWide
			out = append(out, c, Cell{style: run.st, link: run.link, flags: flagCont | run.prot})
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
	max    int
	ring   []compactLine
	start  int    // index of the oldest row in ring once it is full
	pushed uint64 // rows ever pushed: the absolute number of the next row

	text      []byte     // scratch of compact
	runs      []styleRun // scratch of compact
	textArena []byte
	runArena  []styleRun
}

// pushLine compacts a row leaving the top of the screen, in either of its
// forms (see line).
func (s *scrollback) pushLine(l *line) {
	if !s.count() {
		return
	}
	if !l.styled {
		s.keep(s.compactPlain(l.text[:l.used], l.holes, l.wrapped))
		return
	}
	s.keep(s.compact(l.cells, l.used, l.wrapped))
}

// push compacts a row of cells leaving the screen.
func (s *scrollback) push(cells []Cell, used int, wrapped bool) {
	if s.count() {
		s.keep(s.compact(cells, used, wrapped))
	}
}

// count counts a row leaving the screen and reports whether the
// scrollback keeps rows at all.
func (s *scrollback) count() bool {
	s.pushed++
	return s.max > 0
}

// keep adds a compacted row, dropping the oldest when full.
func (s *scrollback) keep(cl compactLine) {
	if len(s.ring) < s.max {
		s.ring = append(s.ring, cl)
		return
	}
	s.ring[s.start] = cl
	s.start++
	if s.start == s.max {
		s.start = 0
	}
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

// takeAll returns the rows oldest first and empties the ring (for reflow,
// which pushes them back: their absolute numbers start again where these
// started).
func (s *scrollback) takeAll() []compactLine {
	out := make([]compactLine, 0, len(s.ring))
	for i := range s.ring {
		out = append(out, *s.at(i))
	}
	s.pushed -= uint64(len(s.ring))
	s.clear()
	return out
}

// bounds returns the absolute numbers of the oldest row held and of the
// next row to be pushed.
func (s *scrollback) bounds() (oldest, end uint64) {
	return s.pushed - uint64(len(s.ring)), s.pushed
}
