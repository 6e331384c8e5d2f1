package vtgrid

// This file holds the terminal modes a client needs to encode input for the
// program (cursor keys, keypad, kitty keyboard flags, modifyOtherKeys,
// bracketed paste, mouse, focus) and those that change how output is drawn.

import "strconv"

// MouseMode is which mouse events the program asked for.
type MouseMode uint8

// Mouse tracking modes (DECSET 9, 1000, 1002, 1003).
const (
	MouseOff    MouseMode = iota
	MouseX10              // 9: button presses only
	MouseNormal           // 1000: presses and releases
	MouseButton           // 1002: plus motion with a button held
	MouseAny              // 1003: all motion
)

// MouseEncoding is how mouse reports are encoded.
type MouseEncoding uint8

// Mouse encodings (DECSET 1005, 1006, 1015; default X10 bytes).
const (
	MouseEncX10 MouseEncoding = iota
	MouseEncUTF8
	MouseEncSGR
	MouseEncURXVT
)

// Modes is the set of modes a program can change. The zero value is not the
// power-on state; see defaultModes.
type Modes struct {
	AppCursor       bool // DECCKM (1): cursor keys send ESC O x
	AppKeypad       bool // DECKPAM / DECKPNM
	Autowrap        bool // DECAWM (7)
	Origin          bool // DECOM (6)
	Insert          bool // IRM (4)
	Newline         bool // LNM (20)
	CursorVisible   bool // DECTCEM (25)
	CursorBlink     bool // 12
	CursorStyle     int  // DECSCUSR 0-6
	AltScreen       bool // 47 / 1047 / 1049 active
	BracketedPaste  bool // 2004
	Focus           bool // 1004
	SyncOutput      bool // 2026
	ReverseVideo    bool // DECSCNM (5)
	Mouse           MouseMode
	MouseEnc        MouseEncoding
	AltScroll       bool  // 1007: wheel sends cursor keys on the alternate screen
	ModifyOtherKeys int   // XTMODKEYS 4: 0, 1 or 2
	KittyKeyboard   uint8 // current kitty keyboard flags (top of the active screen's stack)

	kitty [2]kittyStack // per screen
}

// kittyStack is the kitty keyboard protocol's flag stack of one screen.
type kittyStack struct {
	flags [8]uint8
	n     int
}

func defaultModes() Modes {
	return Modes{Autowrap: true, CursorVisible: true}
}

// Modes returns the current modes.
func (t *Terminal) Modes() Modes { return t.modes }

// setMode applies SM/RM (ANSI modes) or DECSET/DECRST (private modes).
func (t *Terminal) setMode(private bool, mode int, on bool) {
	if !private {
		switch mode {
		case 4:
			t.modes.Insert = on
		case 20:
			t.modes.Newline = on
		}
		return
	}
	t.setPrivateMode(mode, on)
}

func (t *Terminal) setPrivateMode(mode int, on bool) {
	m := &t.modes
	switch mode {
	case 1:
		m.AppCursor = on
	case 3:
		t.columnMode()
	case 5:
		m.ReverseVideo = on
		t.touchAll()
	case 6:
		m.Origin = on
		t.moveToOrigin(0, 0)
	case 7:
		m.Autowrap = on
	case 12:
		m.CursorBlink = on
	case 25:
		m.CursorVisible = on
	case 47, 1047:
		t.switchScreen(on, false, mode == 1047)
	case 1049:
		t.switchScreen(on, true, true)
	case 1048:
		if on {
			t.saveCursor()
		} else {
			t.restoreCursor()
		}
	case 9, 1000, 1002, 1003:
		t.setMouse(MouseMode(mouseModes[mode]), on)
	case 1005, 1006, 1015:
		t.setMouseEnc(MouseEncoding(mouseEncs[mode]), on)
	case 1004:
		m.Focus = on
	case 1007:
		m.AltScroll = on
	case 2004:
		m.BracketedPaste = on
	case 2026:
		m.SyncOutput = on
	}
}

var (
	mouseModes = map[int]MouseMode{9: MouseX10, 1000: MouseNormal, 1002: MouseButton, 1003: MouseAny}
	mouseEncs  = map[int]MouseEncoding{1005: MouseEncUTF8, 1006: MouseEncSGR, 1015: MouseEncURXVT}
)

