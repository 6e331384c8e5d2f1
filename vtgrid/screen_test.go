package vtgrid

import "testing"

func TestScreenPictures(t *testing.T) {
	tests := []struct {
		name       string
		cols, rows int
		in         string
		want       string
		cx, cy     int
	}{
		{"plain text and CRLF", 6, 3, "ab\r\ncd", `
			|ab    |
			|cd    |
			|      |`, 2, 1},
		{"autowrap defers at the margin", 4, 3, "abcd", `
			|abcd|
			|    |
			|    |`, 3, 0},
		{"autowrap wraps the fifth", 4, 3, "abcde", `
			|abcd|
			|e   |
			|    |`, 1, 1},
		{"CR cancels pending wrap", 4, 2, "abcd\rX", `
			|Xbcd|
			|    |`, 1, 0},
		{"scroll at bottom", 3, 2, "a\r\nb\r\nc", `
			|b  |
			|c  |`, 1, 1},
		{"CUP and ED", 5, 3, "xxxxx\r\nxxxxx\r\nxxxxx\x1b[2;3H\x1b[J", `
			|xxxxx|
			|xx   |
			|     |`, 2, 1},
		{"EL 1 erases to cursor", 5, 1, "abcde\x1b[3G\x1b[1K", `
			|   de|`, 2, 0},
		{"ICH and DCH", 6, 2, "abcdef\x1b[1;2H\x1b[2@\r\nabcdef\x1b[2;2H\x1b[2P", `
			|a  bcd|
			|adef  |`, 1, 1},
		{"IL in scroll region", 3, 4, "1\r\n2\r\n3\r\n4\x1b[2;3r\x1b[2;1H\x1b[L", `
			|1  |
			|   |
			|2  |
			|4  |`, 0, 1},
		{"DL in scroll region", 3, 4, "1\r\n2\r\n3\r\n4\x1b[2;3r\x1b[2;1H\x1b[M", `
			|1  |
			|3  |
			|   |
			|4  |`, 0, 1},
		{"RI at top scrolls down", 3, 3, "a\r\nb\x1b[H\x1bM", `
			|   |
			|a  |
			|b  |`, 0, 0},
		{"tabs", 20, 1, "a\tb\x1b[3Ic", `
			|a       b          c|`, 19, 0},
		{"wide chars wrap whole", 5, 2, "abcd世", `
			|abcd |
			|世   |`, 2, 1},
		{"combining mark joins", 4, 1, "e\u0301x", `
			|e\u0301x  |`, 2, 0},
		{"REP", 6, 1, "ab\x1b[3b", `
			|abbbb |`, 5, 0},
		{"DEC graphics", 4, 1, "\x1b(0lqk\x1b(Bq", `
			|┌─┐q|`, 3, 0},
		{"DECALN", 3, 2, "\x1b#8", `
			|EEE|
			|EEE|`, 0, 0},
		{"ECH", 5, 1, "abcde\x1b[2G\x1b[2X", `
			|a  de|`, 1, 0},
		{"insert mode", 5, 1, "abc\x1b[1G\x1b[4hXY", `
			|XYabc|`, 2, 0},
		{"origin mode homes to region", 3, 4, "\x1b[2;3r\x1b[?6h\x1b[HX\x1b[5;1HY", `
			|   |
			|X  |
			|Y  |
			|   |`, 1, 2},
		{"alt screen keeps main", 4, 2, "main\x1b[?1049h\x1b[Halt\x1b[?1049l", `
			|main|
			|    |`, 3, 0},
		{"SU and SD", 3, 3, "a\r\nb\r\nc\x1b[S", `
			|b  |
			|c  |
			|   |`, 1, 2},
		{"DECSC DECRC", 5, 2, "ab\x1b7\r\nxy\x1b8Z", `
			|abZ  |
			|xy   |`, 3, 0},
		{"invalid UTF-8 is U+FFFD", 4, 1, "a\xffb\xc3", `
			|a\ufffdb |`, 3, 0},
		{"huge parameter clamps", 4, 2, "\x1b[99999999999;99999999999Hx", `
			|    |
			|   x|`, 3, 1},
		{"BS from pending wrap stays in last column", 3, 1, "abc\bX", `
			|abX|`, 2, 0},
		{"wide char overwritten in its second half", 4, 1, "世\x1b[2Gx", `
			| x  |`, 2, 0},
		// Issue 8: DECCOLM was ignored and left the old screen in place.
		{"DECCOLM clears and homes", 10, 4, "hello\r\nworld\r\n\x1b[?3hX", `
			|X         |
			|          |
			|          |
			|          |`, 1, 0},
		{"DECCOLM reset clears too", 4, 2, "ab\r\ncd\x1b[?3lX", `
			|X   |
			|    |`, 1, 0},
		{"DECCOLM resets the margins", 3, 3, "\x1b[1;2r\x1b[?3h\x1b[2;1Ha\nb", `
			|   |
			|a  |
			| b |`, 2, 2},
		// Issue 8: DECSCA and selective erase were not implemented.
		{"DECSEL keeps a protected cell", 10, 1, "\x1b[1;10H\x1b[1\"qP\x1b[0\"q\x1b[1;1H\x1b[?K", `
			|         P|`, 0, 0},
		{"EL erases a protected cell", 10, 1, "\x1b[1;10H\x1b[1\"qP\x1b[0\"q\x1b[1;1H\x1b[K", `
			|          |`, 0, 0},
		{"DECSEL 1 and 2 keep protected cells", 6, 2, "a\x1b[1\"qbc\x1b[2\"qdef\x1b[1;5H\x1b[?1K\r\n\x1b[1\"qx\x1b[\"qyz\x1b[?2K", `
			| bc  f|
			|x     |`, 3, 1},
		{"DECSED 0, 1 and 2 keep protected cells", 4, 3, "\x1b[1\"qA\x1b[0\"qbcd\x1b[1\"qE\x1b[0\"qfgh\x1b[1\"qI\x1b[0\"qjk\x1b[2;2H\x1b[?J\x1b[?1J\x1b[?2J", `
			|A   |
			|E   |
			|I   |`, 1, 1},
		{"ED erases protected cells", 4, 2, "\x1b[1\"qAB\r\nCD\x1b[H\x1b[J", `
			|    |
			|    |`, 0, 0},
		{"DECSEL keeps a protected wide character whole", 6, 1, "ab\x1b[1\"q世\x1b[0\"qc\x1b[4G\x1b[?1K", `
			|  世c |`, 3, 0},
		{"DECSC saves the protection", 4, 1, "\x1b[1\"q\x1b7\x1b[0\"q\x1b8P\r\x1b[?K", `
			|P   |`, 0, 0},
		{"DECSTR ends protection", 4, 1, "\x1b[1\"q\x1b[!pP\r\x1b[?K", `
			|    |`, 0, 0},
		{"ZWJ emoji is one grapheme", 6, 1, "\U0001F468\u200D\U0001F469x", `
			|` + "\U0001F468\u200D\U0001F469" + `x   |`, 3, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := checkSplits(t, tc.cols, tc.rows, tc.in)
			if got, w := picture(s), want(unescape(tc.want)); got != w {
				t.Errorf("screen\n%s\nwant\n%s", got, w)
			}
			if x, y, _ := s.Cursor(); x != tc.cx || y != tc.cy {
				t.Errorf("cursor %d,%d want %d,%d", x, y, tc.cx, tc.cy)
			}
		})
	}
}

// unescape turns the \uXXXX escapes of a raw-string picture into runes.
func unescape(s string) string {
	var out []rune
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		if rs[i] == '\\' && i+5 < len(rs) && rs[i+1] == 'u' {
			var v rune
			for _, h := range rs[i+2 : i+6] {
				v = v*16 + rune(hexVal(h))
			}
			out = append(out, v)
			i += 5
			continue
		}
		out = append(out, rs[i])
	}
	return string(out)
}

func hexVal(r rune) int {
	switch {
	case r >= '0' && r <= '9':
		return int(r - '0')
	case r >= 'a' && r <= 'f':
		return int(r-'a') + 10
	}
	return int(r-'A') + 10
}
