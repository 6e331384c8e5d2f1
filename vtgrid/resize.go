package vtgrid

// This file resizes the terminal. The main screen reflows: soft-wrapped rows
// (scrollback included) are joined into logical lines and wrapped again at
// the new width, the cursor keeps its place in its logical line, and rows
// that no longer fit move into the scrollback (or come back from it when
// the screen grows), as tmux does. The alternate screen is cropped or
// padded: full-screen programs redraw on SIGWINCH.

// Resize changes the screen size (each at least 1).
func (t *Terminal) Resize(cols, rows int) {
	cols, rows = max(cols, 1), max(rows, 1)
	if cols == t.cols && rows == t.rows {
		return
	}
	// The main screen's cursor is the live one, or the one 1049 saved.
	mc := &t.cur
	if t.scr != t.main {
		mc = &t.saved[0].cur
	}
	t.main.inCells()
	mc.x, mc.y = t.reflowMain(cols, rows, mc)
	mc.wrapNext = false
	if t.alt != nil {
		cropScreen(t.alt, cols, rows)
	}
	t.cols, t.rows = cols, rows
	for _, c := range []*cursor{&t.cur, &t.saved[0].cur, &t.saved[1].cur} {
		c.x, c.y = clamp(c.x, 0, cols-1), clamp(c.y, 0, rows-1)
	}
	t.top, t.bot = 0, rows-1
	t.resizeTabs(cols)
	t.main.cols = cols
	t.main.touch(0, rows-1, t.ver)
	t.main.markAll()
	if t.alt != nil {
		t.alt.cols = cols
		t.alt.touch(0, rows-1, t.ver)
		t.alt.markAll()
	}
}

func (t *Terminal) resizeTabs(cols int) {
	old := t.tabs
	t.tabs = make([]bool, cols)
	copy(t.tabs, old)
	for x := len(old); x < cols; x++ {
		t.tabs[x] = x%8 == 0 && x > 0
	}
}

// cropScreen gives s the new size without reflow.
func cropScreen(s *screen, cols, rows int) {
	s.inCells()
	for len(s.lines) < rows {
		s.lines = append(s.lines, newLine(cols))
	}
	s.lines = s.lines[:rows]
	for i := range s.lines {
		if l := &s.lines[i]; l.cells != nil {
			l.cells = resizeCells(l.cells, cols)
		}
	}
}

// inCells puts the rows in storage order (inOrder) and turns every row
// holding anything into cells, the form resizing works on; rows that hold
// nothing stay without storage.
func (s *screen) inCells() {
	for i := range s.inOrder() {
		if l := &s.lines[i]; l.styled || l.used > 0 {
			l.toCells()
		}
	}
}

// cellsOrBlank is the row's cells, or new empty cells for a row that holds
// no storage (see inCells).
func (l *line) cellsOrBlank() []Cell {
	if l.cells == nil {
		return make([]Cell, l.width)
	}
	return l.cells
}

// resizeCells crops or pads a row, keeping wide characters whole.
func resizeCells(cells []Cell, cols int) []Cell {
	if cols <= len(cells) {
		out := cells[:cols:cols]
		if cols > 0 && out[cols-1].flags&flagWide != 0 {
			out[cols-1] = Cell{style: Style{Bg: out[cols-1].style.Bg}}
		}
		return out
	}
	out := make([]Cell, cols)
	copy(out, cells)
	return out
}

// logical is one unwrapped line while reflowing.
type logical struct {
	cells []Cell
}

// reflowMain rewraps the main screen and scrollback for the new size and
// returns the new position of cursor c.
func (t *Terminal) reflowMain(cols, rows int, c *cursor) (cx, cy int) {
	lines, curLine, curOff := t.collectLogical(c)
	var phys []line
	curRow, curCol := 0, 0
	for i, lg := range lines {
		start := len(phys)
		rowsOut, r, c := wrapLogical(lg.cells, cols, curOff, i == curLine)
		phys = append(phys, rowsOut...)
		if i == curLine {
			curRow, curCol = start+r, c
		}
	}
	// The screen shows the last rows, unless the cursor would fall above it.
	first := max(len(phys)-rows, 0)
	first = min(first, curRow)
	for _, l := range phys[:first] {
		t.sb.push(l.cells, len(l.cells), l.wrapped)
	}
	shown := phys[first:]
	shown = shown[:min(len(shown), rows)]
	t.main.lines = t.main.lines[:0]
	for _, l := range shown {
		l.cells = resizeCells(l.cells, cols)
		t.main.lines = append(t.main.lines, l)
	}
	for len(t.main.lines) < rows {
		t.main.lines = append(t.main.lines, newLine(cols))
	}
	return curCol, curRow - first
}

// collectLogical joins scrollback and screen rows into logical lines and
// finds the cursor in them. Empty rows below the cursor are dropped.
func (t *Terminal) collectLogical(c *cursor) (out []logical, curLine, curOff int) {
	last := len(t.main.lines) - 1
	for last > c.y && t.main.lines[last].empty() {
		last--
	}
	var cur logical
	add := func(cells []Cell, wrapped bool) {
		cur.cells = append(cur.cells, cells...)
		if !wrapped {
			out = append(out, trimLogical(cur))
			cur = logical{}
		}
	}
	for _, cl := range t.sb.takeAll() {
		add(cl.expand(), cl.wrapped())
	}
	for y := 0; y <= last; y++ {
		l := &t.main.lines[y]
		if y == c.y {
			curLine, curOff = len(out), len(cur.cells)+c.x
			if c.wrapNext {
				curOff++
			}
		}
		add(l.cellsOrBlank(), l.wrapped && y < last)
	}
	if len(cur.cells) > 0 {
		out = append(out, trimLogical(cur))
	}
	return out, curLine, curOff
}

func rowEmpty(cells []Cell) bool {
	for _, c := range cells {
		if c != (Cell{}) {
			return false
		}
	}
	return true
}

// trimLogical drops trailing empty default cells.
func trimLogical(lg logical) logical {
	n := len(lg.cells)
	for n > 0 && lg.cells[n-1] == (Cell{}) {
		n--
	}
	lg.cells = lg.cells[:n]
	return lg
}

// wrapLogical cuts a logical line into rows of at most cols cells, never
// splitting a wide character. When hasCursor, it also maps cursor offset
// off to (row, col) within the result.
func wrapLogical(cells []Cell, cols, off int, hasCursor bool) (rows []line, cr, cc int) {
	cur := line{cells: make([]Cell, 0, cols)}
	pos := 0 // offset in cells of the logical line
	place := func() {
		if hasCursor && pos == off {
			cr, cc = len(rows), len(cur.cells)
		}
	}
	for pos < len(cells) {
		c := cells[pos]
		w := max(c.Width(), 1)
		if len(cur.cells)+w > cols {
			cur.wrapped = true
			rows = append(rows, cur)
			cur = line{cells: make([]Cell, 0, cols)}
		}
		place()
		cur.cells = append(cur.cells, cells[pos:min(pos+w, len(cells))]...)
		pos += w
	}
	if hasCursor && off >= len(cells) { // the cursor is past the text: keep it on the last row
		cr, cc = len(rows), min(off-(len(cells)-len(cur.cells)), cols-1)
	}
	rows = append(rows, cur)
	return rows, cr, cc
}
