package vtgrid

// This file serializes a Terminal's whole state and restores it, so that a
// process that execs itself (clowder host upgrade) carries on exactly where
// it stopped: both screens with their rows and soft wraps, the scrollback
// and its row numbers, the cursor with its pen, charsets and pending wrap,
// both saved cursors, the scroll region, tab stops, every mode, title, cwd,
// hyperlinks, the colours queries answer, and the parser in the middle of
// an escape sequence, a string or a UTF-8 character. A terminal restored
// from a state and fed the rest of a stream ends exactly as the one that
// wrote the state and was fed the same rest.
//
// The format is binary: a magic string, a version, then varints. Multi-rune
// graphemes travel as their text (the intern table is per process). It
// reads the terminal's internals only through the small accessors at the
// end of this file.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"
)

// stateMagic starts every serialized state.
const stateMagic = "vtgrid-state\n"

// StateVersion is the version of the state AppendState writes; RestoreState
// reads this version only.
const StateVersion = 1

// maxStateCells bounds cols x rows of a restored state, so that a corrupt
// state cannot make RestoreState allocate without bound (each row also
// takes at least two bytes of the state).
const maxStateCells = 1 << 22

// AppendState appends the terminal's whole state to b. The callbacks of
// Options (Reply, Event) and the clipboard switch are not state: the
// terminal a state is restored into keeps its own.
func (t *Terminal) AppendState(b []byte) []byte {
	e := &stateEnc{b: append(b, stateMagic...)}
	e.uv(StateVersion)
	e.int(t.cols)
	e.int(t.rows)
	e.uv(t.ver)
	e.screen(t.main, t.cols)
	e.bool(t.alt != nil)
	if t.alt != nil {
		e.screen(t.alt, t.cols)
	}
	e.bool(t.scr == t.alt)
	t.encodeScrollback(e)
	t.encodeCursors(e)
	t.encodeParser(e)
	t.encodeStrings(e)
	e.colors(t.Colors())
	return e.b
}

// RestoreState replaces t's state (its size included) with the one data
// holds. On error t is unchanged.
func (t *Terminal) RestoreState(data []byte) error {
	n, err := decodeState(data, t.options())
	if err != nil {
		return fmt.Errorf("restore the terminal state: %w", err)
	}
	*t = *n
	return nil
}

// decodeState builds a new terminal from data, with opts' callbacks.
func decodeState(data []byte, opts Options) (*Terminal, error) {
	if len(data) < len(stateMagic) || string(data[:len(stateMagic)]) != stateMagic {
		return nil, errors.New("not a vtgrid state")
	}
	d := &stateDec{b: data[len(stateMagic):]}
	if v := d.uv(); d.err == nil && v != StateVersion {
		return nil, fmt.Errorf("state version %d, but this vtgrid reads %d", v, StateVersion)
	}
	cols, rows := d.int(), d.int()
	if d.err == nil && (cols < 1 || rows < 1 || cols > maxStateCells || rows > len(d.b)/2 || cols*rows > maxStateCells) {
		return nil, fmt.Errorf("screen size %dx%d out of range", cols, rows)
	}
	if d.err != nil {
		return nil, d.err
	}
	t := New(cols, rows, opts)
	t.decodeBody(d)
	if d.err == nil && len(d.b) != 0 {
		d.fail("%d bytes after the state", len(d.b))
	}
	return t, d.err
}

// decodeBody reads everything after the size into t, a new terminal.
func (t *Terminal) decodeBody(d *stateDec) {
	t.ver = d.uv()
	d.screen(t.main, t.cols, t.ver)
	t.alt = nil
	if d.bool() {
		t.alt = newScreen(t.cols, t.rows)
		d.screen(t.alt, t.cols, t.ver)
	}
	t.scr = t.main
	if d.bool() {
		if t.alt == nil {
			d.fail("the alternate screen is active but absent")
			return
		}
		t.scr = t.alt
	}
	t.decodeScrollback(d)
	t.decodeCursors(d)
	t.decodeParser(d)
	t.decodeStrings(d)
	t.SetColors(d.colors())
}

// encodeScrollback writes the scrollback's bound, its absolute row
// numbers and its rows, oldest first.
func (t *Terminal) encodeScrollback(e *stateEnc) {
	oldest, end := t.ScrollbackBounds()
	e.int(t.sb.max)
	e.uv(oldest)
	e.uv(end - oldest)
	var buf []Cell
	for i := range int(end - oldest) {
		var wrapped bool
		buf, wrapped = t.sb.stateRow(i, buf[:0])
		e.row(buf, wrapped)
	}
}

