package vtgrid

// This file is the screen: rows of cells with a soft-wrap flag and the
// version that dirty tracking compares. Rows move as whole values when the
// screen scrolls; a row's cell slice is reused for the row that replaces it.

// line is one row of the grid.
type line struct {
	cells   []Cell
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
	// with no link: then compact copies its characters without comparing
	// styles. Writes of anything else set it; an erase that leaves the row
	// empty clears it.
	styled bool
}

// mark records that cells before to may be non-zero.
func (l *line) mark(to int) {
	if to > l.used {
		l.used = min(to, len(l.cells))
	}
}

// markAll makes every cell count as written (after a resize or reflow
// rebuilt the rows).
func (s *screen) markAll() {
	for i := range s.lines {
		s.lines[i].used = len(s.lines[i].cells)
		s.lines[i].styled = true
	}
}

// screen is one buffer (main or alternate).
type screen struct {
	lines []line
}

func newScreen(cols, rows int) *screen {
	s := &screen{lines: make([]line, rows)}
	for i := range s.lines {
		s.lines[i].cells = make([]Cell, cols)
	}
	return s
}

// clear erases every row with style st (only its background matters).
func (s *screen) clear(ver uint64, st Style) {
	for i := range s.lines {
		s.lines[i].erase(0, len(s.lines[i].cells), ver, st)
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
	from, to = max(from, 0), min(to, len(l.cells))
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
	from, to = max(from, 0), min(to, len(l.cells))
	if from >= to {
		return
	}
	for _, x := range [2]int{from, to} {
		if x < len(l.cells) && !l.cells[x].Protected() {
			l.breakAt(x)
		}
	}
	b := blank(st)
	if b != (Cell{}) {
		l.mark(to)
		l.styled = true
	}
	for x := from; x < to; x++ {
		if !l.cells[x].Protected() {
			l.cells[x] = b
		}
	}
	l.ver = ver
}

// blankRange blanks cells [from, to) as they are: the caller has kept wide
// characters whole (after a shift, the range holds stale copies).
func (l *line) blankRange(from, to int, ver uint64, st Style) {
	if st.Bg == 0 {
		clear(l.cells[from:min(to, max(l.used, from))]) // the blank cell is the zero Cell; past used they all are
		if to >= l.used {
			l.used = min(l.used, from)
			l.styled = l.styled && l.used > 0 // an empty row is plain again
		}
	} else {
		cells := l.cells[from:to]
		c := blank(st)
		for i := range cells {
			cells[i] = c
		}
		l.mark(to)
		l.styled = true
	}
	l.ver = ver
}

// breakAt keeps wide characters whole: if a wide character straddles the
// boundary between x-1 and x, both its halves are blanked (keeping their
// background). Call it at both ends of any range about to change.
func (l *line) breakAt(x int) {
	if x <= 0 || x >= len(l.cells) || l.cells[x].flags&flagCont == 0 {
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
	l.breakAt(x)
	l.breakAt(right)
	l.mark(min(right, l.used+n))
	copy(l.cells[x+n:right], l.cells[x:right-n])
	l.blankRange(x, x+n, ver, st)
	if last := &l.cells[right-1]; last.flags&flagWide != 0 {
		*last = blank(st) // its second half was pushed out
		l.styled = true
	}
	l.ver = ver
}

// deleteCells removes n cells at x, pulling [x+n, right) left (DCH).
func (l *line) deleteCells(x, n, right int, ver uint64, st Style) {
	if x >= right {
		return
	}
	n = min(n, right-x)
	l.breakAt(x)
	l.breakAt(x + n)
	l.breakAt(right)
	copy(l.cells[x:right-n], l.cells[x+n:right])
	l.blankRange(right-n, right, ver, st)
	l.ver = ver
}

// scrollUp moves rows [top, bot] up by n, blanking n rows at the bottom. The
// rows that leave go to out (when not nil) before their cells are reused.
func (s *screen) scrollUp(top, bot, n int, ver uint64, st Style, out *scrollback) {
	n = min(n, bot-top+1)
	for i := 0; i < n; i++ {
		gone := s.lines[top]
		if out != nil {
			out.push(gone.cells, gone.used, !gone.styled, gone.wrapped)
		}
		copy(s.lines[top:bot], s.lines[top+1:bot+1])
		gone.erase(0, len(gone.cells), ver, st)
		gone.wrapped = false
		s.lines[bot] = gone
	}
	s.touch(top, bot, ver)
}

// scrollDown moves rows [top, bot] down by n, blanking n rows at the top.
func (s *screen) scrollDown(top, bot, n int, ver uint64, st Style) {
	n = min(n, bot-top+1)
	for i := 0; i < n; i++ {
		gone := s.lines[bot]
		copy(s.lines[top+1:bot+1], s.lines[top:bot])
		gone.erase(0, len(gone.cells), ver, st)
		gone.wrapped = false
		s.lines[top] = gone
	}
	s.touch(top, bot, ver)
}

// touch marks rows [top, bot] modified.
func (s *screen) touch(top, bot int, ver uint64) {
	for i := top; i <= bot; i++ {
		s.lines[i].ver = ver
	}
}
