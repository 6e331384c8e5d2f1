package vtgrid

import "testing"

// repliesOf feeds in to a fresh terminal with colours c and returns what it
// answered.
func repliesOf(c Colors, parts ...string) string {
	var got []byte
	term := New(7, 3, Options{Colors: c, Reply: func(b []byte) { got = append(got, b...) }})
	for _, p := range parts {
		term.Write([]byte(p))
	}
	return string(got)
}

// checkReplySplits fails unless in, fed whole, byte by byte and split at
// every offset, answers want.
func checkReplySplits(t *testing.T, c Colors, in, want string) {
	t.Helper()
	feeds := [][]string{{in}, bytesOf(in)}
	for i := 1; i < len(in); i++ {
		feeds = append(feeds, []string{in[:i], in[i:]})
	}
	for _, parts := range feeds {
		if got := repliesOf(c, parts...); got != want {
			t.Fatalf("feeding %q as %q answers %q, want %q", in, parts, got, want)
		}
	}
}

// lightColors is a light terminal: black on white, a red cursor, and two
// palette entries of its own.
func lightColors() Colors {
	c := Colors{Foreground: RGBColor(0x10, 0x20, 0x30), Background: RGBColor(0xff, 0xff, 0xff), Cursor: RGBColor(0xcc, 0, 0)}
	c.Palette[1] = RGBColor(0xaa, 0x11, 0x22)
	c.Palette[200] = RGBColor(0x01, 0x02, 0x03)
	return c
}

// Regression: every colour query answered black (grey on black), whatever
// the user's terminal was, so Codex painted its composer dark on a light
// terminal; and OSC 12 and OSC 4 got no answer at all.
func TestColorQueriesAnswerTheColorsSet(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"OSC 10 BEL", "\x1b]10;?\x07", "\x1b]10;rgb:1010/2020/3030\x07"},
		{"OSC 11 ST", "\x1b]11;?\x1b\\", "\x1b]11;rgb:ffff/ffff/ffff\x1b\\"},
		{"OSC 12", "\x1b]12;?\x07", "\x1b]12;rgb:cccc/0000/0000\x07"},
		{"OSC 10 asks 10 and 11", "\x1b]10;?;?\x07", "\x1b]10;rgb:1010/2020/3030\x07\x1b]11;rgb:ffff/ffff/ffff\x07"},
		{"OSC 10 set then ask 11", "\x1b]10;#000000;?\x1b\\", "\x1b]11;rgb:ffff/ffff/ffff\x1b\\"},
		{"OSC 4 set entry", "\x1b]4;1;?\x07", "\x1b]4;1;rgb:aaaa/1111/2222\x07"},
		{"OSC 4 several", "\x1b]4;1;?;200;?;2;?\x1b\\",
			"\x1b]4;1;rgb:aaaa/1111/2222\x1b\\\x1b]4;200;rgb:0101/0202/0303\x1b\\\x1b]4;2;rgb:0000/cdcd/0000\x1b\\"},
		{"OSC 4 unknown entry is xterm's", "\x1b]4;12;?\x07", "\x1b]4;12;rgb:5c5c/5c5c/ffff\x07"},
		{"OSC 4 skips sets and bad indexes", "\x1b]4;3;red;256;?;x;?;7;?\x07", "\x1b]4;7;rgb:e5e5/e5e5/e5e5\x07"},
		{"OSC 10 set only", "\x1b]10;#ffffff\x07", ""},
		{"aborted by CAN", "\x1b]11;?\x18", ""},
		{"between other output", "ab\x1b]11;?\x07cd\x1b[5n", "\x1b]11;rgb:ffff/ffff/ffff\x07\x1b[0n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkReplySplits(t, lightColors(), tc.in, tc.want)
		})
	}
}

// The headless default, when no client ever told the host its colours: a
// light grey on black, the cursor the foreground, the xterm palette.
func TestColorQueriesHeadlessDefault(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"foreground", "\x1b]10;?\x07", "\x1b]10;rgb:d0d0/d0d0/d0d0\x07"},
		{"background", "\x1b]11;?\x1b\\", "\x1b]11;rgb:0000/0000/0000\x1b\\"},
		{"cursor is the foreground", "\x1b]12;?\x07", "\x1b]12;rgb:d0d0/d0d0/d0d0\x07"},
		{"palette 0", "\x1b]4;0;?\x07", "\x1b]4;0;rgb:0000/0000/0000\x07"},
		{"palette cube", "\x1b]4;196;?\x07", "\x1b]4;196;rgb:ffff/0000/0000\x07"},
		{"palette grey", "\x1b]4;244;?\x07", "\x1b]4;244;rgb:8080/8080/8080\x07"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkReplySplits(t, Colors{}, tc.in, tc.want)
		})
	}
}

func TestSetColorsChangesALiveTerminal(t *testing.T) {
	var got []byte
	term := New(7, 3, Options{Reply: func(b []byte) { got = append(got, b...) }})
	term.Write([]byte("\x1b]11;?\x07"))
	term.SetColors(lightColors())
	term.Write([]byte("\x1b]11;?\x07"))
	want := "\x1b]11;rgb:0000/0000/0000\x07\x1b]11;rgb:ffff/ffff/ffff\x07"
	if string(got) != want {
		t.Fatalf("replies %q want %q", got, want)
	}
	if term.Colors() != lightColors() {
		t.Fatalf("Colors() does not return what SetColors set")
	}
}

func TestXtermPalette(t *testing.T) {
	for i, want := range map[uint8]Color{
		0: RGBColor(0, 0, 0), 9: RGBColor(0xff, 0, 0), 16: RGBColor(0, 0, 0), 21: RGBColor(0, 0, 0xff),
		67: RGBColor(0x5f, 0x87, 0xaf), 231: RGBColor(0xff, 0xff, 0xff), 232: RGBColor(8, 8, 8), 255: RGBColor(0xee, 0xee, 0xee),
	} {
		if got := XtermPalette(i); got != want {
			t.Errorf("XtermPalette(%d) = %06x want %06x", i, uint32(got)&0xffffff, uint32(want)&0xffffff)
		}
	}
}