func (t *Terminal) decodeScrollback(d *stateDec) {
	t.sb = scrollback{max: max(d.int(), 0)}
	t.opts.ScrollbackLines = t.sb.max
	if t.sb.max == 0 {
		t.opts.ScrollbackLines = -1
	}
	oldest, n := d.uv(), d.count(2)
	t.sb.restoreStart(oldest)
	var buf []Cell
	for range n {
		cells, wrapped := d.row(-1, buf[:0])
		if d.err != nil {
			return
		}
		t.sb.restoreRow(cells, wrapped)
		buf = cells
	}
}

// encodeCursors writes the cursor, both saved cursors, the scroll region,
// the tab stops and the modes.
func (t *Terminal) encodeCursors(e *stateEnc) {
	e.cursor(&t.cur)
	for i := range t.saved {
		e.bool(t.saved[i].valid)
		e.bool(t.saved[i].origin)
		e.cursor(&t.saved[i].cur)
	}
	e.int(t.top)
	e.int(t.bot)
	e.bits(t.tabs)
	e.modes(&t.modes)
}

func (t *Terminal) decodeCursors(d *stateDec) {
	t.cur = d.cursor(t.cols, t.rows)
	for i := range t.saved {
		t.saved[i].valid = d.bool()
		t.saved[i].origin = d.bool()
		t.saved[i].cur = d.cursor(t.cols, t.rows)
	}
	t.top, t.bot = d.int(), d.int()
	if d.err == nil && (t.top < 0 || t.top > t.bot || t.bot >= t.rows) {
		d.fail("scroll region %d-%d outside %d rows", t.top, t.bot, t.rows)
	}
	if tabs := d.bits(); d.err == nil {
		if len(tabs) != t.cols {
			d.fail("%d tab stops for %d columns", len(tabs), t.cols)
			return
		}
		t.tabs = tabs
	}
	t.modes = d.modes()
}

// encodeParser writes the parser's state: an escape sequence, a string or
// a UTF-8 character may be half read.
func (t *Terminal) encodeParser(e *stateEnc) {
	e.uv(uint64(t.state))
	p := &t.p
	e.int(p.n)
	e.bool(p.has)
	e.int(p.nint)
	e.uv(uint64(p.priv))
	e.bytes(p.inter[:])
	for i := range p.count() {
		e.int(int(p.v[i]))
		e.bool(p.sub[i])
	}
	e.bytes(t.str)
	e.uv(uint64(t.strCmd))
	e.bytes(t.utf8[:t.nutf8])
	e.uv(uint64(t.last))
	e.bool(t.join)
}

func (t *Terminal) decodeParser(d *stateDec) {
	if t.state = pState(d.uv()); t.state >= nStates {
		d.fail("parser state %d", t.state)
	}
	p := &t.p
	p.n, p.has, p.nint = d.int(), d.bool(), d.int()
	p.priv = byte(d.uv())
	copy(p.inter[:], d.bytes())
	if d.err == nil && (p.n < 0 || p.nint < 0) {
		d.fail("parser counts %d, %d", p.n, p.nint)
		return
	}
	for i := range p.count() {
		p.v[i] = int32(min(d.int(), maxParamValue))
		p.sub[i] = d.bool()
	}
	t.str = append(t.str[:0], d.bytes()...)
	t.strCmd = byte(d.uv())
	u := d.bytes()
	if d.err == nil && len(u) >= utf8.UTFMax {
		d.fail("%d pending UTF-8 bytes", len(u))
		return
	}
	t.nutf8 = copy(t.utf8[:], u)
	t.last = rune(d.uv())
	t.join = d.bool()
}

// encodeStrings writes the title, cwd and hyperlink table.
func (t *Terminal) encodeStrings(e *stateEnc) {
	e.str(t.title)
	e.str(t.cwd)
	e.uv(uint64(len(t.links.list)))
	for _, l := range t.links.list {
		e.str(l)
	}
}

func (t *Terminal) decodeStrings(d *stateDec) {
	t.title, t.cwd = d.str(), d.str()
	t.links = linkTable{}
	n := d.count(1)
	if n > maxLinks {
		d.fail("%d hyperlinks", n)
		return
	}
	for range n {
		key := d.str()
		if d.err != nil {
			return
		}
		params, uri, _ := cutLink(key)
		t.links.intern(params, uri)
	}
}

