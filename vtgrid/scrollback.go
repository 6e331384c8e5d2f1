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

// compactLine is one scrollback row: a 16-byte header pointing at the row's
// bytes in the scrollback's arena. A plain row's bytes are its text; a
// styled row's are its style runs followed by its text; the rare row holding
// interned graphemes keeps its cells as they are. Nothing in a row holds a
// pointer, so the arena is plain bytes the collector never scans.
type compactLine struct {
	p    *byte  // the row's bytes in an arena chunk; nil for an empty row
	n    uint32 // bytes of text, after the records
	meta uint32 // lineWrapped, lineCells, and how many records (runs or cells) come first
}

const (
	lineWrapped = 1 << 31 // the row continues on the next one (soft wrap)
	lineCells   = 1 << 30 // the records are the row's cells, and there is no text
	lineRecords = lineCells - 1

	recordSize  = 24 // unsafe.Sizeof of a styleRun and of a Cell (scrollback_test)
	recordAlign = 8
)

// arenaChunk is the size of one arena block. Rows leave the ring in the
// order they came, so a block is freed once its last row is gone.
const arenaChunk = 64 << 10

func (cl *compactLine) wrapped() bool { return cl.meta&lineWrapped != 0 }

func (cl *compactLine) records() int { return int(cl.meta & lineRecords) }

// text is one character per cell, continuation cells omitted, empty cells
// as ' ' ("" for a row of cells).
func (cl *compactLine) text() string {
	if cl.n == 0 {
		return ""
	}
	return unsafe.String((*byte)(unsafe.Add(unsafe.Pointer(cl.p), cl.records()*recordSize)), cl.n)
}

// runs are the style runs of a styled row; nil for a plain one: all cells
// default style, no links, no wide characters.
func (cl *compactLine) runs() []styleRun {
	if cl.meta&lineCells != 0 || cl.records() == 0 {
		return nil
	}
	return unsafe.Slice((*styleRun)(unsafe.Pointer(cl.p)), cl.records())
}

// cells are the cells of a row that text and runs cannot express; nil for
// any other row.
func (cl *compactLine) cells() []Cell {
	if cl.meta&lineCells == 0 || cl.records() == 0 {
		return nil
	}
	return unsafe.Slice((*Cell)(unsafe.Pointer(cl.p)), cl.records())
}

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
			return s.keepCells(cells[:n], wrapped)
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
	if len(runs) == 1 && runs[0] == (styleRun{n: runs[0].n}) {
		runs = nil // all default style: the text says it all
	}
	b := s.reserve(len(runs), len(text))
	if len(b) == 0 {
		return newCompactLine(nil, 0, 0, wrapped)
	}
	if len(runs) > 0 {
		copy(unsafe.Slice((*styleRun)(unsafe.Pointer(&b[0])), len(runs)), runs)
	}
	copy(b[len(runs)*recordSize:], text)
	return newCompactLine(b, len(text), len(runs), wrapped)
}

// keepCells keeps a row of cells as they are, in the arena.
func (s *scrollback) keepCells(cells []Cell, wrapped bool) compactLine {
	b := s.reserve(len(cells), 0)
	copy(unsafe.Slice((*Cell)(unsafe.Pointer(&b[0])), len(cells)), cells)
	return newCompactLine(b, 0, len(cells)|lineCells, wrapped)
}

// newCompactLine is the header of a row whose bytes are b: records records
// (and lineCells if they are cells) followed by n bytes of text.
func newCompactLine(b []byte, n, records int, wrapped bool) compactLine {
	cl := compactLine{n: uint32(n), meta: uint32(records)}
	if len(b) > 0 {
		cl.p = &b[0]
	}
	if wrapped {
		cl.meta |= lineWrapped
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
	text := s.reserve(0, n) // straight into the arena: no scratch copy
	copy(text, src[:n])
	if holes {
		for i := bytes.IndexByte(text, 0); i >= 0; i = bytes.IndexByte(text, 0) {
			text[i] = ' ' // an empty cell before the row's end
		}
	}
	return newCompactLine(text, n, 0, wrapped)
}

// reserve returns room at the end of the arena for records (aligned)
// followed by n bytes of text, for the caller to fill; a chunk's bytes
// below its length are never written again. Nothing for an empty row.
func (s *scrollback) reserve(records, n int) []byte {
	size := records*recordSize + n
	if size == 0 {
		return nil
	}
	start := len(s.arena)
	if records > 0 {
		start = (start + recordAlign - 1) &^ (recordAlign - 1)
	}
	if start+size > cap(s.arena) {
		s.arena, start = make([]byte, 0, max(arenaChunk, size)), 0
	}
	s.arena = s.arena[:start+size]
	return s.arena[start : start+size : start+size]
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
	if cells := cl.cells(); cells != nil {
		return appendRowText(b, cells)
	}
	return append(b, strings.TrimRight(cl.text(), " ")...)
}

// expand decodes the row into cells (its natural length, no padding).
func (cl *compactLine) expand() []Cell {
	return cl.appendCells(make([]Cell, 0, cl.n))
}

// appendCells appends the row's cells to out.
func (cl *compactLine) appendCells(out []Cell) []Cell {
	if cells := cl.cells(); cells != nil {
		return append(out, cells...)
	}
	runs := cl.runs()
	ri, left := 0, 0
	var run styleRun
	for _, r := range cl.text() {
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

	text  []byte     // scratch of compact
	runs  []styleRun // scratch of compact
	arena []byte     // the chunk rows are being added to
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
		if len(s.ring) == cap(s.ring) { // double up to max exactly: append's 1.25x steps copy more and overshoot
			grown := make([]compactLine, len(s.ring), min(max(2*len(s.ring), 64), s.max))
			copy(grown, s.ring)
			s.ring = grown
		}
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
