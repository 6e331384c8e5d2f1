package vtgrid

import "testing"

func TestSGRStyles(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Style
	}{
		{"bold red", "\x1b[1;31m", Style{Fg: IndexedColor(1), Attrs: AttrBold}},
		{"bright bg", "\x1b[103m", Style{Bg: IndexedColor(11)}},
		{"256 semicolon", "\x1b[38;5;208m", Style{Fg: IndexedColor(208)}},
		{"256 colon", "\x1b[48:5:17m", Style{Bg: IndexedColor(17)}},
		{"truecolor semicolon", "\x1b[38;2;1;2;3m", Style{Fg: RGBColor(1, 2, 3)}},
		{"truecolor colon with colourspace", "\x1b[38:2::10:20:30m", Style{Fg: RGBColor(10, 20, 30)}},
		{"truecolor colon without colourspace", "\x1b[48:2:10:20:30m", Style{Bg: RGBColor(10, 20, 30)}},
		{"curly underline with colour", "\x1b[4:3;58:2::255:0:0m", Style{Underline: UnderlineCurly, UnderlineColor: RGBColor(255, 0, 0)}},
		{"double underline 21", "\x1b[21m", Style{Underline: UnderlineDouble}},
		{"underline off 4:0", "\x1b[4m\x1b[4:0m", Style{}},
		{"dim italic strike blink reverse hidden", "\x1b[2;3;9;5;7;8m", Style{Attrs: AttrDim | AttrItalic | AttrStrike | AttrBlink | AttrReverse | AttrHidden}},
		{"22 clears bold and dim", "\x1b[1;2;3m\x1b[22m", Style{Attrs: AttrItalic}},
		{"reset by empty SGR", "\x1b[1;31m\x1b[m", Style{}},
		{"params after extended colour still apply", "\x1b[38;5;1;1m", Style{Fg: IndexedColor(1), Attrs: AttrBold}},
		{"truncated extended colour is ignored", "\x1b[38;5m", Style{}},
		{"params after a truncated colour apply (tmux)", "\x1b[38;2;1m", Style{Attrs: AttrBold}},
		{"default fg and bg", "\x1b[31;41m\x1b[39;49m", Style{}},
		{"overline", "\x1b[53m", Style{Attrs: AttrOverline}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := checkSplits(t, 10, 1, tc.in+"x")
			if got := s.Cell(0, 0).Style(); got != tc.want {
				t.Errorf("style %+v want %+v", got, tc.want)
			}
		})
	}
}

func TestEraseUsesBackground(t *testing.T) {
	term := screenOf(4, 2, "\x1b[44m\x1b[2J")
	if got := term.Snapshot().Cell(3, 1).Style().Bg; got != IndexedColor(4) {
		t.Fatalf("erased cell bg %v want blue", got)
	}
}

func TestANSIRoundTrip(t *testing.T) {
	in := "\x1b[1;31mred\x1b[0m plain \x1b[4:3;58:5:9mcurl\x1b[m\r\n" +
		"\x1b[38;2;1;2;3;48;5;200mtrue\x1b[7mrev\x1b[m 世界 e\u0301\r\n" +
		"\x1b]8;id=1;https://example.test\x1b\\link\x1b]8;;\x1b\\ \x1b[44m   \x1b[m"
	src := screenOf(20, 4, in).Snapshot()
	dst := screenOf(20, 4, src.ANSI()).Snapshot()
	for y := 0; y < 4; y++ {
		for x := 0; x < 20; x++ {
			a, b := src.Cell(x, y), dst.Cell(x, y)
			if a.Style() != b.Style() || a.Width() != b.Width() || a.Text() != b.Text() && a.Text() != "" {
				t.Fatalf("cell %d,%d: %+v %q re-rendered as %+v %q", x, y, a.Style(), a.Text(), b.Style(), b.Text())
			}
			if src.Link(a.LinkID()) != dst.Link(b.LinkID()) {
				t.Fatalf("cell %d,%d link %q became %q", x, y, src.Link(a.LinkID()), dst.Link(b.LinkID()))
			}
		}
	}
	if src.Text() != dst.Text() {
		t.Fatalf("text %q became %q", src.Text(), dst.Text())
	}
}