// stateEnc appends varints to b.
type stateEnc struct{ b []byte }

func (e *stateEnc) uv(v uint64)    { e.b = binary.AppendUvarint(e.b, v) }
func (e *stateEnc) int(v int)      { e.b = binary.AppendVarint(e.b, int64(v)) }
func (e *stateEnc) str(s string)   { e.uv(uint64(len(s))); e.b = append(e.b, s...) }
func (e *stateEnc) bytes(p []byte) { e.uv(uint64(len(p))); e.b = append(e.b, p...) }

func (e *stateEnc) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
		return
	}
	e.b = append(e.b, 0)
}

// bits writes a []bool as its length and packed bytes.
func (e *stateEnc) bits(v []bool) {
	e.uv(uint64(len(v)))
	var cur byte
	for i, on := range v {
		if on {
			cur |= 1 << (i % 8)
		}
		if i%8 == 7 || i == len(v)-1 {
			e.b = append(e.b, cur)
			cur = 0
		}
	}
}

func (e *stateEnc) style(s Style) {
	e.uv(uint64(s.Fg))
	e.uv(uint64(s.Bg))
	e.uv(uint64(s.UnderlineColor))
	e.uv(uint64(s.Attrs))
	e.uv(uint64(s.Underline))
}

func (e *stateEnc) colors(c Colors) {
	e.uv(uint64(c.Foreground))
	e.uv(uint64(c.Background))
	e.uv(uint64(c.Cursor))
	for _, p := range c.Palette {
		e.uv(uint64(p))
	}
}

// screen writes every row of s.
func (e *stateEnc) screen(s *screen, cols int) {
	for y := range s.lines {
		cells, wrapped := s.row(y).stateCells()
		e.row(cells[:min(len(cells), cols)], wrapped)
	}
}

// Cell header bits: what follows the header byte.
const (
	cellNewStyle = 1 << iota // a style (else the previous cell's)
	cellNewLink              // a link id (else the previous cell's)
	cellCluster              // the grapheme's text (else its rune)
	cellFlagged              // a flags byte (else none)
)

// row writes a row's cells, trailing zero cells dropped; each cell's style
// and link only where they change.
func (e *stateEnc) row(cells []Cell, wrapped bool) {
	n := len(cells)
	for n > 0 && cells[n-1] == (Cell{}) {
		n--
	}
	e.bool(wrapped)
	e.uv(uint64(n))
	var prev cellParts
	for _, c := range cells[:n] {
		cp := c.parts()
		h := byte(0)
		if cp.st != prev.st {
			h |= cellNewStyle
		}
		if cp.link != prev.link {
			h |= cellNewLink
		}
		if cp.text != "" {
			h |= cellCluster
		}
		if cp.flags != 0 {
			h |= cellFlagged
		}
		e.b = append(e.b, h)
		e.cell(h, &cp)
		prev = cp
	}
}

// cell writes what c's header h announces.
func (e *stateEnc) cell(h byte, c *cellParts) {
	if h&cellCluster != 0 {
		e.str(c.text)
	} else {
		e.uv(uint64(c.r))
	}
	if h&cellNewStyle != 0 {
		e.style(c.st)
	}
	if h&cellNewLink != 0 {
		e.uv(uint64(c.link))
	}
	if h&cellFlagged != 0 {
		e.b = append(e.b, c.flags)
	}
}

func (e *stateEnc) cursor(c *cursor) {
	e.int(c.x)
	e.int(c.y)
	e.style(c.st)
	e.uv(uint64(c.link))
	e.bool(c.wrapNext)
	for _, g := range c.g {
		e.uv(uint64(g))
	}
	e.uv(uint64(c.gl))
	e.uv(uint64(c.prot))
}

// modeFlags lists the boolean modes in their order in the state.
func modeFlags(m *Modes) []*bool {
	return []*bool{&m.AppCursor, &m.AppKeypad, &m.Autowrap, &m.Origin, &m.Insert, &m.Newline,
		&m.CursorVisible, &m.CursorBlink, &m.AltScreen, &m.BracketedPaste, &m.Focus,
		&m.SyncOutput, &m.ReverseVideo, &m.AltScroll}
}

func (e *stateEnc) modes(m *Modes) {
	var bits uint64
	for i, f := range modeFlags(m) {
		if *f {
			bits |= 1 << i
		}
	}
	e.uv(bits)
	e.int(m.CursorStyle)
	e.uv(uint64(m.Mouse))
	e.uv(uint64(m.MouseEnc))
	e.int(m.ModifyOtherKeys)
	e.uv(uint64(m.KittyKeyboard))
	for _, k := range m.kitty {
		e.bytes(k.flags[:k.n])
	}
}

