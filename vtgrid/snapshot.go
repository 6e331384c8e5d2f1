package vtgrid

// This file makes snapshots: immutable copies of the visible screen that may
// cross goroutines. A row unchanged since the previous snapshot shares its
// cells with it, so a snapshot costs only the rows that changed, and the
// changed rows are the dirty set a renderer or a remote client needs.

// Snapshot is an immutable picture of the screen at one moment.
type Snapshot struct {
	cols, rows int
	grid       [][]Cell // rows; shared with other snapshots, never written
	wrapped    []bool
	dirty      []bool
	// history holds scrollback rows, oldest first (only with
	// SnapshotScrollback): the compact rows themselves, which are immutable
	// once pushed, so taking them costs a copy of their headers and every
	// expansion or rendering happens outside the terminal's lock.
	history    []compactLine
	cx, cy     int
	modes      Modes
	title, cwd string
	links      []string
	seq        uint64
}

// Snapshot copies the visible screen. Rows that changed since the previous
// call are marked dirty; the first snapshot has every row dirty.
func (t *Terminal) Snapshot() *Snapshot {
	prev := t.prevSnap
	s := &Snapshot{
		cols: t.cols, rows: t.rows,
		grid:    make([][]Cell, t.rows),
		wrapped: make([]bool, t.rows),
		dirty:   make([]bool, t.rows),
		cx:      t.cur.x, cy: t.cur.y,
		modes: t.modes,
		title: t.title, cwd: t.cwd,
		links: t.links.list[:len(t.links.list):len(t.links.list)],
		seq:   t.ver,
	}
	reuse := prev != nil && prev.cols == t.cols && prev.rows == t.rows
	for y := range t.rows {
		if reuse && !t.scr.changedSince(y, t.ver) {
			s.grid[y], s.wrapped[y] = prev.grid[y], prev.wrapped[y]
			continue
		}
		l := t.scr.row(y)
		s.grid[y] = snapRow(l)
		s.wrapped[y] = l.wrapped
		s.dirty[y] = true
	}
	t.ver++
	t.prevSnap = s
	return s
}

// blankCells backs every blank row of every snapshot up to its width: it
// is never written (snapshot rows are immutable), and a row is blank in
// most of an idle shell's screen. In .bss, it costs no memory until read,
// and then only the zero page.
var blankCells [1024]Cell

// snapRow is a snapshot's copy of l: the shared blank row when l is blank
// and does not wrap (renderers compare rows by identity, and a wrapped
// blank row differs from an unwrapped one).
func snapRow(l *line) []Cell {
	if l.width <= len(blankCells) && !l.wrapped && l.empty() {
		return blankCells[:l.width:l.width]
	}
	return l.appendCells(make([]Cell, 0, l.width))
}

// AppendText appends the visible screen's text as Snapshot.Text has it,
// without taking a snapshot: a reader that only searches the text (a wait
// for a text, on every change of a flooding pane) copies no cells and
// leaves the baseline of the next snapshot alone.
func (t *Terminal) AppendText(b []byte) []byte {
	for y := range t.rows {
		if y > 0 {
			b = append(b, '\n')
		}
		b = t.scr.row(y).appendText(b)
	}
	return b
}

// DropSnapshot forgets the last snapshot, whose rows the next one reuses:
// a terminal nobody watches need not keep a copy of its screen. The next
// snapshot copies every row and marks them all dirty, as the first does.
func (t *Terminal) DropSnapshot() { t.prevSnap = nil }

// SnapshotScrollback is Snapshot plus the newest n scrollback rows (all of
// them when n < 0), for capture and copy mode. It copies references to the
// rows, not their cells: cheap enough to take under a pane's lock.
func (t *Terminal) SnapshotScrollback(n int) *Snapshot {
	s := t.Snapshot()
	total := t.sb.len()
	if n < 0 || n > total {
		n = total
	}
	s.history = make([]compactLine, n)
	for i := range n {
		s.history[i] = *t.sb.at(total - n + i)
	}
	return s
}

