package vtgrid

// This file executes C0 controls and ESC sequences (everything that is not
// CSI, OSC or DCS).

// execute runs a C0 control.
func (t *Terminal) execute(b byte) {
	switch b {
	case 0x07:
		t.event(Event{Kind: EventBell})
	case 0x08:
		t.backspace()
	case 0x09:
		t.tabForward(1)
	case 0x0a, 0x0b, 0x0c:
		t.index()
		if t.modes.Newline {
			t.carriageReturn()
		}
	case 0x0d:
		t.carriageReturn()
	case 0x0e:
		t.cur.gl = 1
	case 0x0f:
		t.cur.gl = 0
	}
}

// escDispatch runs ESC [intermediate] final.
func (t *Terminal) escDispatch(final byte) {
	switch t.p.intermediate() {
	case 0:
		t.escPlain(final)
	case '(', ')', '*', '+':
		t.designate(t.p.inter[0], final)
	case '#':
		if final == '8' {
			t.alignmentTest()
		}
	}
}

func (t *Terminal) escPlain(final byte) {
	switch final {
	case '7':
		t.saveCursor()
	case '8':
		t.restoreCursor()
	case 'D':
		t.index()
	case 'E':
		t.index()
		t.carriageReturn()
	case 'H':
		t.tabs[t.cur.x] = true
	case 'M':
		t.reverseIndex()
	case 'c':
		t.reset()
	case '=':
		t.modes.AppKeypad = true
	case '>':
		t.modes.AppKeypad = false
	}
}

// designate selects a character set into G0-G3 (ESC ( 0 etc.).
func (t *Terminal) designate(which, final byte) {
	cs := charsetASCII
	if final == '0' {
		cs = charsetDEC
	}
	t.cur.g[which-'('] = cs
}

// alignmentTest is DECALN: fill the screen with E, reset margins, home.
func (t *Terminal) alignmentTest() {
	t.top, t.bot = 0, t.rows-1
	for y := range t.rows {
		l := t.scr.row(y)
		cells := l.toCells()
		for x := range cells {
			cells[x] = Cell{r: 'E'}
		}
		l.mark(len(cells))
		l.wrapped = false
		l.ver = t.ver
	}
	t.moveTo(0, 0)
}

// decGraphics maps ASCII to the DEC special graphics set.
func decGraphics(r rune) rune {
	if r < 0x5f || r > 0x7e {
		return r
	}
	return decTable[r-0x5f]
}

var decTable = [...]rune{
	' ', '◆', '▒', '␉', '␌', '␍', '␊', '°', '±', '␤', '␋', '┘', '┐', '┌', '└', '┼',
	'⎺', '⎻', '─', '⎼', '⎽', '├', '┤', '┴', '┬', '│', '≤', '≥', 'π', '≠', '£', '·',
}