// stateDec reads what stateEnc wrote; the first error sticks and every
// later read returns zero values.
type stateDec struct {
	b   []byte
	err error
}

func (d *stateDec) fail(format string, a ...any) {
	if d.err == nil {
		d.err = fmt.Errorf(format, a...)
	}
}

func (d *stateDec) uv() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail("the state is cut short or corrupt")
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *stateDec) int() int {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 || v != int64(int(v)) {
		d.fail("the state is cut short or corrupt")
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

// count reads a number of items each at least minBytes long, refusing one
// the rest of the state cannot hold.
func (d *stateDec) count(minBytes int) int {
	n := d.uv()
	if d.err == nil && n > uint64(len(d.b)/minBytes) {
		d.fail("%d items cannot fit in %d bytes", n, len(d.b))
		return 0
	}
	return int(n)
}

func (d *stateDec) take(n int) []byte {
	if d.err != nil {
		return nil
	}
	if n > len(d.b) {
		d.fail("the state is cut short")
		return nil
	}
	p := d.b[:n:n]
	d.b = d.b[n:]
	return p
}

func (d *stateDec) bytes() []byte { return d.take(d.count(1)) }
func (d *stateDec) str() string   { return string(d.bytes()) }
func (d *stateDec) byte1() byte {
	if p := d.take(1); len(p) == 1 {
		return p[0]
	}
	return 0
}

func (d *stateDec) bool() bool { return d.byte1() != 0 }

func (d *stateDec) bits() []bool {
	n := d.uv()
	if d.err == nil && n > uint64(len(d.b))*8 {
		d.fail("%d bits cannot fit in %d bytes", n, len(d.b))
		return nil
	}
	packed := d.take(int(n+7) / 8)
	if d.err != nil {
		return nil
	}
	v := make([]bool, n)
	for i := range v {
		v[i] = packed[i/8]&(1<<(i%8)) != 0
	}
	return v
}

func (d *stateDec) color() Color { return Color(d.uv()) }

func (d *stateDec) style() Style {
	return Style{Fg: d.color(), Bg: d.color(), UnderlineColor: d.color(), Attrs: Attr(d.uv()), Underline: UnderlineStyle(d.uv())}
}

func (d *stateDec) colors() (c Colors) {
	c.Foreground, c.Background, c.Cursor = d.color(), d.color(), d.color()
	for i := range c.Palette {
		c.Palette[i] = d.color()
	}
	return c
}

// screen reads every row of s (a new screen of the terminal's size).
func (d *stateDec) screen(s *screen, cols int, ver uint64) {
	var buf []Cell
	for y := range s.lines {
		cells, wrapped := d.row(cols, buf[:0])
		if d.err != nil {
			return
		}
		s.row(y).restoreCells(cells, wrapped, ver)
		buf = cells
	}
}

// row reads a row of at most limit cells (no limit when negative) into
// buf's array when it is large enough.
func (d *stateDec) row(limit int, buf []Cell) ([]Cell, bool) {
	wrapped := d.bool()
	n := d.count(2)
	if d.err == nil && limit >= 0 && n > limit {
		d.fail("a row of %d cells on a screen of %d columns", n, limit)
	}
	if d.err != nil {
		return nil, false
	}
	cells := slices.Grow(buf[:0], n)[:n]
	var cp cellParts
	for i := range cells {
		d.cell(&cp)
		cells[i] = cp.cell()
	}
	if d.err == nil && !wholeWide(cells) {
		d.fail("a row with half a wide character")
	}
	return cells, wrapped
}

// wholeWide reports whether every wide character of the row has both its
// halves.
func wholeWide(cells []Cell) bool {
	for x, c := range cells {
		if c.Width() == 2 && (x+1 >= len(cells) || cells[x+1].Width() != 0) ||
			c.Width() == 0 && (x == 0 || cells[x-1].Width() != 2) {
			return false
		}
	}
	return true
}

// cell reads one cell into c, which holds the previous one: its style and
// link stay unless the header says they change.
func (d *stateDec) cell(c *cellParts) {
	h := d.byte1()
	c.r, c.text, c.flags = 0, "", 0
	if h&cellCluster != 0 {
		c.text = d.str()
	} else if c.r = rune(d.uv()); c.r >= clusterBase || c.r < 0 {
		d.fail("cell character %#x", c.r)
	}
	if h&cellNewStyle != 0 {
		c.st = d.style()
	}
	if h&cellNewLink != 0 {
		c.link = uint16(d.uv())
	}
	if h&cellFlagged != 0 {
		c.flags = d.byte1()
	}
}

// internCluster is the cell rune of grapheme s in this process's table.
func internCluster(s string) rune {
	if r, ok := clusters.intern(s); ok {
		return r
	}
	r, _ := utf8.DecodeRuneInString(s) // the table is full: the base character alone
	return r
}

func (d *stateDec) cursor(cols, rows int) cursor {
	c := cursor{x: d.int(), y: d.int(), st: d.style(), link: uint16(d.uv()), wrapNext: d.bool()}
	for i := range c.g {
		c.g[i] = charset(d.uv())
	}
	c.gl = uint8(d.uv())
	c.prot = cellFlags(d.uv())
	if d.err == nil && (c.x < 0 || c.x >= cols || c.y < 0 || c.y >= rows || c.gl >= uint8(len(c.g))) {
		d.fail("cursor %d,%d (GL %d) outside %dx%d", c.x, c.y, c.gl, cols, rows)
	}
	return c
}

func (d *stateDec) modes() Modes {
	var m Modes
	bits := d.uv()
	for i, f := range modeFlags(&m) {
		*f = bits&(1<<i) != 0
	}
	m.CursorStyle = d.int()
	m.Mouse = MouseMode(d.uv())
	m.MouseEnc = MouseEncoding(d.uv())
	m.ModifyOtherKeys = d.int()
	m.KittyKeyboard = uint8(d.uv())
	for i := range m.kitty {
		f := d.bytes()
		if len(f) > len(m.kitty[i].flags) {
			d.fail("a kitty keyboard stack of %d entries", len(f))
			break
		}
		m.kitty[i].n = copy(m.kitty[i].flags[:], f)
	}
	return m
}

// The accessors below are all this file knows of how cells, rows and the
// scrollback hold what they hold.

// cellParts is a cell as the state holds it: a multi-rune grapheme as its
// text rather than its index in this process's intern table.
type cellParts struct {
	r     rune   // the code point, 0 for none; unused when text is set
	text  string // a multi-rune grapheme, else ""
	st    Style
	link  uint16
	flags uint8 // wide halves and DECSCA protection, as the cell keeps them
}

// parts takes c apart for the state.
func (c Cell) parts() cellParts {
	cp := cellParts{r: c.r, st: c.style, link: c.link, flags: uint8(c.flags)}
	if c.r >= clusterBase {
		cp.r, cp.text = 0, clusters.get(c.r-clusterBase)
	}
	return cp
}

// cell puts cp together again, interning its grapheme in this process.
func (cp *cellParts) cell() Cell {
	c := Cell{r: cp.r, style: cp.st, link: cp.link, flags: cellFlags(cp.flags)}
	if cp.text != "" {
		c.r = internCluster(cp.text)
	}
	return c
}

// stateCells returns the row's cells (a copy for a plain row, which is its
// text: see line; not to be modified) and its soft-wrap flag.
func (l *line) stateCells() ([]Cell, bool) {
	if l.styled {
		return l.cells, l.wrapped
	}
	return l.appendCells(nil), l.wrapped
}

// restoreCells makes the row (of a new screen) hold cells from its first
// column, the rest empty.
func (l *line) restoreCells(cells []Cell, wrapped bool, ver uint64) {
	l.erase(0, l.width, ver, Style{})
	if n := min(len(cells), l.width); n > 0 {
		copy(l.toCells(), cells[:n])
		l.mark(n)
	}
	l.wrapped, l.ver = wrapped, ver
}

// stateRow appends scrollback row i (0 = the oldest held) to buf, as
// ScrollbackRows returns it, with its soft-wrap flag.
func (s *scrollback) stateRow(i int, buf []Cell) ([]Cell, bool) {
	cl := s.at(i)
	return cl.appendCells(buf), cl.wrapped()
}

// restoreStart makes the next row pushed row number oldest.
func (s *scrollback) restoreStart(oldest uint64) { s.pushed = oldest }

// restoreRow appends a row (its cells as ScrollbackRows returned them).
func (s *scrollback) restoreRow(cells []Cell, wrapped bool) {
	s.push(cells, len(cells), wrapped)
}
