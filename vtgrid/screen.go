package vtgrid

// This file is the screen: rows of cells with a soft-wrap flag and the
// version that dirty tracking compares. The rows form a ring: a scroll of
// the whole screen moves the ring's head, not the rows (issue 12). A row
// holds nothing until it is first written (lazy rows), and while it holds
// only default-style ASCII it is one byte per cell (text), not cells.

// line is one row of the grid. It has two forms: plain (styled false), where
// text[:used] holds the row, a byte per cell (0 = empty cell) and every
// cell at and after used is empty; and styled, where cells (width long)
// holds it. cells and text are nil until the form that needs them is first
// written; a plain row's cells, if allocated, are all zero Cells, so it
// turns styled by filling in its text (toCells).
type line struct {
	cells   []Cell
	text    []byte // the plain form; bytes at and after used are stale
	width   int    // the screen's width: len(cells) once allocated
	wrapped bool   // the text continues on the next row (autowrap happened here)
	ver     uint64 // Terminal.ver when last modified
	// used bounds the written part of the row: every cell at and after it
	// is the zero Cell. It may be larger than needed, never smaller; every
	// write that can leave a non-zero cell raises it (mark). Erasing and
	// compacting a row then skip its untouched tail, which on a flood of
	// short lines is most of the row.
	used int
	// styled is false only while every cell of the row is either empty (the
	// zero Cell) or a narrow printable ASCII character in the default style
	// with no link: then the row is its text. Writes of anything else turn
	// the row into cells (toCells); an erase that leaves the row empty makes
	// it plain again.
	styled bool
	// holes is set when a plain row's text may hold a 0 byte (an empty
	// cell) before used: a write that started past used, an erase in the
	// middle. Without holes a row goes to the scrollback as a plain copy.
	holes bool
}

// newLine is a blank row of width cells that holds no storage yet.
func newLine(width int) line { return line{width: width} }

// mark records that cells before to may be non-zero.
func (l *line) mark(to int) {
	if to > l.used {
		l.used = min(to, l.width)
	}
}

// toCells turns a plain row into cells (allocating them on first use) and
// returns them; a styled row's cells are returned as they are. Every write
// of anything but default-style ASCII goes through it.
func (l *line) toCells() []Cell {
	if l.styled {
		return l.cells
	}
	if l.cells == nil {
		l.cells = make([]Cell, l.width)
	}
	for i, b := range l.text[:l.used] {
		l.cells[i] = Cell{r: rune(b)} // 0 stays the empty cell
	}
	l.styled = true
	return l.cells
}

// plainText returns a plain row's text, allocating it on first use, with
// the bytes from used up to to zeroed (they are stale) so that a write at
// or before to leaves no gap of stale bytes.
func (l *line) plainText(to int) []byte {
	if l.text == nil {
		l.text = make([]byte, l.width)
	}
	if to > l.used {
		clear(l.text[l.used:to])
		l.holes = true
	}
	return l.text
}

// appendCells appends the row's cells (width of them) to out, in either
// form, without changing the row.
func (l *line) appendCells(out []Cell) []Cell {
	if l.styled {
		return append(out, l.cells...)
	}
	start := len(out)
	out = append(out, make([]Cell, l.width)...)
	row := out[start:]
	for i, b := range l.text[:l.used] {
		row[i] = Cell{r: rune(b)}
	}
	return out
}

// appendText appends the row's text as appendRowText has it for the row's
// cells (empty cells as spaces, trailing spaces trimmed), without
// expanding a plain row: its text is one ASCII byte per cell.
func (l *line) appendText(b []byte) []byte {
	if l.styled {
		return appendRowText(b, l.cells)
	}
	start := len(b)
	for _, c := range l.text[:l.used] {
		b = append(b, max(c, ' '))
	}
	end := len(b)
	for end > start && b[end-1] == ' ' {
		end--
	}
	return b[:end]
}

// empty reports whether every cell of the row is the zero Cell.
func (l *line) empty() bool {
	if !l.styled {
		for _, b := range l.text[:l.used] {
			if b != 0 {
				return false
			}
		}
		return true
	}
	return rowEmpty(l.cells)
}

