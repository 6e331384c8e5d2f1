package vtgrid

// This file dispatches CSI sequences: cursor movement, erasing, editing,
// scrolling, tabs, modes and the queries that produce replies.

import "strconv"

// csiDispatch runs CSI params [intermediate] final.
func (t *Terminal) csiDispatch(final byte) {
	if t.p.nint > 1 {
		return
	}
	switch t.p.priv {
	case 0:
		t.csiPlain(final)
	case '?':
		t.csiQuestion(final)
	case '>':
		t.csiGreater(final)
	case '<', '=':
		if final == 'u' && t.p.nint == 0 {
			t.kittyKeyboard(t.p.priv)
		}
	}
}

// csiPlain handles sequences with no private marker.
func (t *Terminal) csiPlain(final byte) {
	switch t.p.intermediate() {
	case 0:
		if !t.csiMove(final) && !t.csiEdit(final) {
			t.csiOther(final)
		}
	case ' ':
		if final == 'q' {
			t.modes.CursorStyle = clamp(t.p.raw(0), 0, 6)
		}
	case '$':
		if final == 'p' {
			t.reply(decrqm("", t.p.raw(0), t.ansiModeState(t.p.raw(0))))
		}
	case '!':
		if final == 'p' {
			t.softReset()
		}
	case '"':
		if final == 'q' {
			t.setProtection(t.p.raw(0))
		}
	}
}

// csiMove handles cursor movement; it reports whether final was one.
func (t *Terminal) csiMove(final byte) bool {
	n := t.p.get(0, 1)
	switch final {
	case 'A':
		t.moveUp(n)
	case 'B', 'e':
		t.moveDown(n)
	case 'C', 'a':
		t.moveRight(n)
	case 'D':
		t.moveLeft(n)
	case 'E':
		t.moveDown(n)
		t.carriageReturn()
	case 'F':
		t.moveUp(n)
		t.carriageReturn()
	case 'G', '`':
		t.moveTo(n-1, t.cur.y)
	case 'H', 'f':
		t.moveToOrigin(t.p.get(1, 1)-1, n-1)
	case 'd':
		t.moveToRow(n - 1)
	case 'I':
		t.tabForward(n)
	case 'Z':
		t.tabBackward(n)
	default:
		return false
	}
	return true
}

// csiEdit handles erasing, inserting, deleting and scrolling.
func (t *Terminal) csiEdit(final byte) bool {
	n := t.p.get(0, 1)
	switch final {
	case 'J':
		t.eraseDisplay(t.p.raw(0), false)
	case 'K':
		t.eraseLine(t.p.raw(0), false)
	case 'X', '@', 'P':
		t.editChars(final, n)
	case 'L':
		t.insertLines(n)
	case 'M':
		t.deleteLines(n)
	case 'S':
		t.scrollUp(n)
	case 'T':
		if t.p.count() <= 1 { // with more, it is xterm's mouse highlight tracking
			t.scrollDown(n)
		}
	case 'b':
		t.repeat(n)
	default:
		return false
	}
	return true
}

// editChars is ECH, ICH and DCH. Like tmux, they do nothing while a wrap is
// pending (the cursor is then past the last column) and leave it pending.
func (t *Terminal) editChars(final byte, n int) {
	if t.cur.wrapNext {
		return
	}
	l := t.scr.row(t.cur.y)
	switch final {
	case 'X':
		l.erase(t.cur.x, t.cur.x+n, t.ver, t.cur.st)
	case '@':
		l.insertBlanks(t.cur.x, n, t.cols, t.ver, t.cur.st)
	case 'P':
		l.deleteCells(t.cur.x, n, t.cols, t.ver, t.cur.st)
	}
}

// csiOther handles the rest of the unmarked sequences.
func (t *Terminal) csiOther(final byte) {
	switch final {
	case 'm':
		t.sgr()
	case 'h', 'l':
		for i := 0; i < max(t.p.count(), 1); i++ {
			t.setMode(false, t.p.raw(i), final == 'h')
		}
	case 'r':
		t.setMargins(t.p.get(0, 1)-1, t.p.get(1, t.rows)-1)
	case 's':
		t.saveCursor()
	case 'u':
		t.restoreCursor()
	case 'g':
		t.clearTabs(t.p.raw(0))
	case 'c':
		if t.p.raw(0) == 0 {
			t.reply("\x1b[?62;22c") // VT220 with ANSI colour
		}
	case 'n':
		t.deviceStatus(false)
	case 't':
		t.windowOp()
	}
}

