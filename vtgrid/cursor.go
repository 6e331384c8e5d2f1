package vtgrid

// This file holds the cursor, its saved copies (DECSC), character sets and
// every cursor movement. Movements clamp to the screen (or to the scroll
// region where the operation says so) and end a pending wrap.

type charset uint8

const (
	charsetASCII charset = iota
	charsetDEC           // DEC special graphics (line drawing)
)

// cursor is the position plus everything that travels with it.
type cursor struct {
	x, y     int
	st       Style
	link     uint16
	wrapNext bool // a character was printed in the last column; the next one wraps first
	g        [4]charset
	gl       uint8     // which of g is invoked into GL (SI = 0, SO = 1)
	prot     cellFlags // flagProtected while DECSCA 1 is in force, else 0
}

// savedCursor is DECSC's copy.
type savedCursor struct {
	cur    cursor
	origin bool
	valid  bool
}

// screenIndex is 0 for the main screen and 1 for the alternate one.
func (t *Terminal) screenIndex() int {
	if t.scr == t.alt {
		return 1
	}
	return 0
}

func (t *Terminal) saveCursor() {
	t.saved[t.screenIndex()] = savedCursor{cur: t.cur, origin: t.modes.Origin, valid: true}
}

func (t *Terminal) restoreCursor() {
	s := t.saved[t.screenIndex()]
	if !s.valid {
		t.cur.x, t.cur.y, t.cur.wrapNext = 0, 0, false
		t.cur.st, t.cur.link = Style{}, 0
		t.modes.Origin = false
		return
	}
	t.cur = s.cur
	t.cur.wrapNext = false // like tmux, a restored cursor sits in the last column, not past it
	t.modes.Origin = s.origin
	t.cur.x = min(t.cur.x, t.cols-1)
	t.cur.y = min(t.cur.y, t.rows-1)
}

// moveTo puts the cursor at (x, y) of the screen, clamped; it ends a pending
// wrap.
func (t *Terminal) moveTo(x, y int) {
	t.cur.x = clamp(x, 0, t.cols-1)
	t.cur.y = clamp(y, 0, t.rows-1)
	t.cur.wrapNext = false
}

// moveToOrigin is CUP: coordinates relative to the scroll region in origin
// mode, where the cursor also cannot leave the region.
func (t *Terminal) moveToOrigin(x, y int) {
	if !t.modes.Origin {
		t.moveTo(x, y)
		return
	}
	t.moveTo(x, clamp(y+t.top, t.top, t.bot))
}

// moveToRow is VPA: a new row, same column; a pending wrap stays pending
// (tmux keeps the cursor past the last column).
func (t *Terminal) moveToRow(y int) {
	if t.modes.Origin {
		y = clamp(y+t.top, t.top, t.bot)
	}
	t.cur.y = clamp(y, 0, t.rows-1)
}

// moveLeft is CUB; from a pending wrap it counts from past the last column.
func (t *Terminal) moveLeft(n int) {
	x := t.cur.x
	if t.cur.wrapNext {
		x = t.cols
	}
	t.moveTo(x-n, t.cur.y)
}

// moveRight is CUF; a pending wrap stays pending, as in tmux.
func (t *Terminal) moveRight(n int) {
	if !t.cur.wrapNext {
		t.moveTo(t.cur.x+n, t.cur.y)
	}
}

// moveUp is CUU: it stops at the top margin if the cursor is inside the
// region, else at the screen's top.
func (t *Terminal) moveUp(n int) {
	limit := 0
	if t.cur.y >= t.top {
		limit = t.top
	}
	t.moveTo(t.cur.x, max(t.cur.y-n, limit))
}

// moveDown is CUD, mirroring moveUp at the bottom margin.
func (t *Terminal) moveDown(n int) {
	limit := t.rows - 1
	if t.cur.y <= t.bot {
		limit = t.bot
	}
	t.moveTo(t.cur.x, min(t.cur.y+n, limit))
}

// index is IND / LF: down one row, scrolling the region at its bottom.
func (t *Terminal) index() {
	switch {
	case t.cur.y == t.bot:
		t.scrollUp(1)
	case t.cur.y < t.rows-1:
		t.cur.y++
	}
}

// reverseIndex is RI: up one row, scrolling the region down at its top.
func (t *Terminal) reverseIndex() {
	switch {
	case t.cur.y == t.top:
		t.scrollDown(1)
	case t.cur.y > 0:
		t.cur.y--
	}
}

// scrollUp scrolls the region up n rows; rows leaving a full-screen region of
// the main screen go to the scrollback (as tmux does).
func (t *Terminal) scrollUp(n int) {
	var out *scrollback
	if t.scr == t.main && t.top == 0 && t.bot == t.rows-1 && t.sb.max > 0 {
		out = &t.sb
	}
	t.scr.scrollUp(t.top, t.bot, n, t.ver, t.cur.st, out)
}

func (t *Terminal) scrollDown(n int) {
	t.scr.scrollDown(t.top, t.bot, n, t.ver, t.cur.st)
}

// carriageReturn is CR.
func (t *Terminal) carriageReturn() {
	t.cur.x = 0
	t.cur.wrapNext = false
}

// backspace is BS; like tmux, it ends a pending wrap in the last column and
// moves back onto a soft-wrapped line from column 0.
func (t *Terminal) backspace() {
	switch {
	case t.cur.wrapNext:
		t.cur.wrapNext = false
	case t.cur.x > 0:
		t.cur.x--
	case t.cur.y > 0 && t.scr.row(t.cur.y-1).wrapped:
		t.cur.y--
		t.cur.x = t.cols - 1
	}
}

func (t *Terminal) resetTabs() {
	t.tabs = make([]bool, t.cols)
	for x := 8; x < t.cols; x += 8 {
		t.tabs[x] = true
	}
}

// tabForward is HT / CHT.
func (t *Terminal) tabForward(n int) {
	if t.cur.wrapNext {
		return
	}
	for ; n > 0 && t.cur.x < t.cols-1; n-- {
		t.cur.x++
		for t.cur.x < t.cols-1 && !t.tabs[t.cur.x] {
			t.cur.x++
		}
	}
}

// tabBackward is CBT.
func (t *Terminal) tabBackward(n int) {
	t.cur.wrapNext = false
	for ; n > 0 && t.cur.x > 0; n-- {
		t.cur.x--
		for t.cur.x > 0 && !t.tabs[t.cur.x] {
			t.cur.x--
		}
	}
}

func clamp(v, lo, hi int) int {
	return max(lo, min(v, hi))
}