// markAll makes every cell count as written (after a resize or reflow
// rebuilt the rows); rows that hold nothing stay empty and plain.
func (s *screen) markAll() {
	for i := range s.lines {
		l := &s.lines[i]
		l.width, l.text = s.cols, nil // text is reallocated at the new width when the row is next plain
		if l.cells == nil {
			l.styled, l.used = false, 0
			continue
		}
		l.used = len(l.cells)
		l.styled = true
	}
}

// screen is one buffer (main or alternate): a ring of rows, row y at
// lines[(head+y) % len(lines)].
type screen struct {
	lines []line
	head  int
	cols  int
	// moved is the Terminal.ver at which every row last counted as
	// modified (a scroll of the whole screen, a switch of screens, a
	// resize): rows need not each be marked.
	moved uint64
}

func newScreen(cols, rows int) *screen {
	s := &screen{lines: make([]line, rows), cols: cols}
	for i := range s.lines {
		s.lines[i] = newLine(cols)
	}
	return s
}

// row is row y of the screen (0 = top).
func (s *screen) row(y int) *line {
	i := s.head + y
	if i >= len(s.lines) {
		i -= len(s.lines)
	}
	return &s.lines[i]
}

// inOrder returns the rows top to bottom and makes that the storage order
// (head 0), for the code that rebuilds the screen (resize).
func (s *screen) inOrder() []line {
	if s.head != 0 {
		s.lines = append(s.lines[s.head:len(s.lines):len(s.lines)], s.lines[:s.head]...)
		s.head = 0
	}
	return s.lines
}

// clear erases every row with style st (only its background matters).
func (s *screen) clear(ver uint64, st Style) {
	for i := range s.lines {
		s.lines[i].erase(0, s.lines[i].width, ver, st)
		s.lines[i].wrapped = false
	}
}

// blank is the cell an erase leaves: empty, with the current background
// (xterm's and tmux's "background colour erase").
func blank(st Style) Cell {
	return Cell{style: Style{Bg: st.Bg}}
}

// erase blanks cells [from, to), first blanking both halves of any wide
// character the range would split.
func (l *line) erase(from, to int, ver uint64, st Style) {
	from, to = max(from, 0), min(to, l.width)
	if from >= to {
		return
	}
	l.breakAt(from)
	l.breakAt(to)
	l.blankRange(from, to, ver, st)
}

// eraseUnprotected blanks the cells of [from, to) that DECSCA did not
// protect (DECSED, DECSEL). Both halves of a wide character carry the same
// protection, so a wide character the range splits is blanked whole only
// when it is unprotected, and a protected one stays whole.
func (l *line) eraseUnprotected(from, to int, ver uint64, st Style) {
	from, to = max(from, 0), min(to, l.width)
	if from >= to {
		return
	}
	cells := l.toCells()
	for _, x := range [2]int{from, to} {
		if x < len(cells) && !cells[x].Protected() {
			l.breakAt(x)
		}
	}
	b := blank(st)
	if b != (Cell{}) {
		l.mark(to)
	}
	for x := from; x < to; x++ {
		if !cells[x].Protected() {
			cells[x] = b
		}
	}
	l.ver = ver
}

// blankRange blanks cells [from, to) as they are: the caller has kept wide
// characters whole (after a shift, the range holds stale copies).
func (l *line) blankRange(from, to int, ver uint64, st Style) {
	l.ver = ver
	if st.Bg != 0 {
		cells := l.toCells()[from:to]
		c := blank(st)
		for i := range cells {
			cells[i] = c
		}
		l.mark(to)
		return
	}
	if end := min(to, l.used); from < end { // the blank cell is the zero Cell; past used they all are
		switch {
		case l.styled:
			clear(l.cells[from:end])
		case to < l.used: // a plain row's bytes past used are stale anyway
			clear(l.text[from:end])
			l.holes = true
		}
	}
	if to >= l.used {
		l.used = min(l.used, from)
		l.styled = l.styled && l.used > 0 // an empty row is plain again: its cells are all zero
	}
	l.holes = l.holes && l.used > 0
}