// Cwd is the working directory the program last reported (OSC 7, a
// file:// URL), or "".
func (t *Terminal) Cwd() string { return t.cwd }

// ScrollbackLen is the number of rows in the scrollback.
func (t *Terminal) ScrollbackLen() int { return t.sb.len() }

// ScrollbackBounds returns the absolute numbers of the oldest scrollback row
// held and of the next row to be scrolled off. Row numbers count every row
// that ever entered the scrollback, so a client can page through history
// while more output arrives.
func (t *Terminal) ScrollbackBounds() (oldest, end uint64) { return t.sb.bounds() }

// ScrollbackRows returns up to n scrollback rows starting at absolute row
// from (clamped to what is held), with their soft-wrap flags and the
// absolute number of the first row returned.
func (t *Terminal) ScrollbackRows(from uint64, n int) (rows [][]Cell, wrapped []bool, first uint64) {
	oldest, end := t.sb.bounds()
	first = min(max(from, oldest), end)
	count := min(uint64(max(n, 0)), end-first)
	for i := uint64(0); i < count; i++ {
		cl := t.sb.at(int(first - oldest + i))
		rows = append(rows, cl.expand())
		wrapped = append(wrapped, cl.wrapped())
	}
	return rows, wrapped, first
}

// Cols is the snapshot's width.
func (s *Snapshot) Cols() int { return s.cols }

// Rows is the snapshot's height.
func (s *Snapshot) Rows() int { return s.rows }

// Cell returns the cell at (x, y); out of range gives an empty cell.
func (s *Snapshot) Cell(x, y int) Cell {
	if y < 0 || y >= s.rows || x < 0 || x >= s.cols {
		return Cell{}
	}
	return s.grid[y][x]
}

// Row returns row y's cells. The slice is shared: callers must not modify it.
func (s *Snapshot) Row(y int) []Cell { return s.grid[y] }

// Wrapped reports whether row y continues on the next row (soft wrap).
func (s *Snapshot) Wrapped(y int) bool { return s.wrapped[y] }

// Dirty reports whether row y changed since the previous snapshot.
func (s *Snapshot) Dirty(y int) bool { return s.dirty[y] }

// DirtyRows lists the rows that changed since the previous snapshot.
func (s *Snapshot) DirtyRows() []int {
	var out []int
	for y, d := range s.dirty {
		if d {
			out = append(out, y)
		}
	}
	return out
}

// Cursor returns the cursor position and whether it is visible.
func (s *Snapshot) Cursor() (x, y int, visible bool) {
	return s.cx, s.cy, s.modes.CursorVisible
}

// Modes returns the terminal modes at the time of the snapshot.
func (s *Snapshot) Modes() Modes { return s.modes }

// Title is the last OSC 0/2 title.
func (s *Snapshot) Title() string { return s.title }

// Cwd is the last OSC 7 working directory URL.
func (s *Snapshot) Cwd() string { return s.cwd }

// Link returns the URI of hyperlink id (from a cell), or "".
func (s *Snapshot) Link(id uint16) string {
	if id == 0 || int(id) > len(s.links) {
		return ""
	}
	_, uri, _ := cutLink(s.links[id-1])
	return uri
}

// Seq orders snapshots of one terminal.
func (s *Snapshot) Seq() uint64 { return s.seq }

// HistoryLen is the number of scrollback rows the snapshot carries.
func (s *Snapshot) HistoryLen() int { return len(s.history) }

// HistoryRow returns scrollback row i (0 = oldest carried), unpadded, in
// a new slice.
func (s *Snapshot) HistoryRow(i int) []Cell { return s.history[i].expand() }

// cutLink splits an interned link key into its params and URI.
func cutLink(key string) (params, uri string, ok bool) {
	for i := 0; i < len(key); i++ {
		if key[i] == ';' {
			return key[:i], key[i+1:], true
		}
	}
	return "", key, false
}

// LinkID reports the hyperlink id of the cell (0 = none).
func (c Cell) LinkID() uint16 { return c.link }
