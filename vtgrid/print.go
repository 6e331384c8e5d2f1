package vtgrid

// This file puts characters on the grid: the ASCII fast path, wide
// characters, combining marks and grapheme joining, autowrap and insert mode.

// printASCII prints a run of printable ASCII bytes. It is the hot path: a
// whole run is copied into the row at once when no mode needs per-character
// work.
func (t *Terminal) printASCII(run []byte) {
	if t.modes.Insert || t.cur.g[t.cur.gl] != charsetASCII {
		for _, b := range run {
			t.printRune(rune(b))
		}
		return
	}
	t.last = rune(run[len(run)-1])
	t.join = false
	for len(run) > 0 {
		if t.cur.wrapNext {
			if !t.modes.Autowrap {
				return // see putChar
			}
			t.wrap()
		}
		run = t.fillRow(run)
	}
}

// fillRow writes as much of run as fits from the cursor to the right margin
// and returns the rest.
func (t *Terminal) fillRow(run []byte) []byte {
	l := t.scr.row(t.cur.y)
	x := t.cur.x
	n := min(len(run), t.cols-x)
	c := Cell{style: t.cur.st, link: t.cur.link, flags: t.cur.prot}
	if c == (Cell{}) && !l.styled {
		copy(l.plainText(x)[x:x+n], run) // the common case: a plain row stays its text
	} else {
		t.fillCells(l, x, run[:n], c)
	}
	l.mark(x + n)
	l.ver = t.ver
	run = run[n:]
	if x+n < t.cols {
		t.cur.x = x + n
		return run
	}
	t.cur.x = t.cols - 1
	if t.modes.Autowrap {
		t.cur.wrapNext = true
		return run
	}
	if len(run) > 0 { // no autowrap: the last column takes each further character
		t.lastColumn(l, rune(run[len(run)-1]), c)
	}
	return nil
}

// fillCells writes src into the cells of row l from x in the template
// cell c's style.
func (t *Terminal) fillCells(l *line, x int, src []byte, c Cell) {
	all := l.toCells()
	l.breakAt(x)
	l.breakAt(x + len(src))
	cells := all[x : x+len(src)]
	src = src[:len(cells)] // same length: lets the compiler drop bounds checks
	if c == (Cell{}) {
		for i := range cells { // stores of constants and the character
			cells[i] = Cell{r: rune(src[i])}
		}
		return
	}
	for i := range cells {
		// The whole template, then its character: setting c.r first
		// and copying c made every cell a store-forwarding stall (a
		// 4-byte store read back as 16), the flood's largest cost.
		cells[i] = c
		cells[i].r = rune(src[i])
	}
}

// lastColumn puts r in the last column of l, in c's style (printing past
// the margin with autowrap off).
func (t *Terminal) lastColumn(l *line, r rune, c Cell) {
	if c == (Cell{}) && !l.styled {
		l.plainText(t.cols)[t.cols-1] = byte(r)
	} else {
		c.r = r
		l.toCells()[t.cols-1] = c
	}
	l.mark(t.cols)
}

// wrap moves to the start of the next row, marking this one soft-wrapped.
func (t *Terminal) wrap() {
	t.scr.row(t.cur.y).wrapped = true
	t.cur.wrapNext = false
	t.cur.x = 0
	t.index()
}

// printRune prints one character of any width.
func (t *Terminal) printRune(r rune) {
	t.last = 0 // tmux's REP repeats ASCII only (mapped through the charset again)
	if r < 0x80 {
		t.last = r
		if t.cur.g[t.cur.gl] == charsetDEC {
			r = decGraphics(r)
		}
	}
	if r >= 0x80 && r < 0xa0 { // C1 controls arriving as UTF-8 are not printable
		return
	}
	if t.join && extendedPictographic(r) {
		t.combine(r)
		return
	}
	w := runeWidth(r)
	if w == 0 {
		t.combine(r)
		return
	}
	t.join = false
	t.putChar(r, w)
}

// putChar places r (w columns) at the cursor and advances.
func (t *Terminal) putChar(r rune, w int) {
	if t.cur.wrapNext {
		if !t.modes.Autowrap {
			return // autowrap was turned off while a wrap was pending: tmux drops the character
		}
		t.wrap()
	}
	if w > t.cols {
		return
	}
	if t.cur.x+w > t.cols { // a wide character does not fit in the last column
		if !t.modes.Autowrap {
			return
		}
		t.scr.row(t.cur.y).erase(t.cur.x, t.cols, t.ver, t.cur.st)
		t.wrap()
	}
	l := t.scr.row(t.cur.y)
	if t.modes.Insert {
		l.insertBlanks(t.cur.x, w, t.cols, t.ver, t.cur.st)
	}
	t.setCell(l, r, w)
	t.advance(w)
}

func (t *Terminal) setCell(l *line, r rune, w int) {
	x := t.cur.x
	cells := l.toCells()
	l.breakAt(x)
	l.breakAt(x + w)
	c := Cell{r: r, style: t.cur.st, link: t.cur.link, flags: t.cur.prot}
	if w == 2 {
		c.flags |= flagWide
		cells[x+1] = Cell{style: t.cur.st, link: t.cur.link, flags: flagCont | t.cur.prot}
	}
	cells[x] = c
	l.mark(x + w)
	l.ver = t.ver
}

func (t *Terminal) advance(w int) {
	if t.cur.x+w < t.cols {
		t.cur.x += w
		return
	}
	t.cur.x = t.cols - 1
	t.cur.wrapNext = t.modes.Autowrap
}

// prevCell is the cell the last character went into, or nil.
func (t *Terminal) prevCell() *Cell {
	l := t.scr.row(t.cur.y)
	x := t.cur.x - 1
	if t.cur.wrapNext {
		x = t.cur.x
	}
	if x < 0 {
		return nil
	}
	cells := l.toCells()
	if cells[x].flags&flagCont != 0 && x > 0 {
		x--
	}
	l.mark(x + 1) // combine may give an empty cell a character
	l.ver = t.ver
	return &cells[x]
}

const zwj = 0x200d

// extendedPictographic approximates the Unicode property for the characters
// that join an emoji ZWJ sequence (UAX #29 rule GB11): a ZWJ between two
// letters does not join them.
func extendedPictographic(r rune) bool {
	return r >= 0x1F000 && r <= 0x1FAFF || r >= 0x2600 && r <= 0x27BF || r == 0x2B50 || r == 0x2B55
}

// combine attaches a zero-width character (or an emoji following a ZWJ) to
// the previous cell's grapheme.
func (t *Terminal) combine(r rune) {
	t.join = r == zwj
	c := t.prevCell()
	if c == nil {
		return
	}
	s := string(appendRune(appendRune(nil, max(c.r, ' ')), r)) // like tmux, a mark on an empty cell sits on a space
	if id, ok := clusters.intern(s); ok {
		c.r = id
	}
}
