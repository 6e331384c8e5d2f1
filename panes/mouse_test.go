package panes

import (
	"testing"

	"clowder/vtgrid"
)

func TestEncodeMouse(t *testing.T) {
	var (
		x10    = vtgrid.Modes{Mouse: vtgrid.MouseX10}
		normal = vtgrid.Modes{Mouse: vtgrid.MouseNormal}
		button = vtgrid.Modes{Mouse: vtgrid.MouseButton, MouseEnc: vtgrid.MouseEncSGR}
		anySGR = vtgrid.Modes{Mouse: vtgrid.MouseAny, MouseEnc: vtgrid.MouseEncSGR}
		sgr    = vtgrid.Modes{Mouse: vtgrid.MouseNormal, MouseEnc: vtgrid.MouseEncSGR}
		utf8m  = vtgrid.Modes{Mouse: vtgrid.MouseNormal, MouseEnc: vtgrid.MouseEncUTF8}
		urxvt  = vtgrid.Modes{Mouse: vtgrid.MouseNormal, MouseEnc: vtgrid.MouseEncURXVT}
	)
	press := func(b MouseButton, x, y int, m Mod) MouseEvent {
		return MouseEvent{Action: MousePress, Button: b, X: x, Y: y, Mod: m}
	}
	release := func(b MouseButton, x, y int) MouseEvent {
		return MouseEvent{Action: MouseRelease, Button: b, X: x, Y: y}
	}
	motion := func(b MouseButton, x, y int) MouseEvent {
		return MouseEvent{Action: MouseMotion, Button: b, X: x, Y: y}
	}
	tests := []struct {
		name string
		ev   MouseEvent
		m    vtgrid.Modes
		want string
	}{
		{"off sends nothing", press(MouseLeft, 0, 0, 0), vtgrid.Modes{}, ""},
		{"x10 left press at origin", press(MouseLeft, 0, 0, 0), x10, "\x1b[M !!"},
		{"x10 mode drops modifiers", press(MouseLeft, 0, 0, ModCtrl), x10, "\x1b[M !!"},
		{"x10 mode drops releases", release(MouseLeft, 0, 0), x10, ""},
		{"normal right press", press(MouseRight, 9, 4, 0), normal, "\x1b[M\"*%"},
		{"normal release is button 3", release(MouseRight, 9, 4), normal, "\x1b[M#*%"},
		{"normal ctrl+shift left", press(MouseLeft, 0, 0, ModCtrl|ModShift), normal, "\x1b[M4!!"},
		{"normal wheel up", press(MouseWheelUp, 0, 0, 0), normal, "\x1b[M`!!"},
		{"normal drops wheel release", release(MouseWheelUp, 0, 0), normal, ""},
		{"normal drops motion", motion(MouseLeft, 1, 1), normal, ""},
		{"normal x10 bytes stop at 223", press(MouseLeft, 223, 0, 0), normal, ""},
		{"sgr press", press(MouseLeft, 9, 4, 0), sgr, "\x1b[<0;10;5M"},
		{"sgr release keeps button", release(MouseMiddle, 9, 4), sgr, "\x1b[<1;10;5m"},
		{"sgr meta right", press(MouseRight, 0, 0, ModAlt), sgr, "\x1b[<10;1;1M"},
		{"sgr wheel down", press(MouseWheelDown, 299, 99, 0), sgr, "\x1b[<65;300;100M"},
		{"sgr large coordinates", press(MouseLeft, 2999, 0, 0), sgr, "\x1b[<0;3000;1M"},
		{"button-event drag", motion(MouseLeft, 2, 3), button, "\x1b[<32;3;4M"},
		{"button-event drops hover", motion(MouseNoButton, 2, 3), button, ""},
		{"any-event hover", motion(MouseNoButton, 2, 3), anySGR, "\x1b[<35;3;4M"},
		{"utf8 small", press(MouseLeft, 0, 0, 0), utf8m, "\x1b[M !!"},
		{"utf8 large column", press(MouseLeft, 300, 0, 0), utf8m, "\x1b[M " + string(rune(301+32)) + "!"},
		{"urxvt", press(MouseLeft, 9, 4, 0), urxvt, "\x1b[32;10;5M"},
		{"urxvt release", release(MouseLeft, 9, 4), urxvt, "\x1b[35;10;5M"},
		{"negative position", press(MouseLeft, -1, 0, 0), sgr, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(EncodeMouse(tt.ev, tt.m)); got != tt.want {
				t.Errorf("EncodeMouse = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestEncodeFocusOnlyWhenFocusModeIsOn(t *testing.T) {
	tests := []struct {
		name string
		in   bool
		m    vtgrid.Modes
		want string
	}{
		{"off in", true, vtgrid.Modes{}, ""},
		{"off out", false, vtgrid.Modes{}, ""},
		{"on in", true, vtgrid.Modes{Focus: true}, "\x1b[I"},
		{"on out", false, vtgrid.Modes{Focus: true}, "\x1b[O"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(EncodeFocus(tt.in, tt.m)); got != tt.want {
				t.Errorf("EncodeFocus = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestMouseEnumStrings(t *testing.T) {
	if MouseWheelUp.String() != "wheel-up" || MouseRelease.String() != "release" || MouseButton(99).String() != "MouseButton(99)" {
		t.Error("mouse enum names are wrong")
	}
}