// csiQuestion handles CSI ? ... sequences.
func (t *Terminal) csiQuestion(final byte) {
	switch {
	case t.p.intermediate() == '$' && final == 'p':
		t.reply(decrqm("?", t.p.raw(0), t.privateModeState(t.p.raw(0))))
	case t.p.nint != 0:
	case final == 'h' || final == 'l':
		for i := 0; i < max(t.p.count(), 1); i++ {
			t.setPrivateMode(t.p.raw(i), final == 'h')
		}
	case final == 'J':
		t.eraseDisplay(t.p.raw(0), true)
	case final == 'K':
		t.eraseLine(t.p.raw(0), true)
	case final == 'n':
		t.deviceStatus(true)
	case final == 'u':
		t.kittyKeyboard('?')
	}
}

// csiGreater handles CSI > ... sequences.
func (t *Terminal) csiGreater(final byte) {
	if t.p.nint != 0 {
		return
	}
	switch final {
	case 'c':
		t.reply("\x1b[>41;0;0c") // an xterm-compatible DA2
	case 'q':
		t.reply("\x1bP>|clowder(vtgrid)\x1b\\") // XTVERSION
	case 'u':
		t.kittyKeyboard('>')
	case 'm': // XTMODKEYS: CSI > 4 ; n m
		if t.p.raw(0) == 4 {
			t.modes.ModifyOtherKeys = clamp(t.p.raw(1), 0, 2)
		}
	case 'n': // XTMODKEYS reset
		if t.p.raw(0) == 4 {
			t.modes.ModifyOtherKeys = 0
		}
	}
}

// insertLines is IL. Like tmux, it keeps the cursor's column, and outside
// the scroll region it works on the rows from the cursor to the bottom.
func (t *Terminal) insertLines(n int) {
	top, bot := t.lineRange()
	t.scr.scrollDown(top, bot, n, t.ver, t.cur.st)
}

// deleteLines is DL, with IL's rules.
func (t *Terminal) deleteLines(n int) {
	top, bot := t.lineRange()
	t.scr.scrollUp(top, bot, n, t.ver, t.cur.st, nil)
}

// lineRange is the rows IL and DL shift: the cursor's row to the region's
// bottom, or to the screen's bottom when the cursor is outside the region.
func (t *Terminal) lineRange() (top, bot int) {
	if t.cur.y < t.top || t.cur.y > t.bot {
		return t.cur.y, t.rows - 1
	}
	return t.cur.y, t.bot
}

// repeat is REP: print the last ASCII character n more times.
func (t *Terminal) repeat(n int) {
	if t.last == 0 {
		return
	}
	x := t.cur.x
	if t.cur.wrapNext {
		x = t.cols
	}
	for i := 0; i < min(n, t.cols-x); i++ { // like tmux, REP stops at the right margin
		t.printRune(t.last)
	}
}

// setMargins is DECSTBM; an invalid region is ignored. The cursor homes.
func (t *Terminal) setMargins(top, bot int) {
	bot = min(bot, t.rows-1)
	if top >= bot {
		return
	}
	t.top, t.bot = top, bot
	t.moveToOrigin(0, 0)
}

// clearTabs is TBC 0 (here) and 3 (all).
func (t *Terminal) clearTabs(mode int) {
	switch mode {
	case 0:
		t.tabs[t.cur.x] = false
	case 3:
		clear(t.tabs)
	}
}

// softReset is DECSTR.
func (t *Terminal) softReset() {
	t.modes.CursorVisible = true
	t.modes.Origin = false
	t.modes.Autowrap = true
	t.modes.Insert = false
	t.modes.AppCursor = false
	t.modes.AppKeypad = false
	t.top, t.bot = 0, t.rows-1
	t.cur.st, t.cur.link, t.cur.prot = Style{}, 0, 0
	t.cur.g, t.cur.gl = [4]charset{}, 0
	t.cur.wrapNext = false
	t.saved[t.screenIndex()] = savedCursor{}
}

// deviceStatus answers DSR 5 (status) and 6 (cursor position).
func (t *Terminal) deviceStatus(private bool) {
	switch t.p.raw(0) {
	case 5:
		t.reply("\x1b[0n")
	case 6:
		y := t.cur.y
		if t.modes.Origin {
			y -= t.top
		}
		prefix := "\x1b["
		if private {
			prefix = "\x1b[?"
		}
		t.reply(prefix + strconv.Itoa(y+1) + ";" + strconv.Itoa(t.cur.x+1) + "R")
	}
}

// windowOp answers the XTWINOPS size reports programs use to learn the
// screen size in characters.
func (t *Terminal) windowOp() {
	switch t.p.raw(0) {
	case 18:
		t.reply("\x1b[8;" + strconv.Itoa(t.rows) + ";" + strconv.Itoa(t.cols) + "t")
	}
}

func decrqm(prefix string, mode, state int) string {
	return "\x1b[" + prefix + strconv.Itoa(mode) + ";" + strconv.Itoa(state) + "$y"
}