// breakAt keeps wide characters whole: if a wide character straddles the
// boundary between x-1 and x, both its halves are blanked (keeping their
// background). Call it at both ends of any range about to change. A plain
// row has no wide characters.
func (l *line) breakAt(x int) {
	if !l.styled || x <= 0 || x >= len(l.cells) || l.cells[x].flags&flagCont == 0 {
		return
	}
	l.cells[x-1] = Cell{style: Style{Bg: l.cells[x-1].style.Bg}}
	l.cells[x] = Cell{style: Style{Bg: l.cells[x].style.Bg}}
}

// insertBlanks shifts cells at x right by n within [x, right) (ICH).
func (l *line) insertBlanks(x, n, right int, ver uint64, st Style) {
	if x >= right {
		return
	}
	n = min(n, right-x)
	cells := l.toCells()
	l.breakAt(x)
	l.breakAt(right)
	l.mark(min(right, l.used+n))
	copy(cells[x+n:right], cells[x:right-n])
	l.blankRange(x, x+n, ver, st)
	if last := &cells[right-1]; last.flags&flagWide != 0 {
		*last = blank(st) // its second half was pushed out
	}
	l.ver = ver
}

// deleteCells removes n cells at x, pulling [x+n, right) left (DCH).
func (l *line) deleteCells(x, n, right int, ver uint64, st Style) {
	if x >= right {
		return
	}
	n = min(n, right-x)
	cells := l.toCells()
	l.breakAt(x)
	l.breakAt(x + n)
	l.breakAt(right)
	copy(cells[x:right-n], cells[x+n:right])
	l.blankRange(right-n, right, ver, st)
	l.ver = ver
}

// whole reports whether [top, bot] is every row of the screen.
func (s *screen) whole(top, bot int) bool { return top == 0 && bot == len(s.lines)-1 }

// scrollUp moves rows [top, bot] up by n, blanking n rows at the bottom. The
// rows that leave go to out (when not nil) before their storage is reused.
// The whole screen scrolls by moving the ring's head.
func (s *screen) scrollUp(top, bot, n int, ver uint64, st Style, out *scrollback) {
	n = min(n, bot-top+1)
	for i := 0; i < n; i++ {
		gone := s.row(top)
		if out != nil {
			out.pushLine(gone)
		}
		gone.erase(0, gone.width, ver, st)
		gone.wrapped = false
		if s.whole(top, bot) {
			s.head++
			if s.head == len(s.lines) {
				s.head = 0
			}
			continue
		}
		blanked := *gone
		for y := top; y < bot; y++ {
			*s.row(y) = *s.row(y + 1)
		}
		*s.row(bot) = blanked
	}
	s.touch(top, bot, ver)
}

// scrollDown moves rows [top, bot] down by n, blanking n rows at the top.
func (s *screen) scrollDown(top, bot, n int, ver uint64, st Style) {
	n = min(n, bot-top+1)
	for i := 0; i < n; i++ {
		gone := *s.row(bot)
		gone.erase(0, gone.width, ver, st)
		gone.wrapped = false
		if s.whole(top, bot) {
			s.head = (s.head + len(s.lines) - 1) % len(s.lines)
			*s.row(0) = gone
			continue
		}
		for y := bot; y > top; y-- {
			*s.row(y) = *s.row(y - 1)
		}
		*s.row(top) = gone
	}
	s.touch(top, bot, ver)
}

// touch marks rows [top, bot] modified.
func (s *screen) touch(top, bot int, ver uint64) {
	if s.whole(top, bot) {
		s.moved = ver
		return
	}
	for y := top; y <= bot; y++ {
		s.row(y).ver = ver
	}
}

// changedSince reports whether row y was modified at or after ver.
func (s *screen) changedSince(y int, ver uint64) bool {
	return s.moved >= ver || s.row(y).ver >= ver
}
