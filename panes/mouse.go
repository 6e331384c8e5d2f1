package panes

// This file encodes mouse and focus events for a pane, following xterm's
// "Mouse Tracking" rules: which events a tracking mode (9, 1000, 1002,
// 1003) reports, and how the encoding (X10 bytes, 1005 UTF-8, 1006 SGR,
// 1015 URXVT) writes them. Coordinates are 0-based cells within the pane;
// the wire form is 1-based.

import (
	"strconv"
	"unicode/utf8"

	"clowder/vtgrid"
)

// MouseButton is the button an event concerns.
type MouseButton uint8

// Mouse buttons. MouseNoButton is motion with no button held.
const (
	MouseNoButton MouseButton = iota
	MouseLeft
	MouseMiddle
	MouseRight
	MouseWheelUp
	MouseWheelDown
	MouseWheelLeft
	MouseWheelRight
)

var mouseButtonNames = [...]string{"none", "left", "middle", "right", "wheel-up", "wheel-down", "wheel-left", "wheel-right"}

// String names the button ("wheel-up"). deadcode finds no caller: it is
// the fmt.Stringer that test failures and %v print through.
func (b MouseButton) String() string { return enumName("MouseButton", mouseButtonNames[:], int(b)) }

// isWheel reports whether b is a wheel direction.
func (b MouseButton) isWheel() bool { return b >= MouseWheelUp }

// MouseAction is what happened.
type MouseAction uint8

// Mouse actions.
const (
	MousePress MouseAction = iota
	MouseRelease
	MouseMotion
)

var mouseActionNames = [...]string{"press", "release", "motion"}

// String names the action ("release").
func (a MouseAction) String() string { return enumName("MouseAction", mouseActionNames[:], int(a)) }

// MouseEvent is one mouse event in pane coordinates (0-based cells).
type MouseEvent struct {
	Action MouseAction
	Button MouseButton // for motion: the button held, or MouseNoButton
	X, Y   int
	Mod    Mod // Shift, Alt (Meta) and Ctrl are reported; Super is not
}

// EncodeMouse returns the report for ev in a pane with modes m, or nil when
// the pane did not ask for this event (tracking off, releases in X10 mode,
// motion without 1002/1003) or the encoding cannot express its position
// (beyond column or row 223 in X10 bytes, 2015 in UTF-8).
func EncodeMouse(ev MouseEvent, m vtgrid.Modes) []byte {
	if !mouseWanted(ev, m.Mouse) || ev.X < 0 || ev.Y < 0 {
		return nil
	}
	cb := mouseCode(ev, m)
	x, y := ev.X+1, ev.Y+1
	switch m.MouseEnc {
	case vtgrid.MouseEncSGR:
		final := byte('M')
		if ev.Action == MouseRelease {
			final = 'm'
		}
		return append(sgrParams("\x1b[<", cb, x, y), final)
	case vtgrid.MouseEncURXVT:
		return append(sgrParams("\x1b[", cb+32, x, y), 'M')
	case vtgrid.MouseEncUTF8:
		return mouseUTF8(cb, x, y)
	}
	if x > 223 || y > 223 {
		return nil
	}
	return []byte{0x1b, '[', 'M', byte(cb + 32), byte(x + 32), byte(y + 32)}
}

// mouseWanted applies the tracking mode's event filter.
func mouseWanted(ev MouseEvent, mode vtgrid.MouseMode) bool {
	switch mode {
	case vtgrid.MouseX10:
		return ev.Action == MousePress
	case vtgrid.MouseNormal:
		return ev.Action != MouseMotion && !(ev.Action == MouseRelease && ev.Button.isWheel())
	case vtgrid.MouseButton:
		return ev.Action != MouseMotion || ev.Button != MouseNoButton
	case vtgrid.MouseAny:
		return true
	}
	return false
}

// mouseCode is xterm's Cb: button (0-2, 3 for release or no button,
// 64+ for wheels), +4 Shift, +8 Meta, +16 Ctrl, +32 motion. X10 mode
// reports no modifiers; SGR keeps the button number on release.
func mouseCode(ev MouseEvent, m vtgrid.Modes) int {
	var cb int
	switch {
	case ev.Button.isWheel():
		cb = 64 + int(ev.Button-MouseWheelUp)
	case ev.Button == MouseNoButton:
		cb = 3
	case ev.Action == MouseRelease && m.MouseEnc != vtgrid.MouseEncSGR:
		cb = 3
	default:
		cb = int(ev.Button - MouseLeft)
	}
	if ev.Action == MouseMotion {
		cb += 32
	}
	if m.Mouse != vtgrid.MouseX10 {
		cb += mouseMods(ev.Mod)
	}
	return cb
}

func mouseMods(m Mod) int {
	var v int
	if m&ModShift != 0 {
		v += 4
	}
	if m&ModAlt != 0 {
		v += 8
	}
	if m&ModCtrl != 0 {
		v += 16
	}
	return v
}

// sgrParams writes prefix cb;x;y.
func sgrParams(prefix string, cb, x, y int) []byte {
	b := strconv.AppendInt([]byte(prefix), int64(cb), 10)
	b = strconv.AppendInt(append(b, ';'), int64(x), 10)
	return strconv.AppendInt(append(b, ';'), int64(y), 10)
}

// mouseUTF8 is mode 1005: the X10 layout with each value+32 as a UTF-8
// character, which extends positions to 2015.
func mouseUTF8(cb, x, y int) []byte {
	if x > 2015 || y > 2015 {
		return nil
	}
	b := []byte("\x1b[M")
	for _, v := range []int{cb, x, y} {
		b = utf8.AppendRune(b, rune(v+32))
	}
	return b
}

// EncodeFocus returns CSI I (focus in) or CSI O (focus out) when the pane
// enabled focus reporting (mode 1004), else nil.
func EncodeFocus(in bool, m vtgrid.Modes) []byte {
	switch {
	case !m.Focus:
		return nil
	case in:
		return []byte("\x1b[I")
	}
	return []byte("\x1b[O")
}

// enumName names v from names, or Type(N) when v has no name.
func enumName(typ string, names []string, v int) string {
	if v >= 0 && v < len(names) && names[v] != "" {
		return names[v]
	}
	return typ + "(" + strconv.Itoa(v) + ")"
}