func (t *Terminal) setMouse(mode MouseMode, on bool) {
	switch {
	case on:
		t.modes.Mouse = mode
	case t.modes.Mouse == mode:
		t.modes.Mouse = MouseOff
	}
}

func (t *Terminal) setMouseEnc(enc MouseEncoding, on bool) {
	switch {
	case on:
		t.modes.MouseEnc = enc
	case t.modes.MouseEnc == enc:
		t.modes.MouseEnc = MouseEncX10
	}
}

// privateModeState answers DECRQM for a private mode: 1 set, 2 reset,
// 0 not recognised.
func (t *Terminal) privateModeState(mode int) int {
	m := &t.modes
	var on bool
	switch mode {
	case 1:
		on = m.AppCursor
	case 5:
		on = m.ReverseVideo
	case 6:
		on = m.Origin
	case 7:
		on = m.Autowrap
	case 12:
		on = m.CursorBlink
	case 25:
		on = m.CursorVisible
	case 47, 1047, 1049:
		on = m.AltScreen
	case 9, 1000, 1002, 1003:
		on = m.Mouse == mouseModes[mode]
	case 1005, 1006, 1015:
		on = m.MouseEnc == mouseEncs[mode] && m.MouseEnc != MouseEncX10
	case 1004:
		on = m.Focus
	case 1007:
		on = m.AltScroll
	case 2004:
		on = m.BracketedPaste
	case 2026:
		on = m.SyncOutput
	default:
		return 0
	}
	return modeState(on)
}

func (t *Terminal) ansiModeState(mode int) int {
	switch mode {
	case 4:
		return modeState(t.modes.Insert)
	case 20:
		return modeState(t.modes.Newline)
	}
	return 0
}

func modeState(on bool) int {
	if on {
		return 1
	}
	return 2
}

// switchScreen enters or leaves the alternate screen. With save, the cursor
// is saved on entry and restored on exit (1049); with clear, the alternate
// screen is cleared on entry (1047, 1049).
func (t *Terminal) switchScreen(on, save, clear bool) {
	if on == t.modes.AltScreen {
		return
	}
	if on && save {
		t.saveCursor()
	}
	t.modes.AltScreen = on
	if on {
		if t.alt == nil {
			t.alt = newScreen(t.cols, t.rows) // blank, as a cleared one
		}
		t.scr = t.alt
		if clear {
			t.alt.clear(t.ver, t.cur.st)
		}
	} else {
		t.scr = t.main
	}
	t.modes.KittyKeyboard = t.modes.kitty[t.screenIndex()].top()
	if !on && save {
		t.restoreCursor()
	}
	t.touchAll()
}

// touchAll marks every row of the active screen modified.
func (t *Terminal) touchAll() {
	t.scr.touch(0, t.rows-1, t.ver)
}

func (k *kittyStack) top() uint8 {
	if k.n == 0 {
		return 0
	}
	return k.flags[k.n-1]
}

// push is CSI > flags u; a full stack drops its oldest entry.
func (k *kittyStack) push(f uint8) {
	if k.n == len(k.flags) {
		copy(k.flags[:], k.flags[1:])
		k.n--
	}
	k.flags[k.n] = f
	k.n++
}

// pop is CSI < n u.
func (k *kittyStack) pop(n int) {
	k.n = max(k.n-max(n, 1), 0)
}

// set is CSI = flags ; mode u: 1 replace, 2 add, 3 remove.
func (k *kittyStack) set(f uint8, mode int) {
	if k.n == 0 {
		k.push(0)
	}
	cur := &k.flags[k.n-1]
	switch mode {
	case 2:
		*cur |= f
	case 3:
		*cur &^= f
	default:
		*cur = f
	}
}

// kittyKeyboard handles CSI > u, CSI < u, CSI = u and CSI ? u.
func (t *Terminal) kittyKeyboard(priv byte) {
	k := &t.modes.kitty[t.screenIndex()]
	switch priv {
	case '>':
		k.push(uint8(t.p.raw(0) & 0x1f))
	case '<':
		k.pop(t.p.raw(0))
	case '=':
		k.set(uint8(t.p.raw(0)&0x1f), t.p.get(1, 1))
	case '?':
		t.reply("\x1b[?" + strconv.Itoa(int(k.top())) + "u")
	}
	t.modes.KittyKeyboard = k.top()
}
