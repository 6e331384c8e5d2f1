package vtgrid

// This file erases: ED and EL, their selective forms DECSED and DECSEL that
// leave the cells DECSCA protected, the clears that keep the screen in the
// scrollback (ED 2, RIS, DECCOLM, as tmux's scroll-on-clear does), and
// DECCOLM itself. Erased cells take the current background (BCE).

// setProtection is DECSCA (CSI Ps " q): 1 protects the characters written
// from now on against selective erase; 0 and 2 stop protecting. Like xterm,
// only DECSED and DECSEL honour it; ED, EL and ECH erase protected cells.
func (t *Terminal) setProtection(ps int) {
	switch ps {
	case 0, 2:
		t.cur.prot = 0
	case 1:
		t.cur.prot = flagProtected
	}
}

// eraseDisplay is ED 0 (below), 1 (above), 2 (all), 3 (scrollback); with
// sel it is DECSED, which leaves protected cells and, since it does not
// clear the screen, keeps nothing in the scrollback. A pending wrap stays
// pending: the cursor counts as past the last column.
func (t *Terminal) eraseDisplay(mode int, sel bool) {
	switch mode {
	case 0:
		if t.cur.x == 0 && t.cur.y == 0 && !t.cur.wrapNext && !sel {
			t.keepScreenInScrollback() // from home it clears everything, as ED 2 does
		}
		t.eraseLine(0, sel)
		for y := t.cur.y + 1; y < t.rows; y++ {
			t.eraseRow(y, sel)
		}
	case 1:
		t.eraseLine(1, sel)
		for y := 0; y < t.cur.y; y++ {
			t.eraseRow(y, sel)
		}
	case 2:
		if !sel {
			t.keepScreenInScrollback()
		}
		for y := 0; y < t.rows; y++ {
			t.eraseRow(y, sel)
		}
	case 3:
		t.sb.clear()
	}
}

// keepScreenInScrollback moves the main screen's rows, down to the last one
// in use, into the scrollback before a full clear, as tmux's scroll-on-clear
// does: `clear` in a shell loses no output.
func (t *Terminal) keepScreenInScrollback() {
	if t.scr != t.main || t.sb.max == 0 {
		return
	}
	last := t.rows - 1
	for last >= 0 && t.scr.row(last).empty() {
		last--
	}
	for y := 0; y <= last; y++ {
		t.sb.pushLine(t.scr.row(y))
	}
}

func (t *Terminal) eraseRow(y int, sel bool) {
	l := t.scr.row(y)
	t.eraseSpan(l, 0, t.cols, sel)
	l.wrapped = false
}

// eraseSpan blanks [from, to) of l, all of it or (sel) its unprotected
// cells.
func (t *Terminal) eraseSpan(l *line, from, to int, sel bool) {
	if sel {
		l.eraseUnprotected(from, to, t.ver, t.cur.st)
		return
	}
	l.erase(from, to, t.ver, t.cur.st)
}

// eraseLine is EL 0 (right), 1 (left), 2 (all); with sel it is DECSEL.
func (t *Terminal) eraseLine(mode int, sel bool) {
	x := t.cur.x
	if t.cur.wrapNext {
		x = t.cols
	}
	l := t.scr.row(t.cur.y)
	switch mode {
	case 0:
		if x < t.cols {
			t.eraseSpan(l, x, t.cols, sel)
			l.wrapped = false
		}
	case 1:
		t.eraseSpan(l, 0, x+1, sel)
	case 2:
		t.eraseSpan(l, 0, t.cols, sel)
		l.wrapped = false
	}
}

// columnMode is DECCOLM (CSI ? 3 h and l). The width does not change: a
// pane's size is its client's, not the program's. What stays is what the
// VT100 does on the switch and programs rely on: the screen is cleared
// (its rows kept in the scrollback, as tmux does), the margins are reset
// (as the VT100 and xterm do; tmux 3.3a keeps them) and the cursor homes.
func (t *Terminal) columnMode() {
	t.keepScreenInScrollback()
	for y := 0; y < t.rows; y++ {
		t.eraseRow(y, false)
	}
	t.top, t.bot = 0, t.rows-1
	t.moveToOrigin(0, 0)
}
