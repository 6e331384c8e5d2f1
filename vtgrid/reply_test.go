package vtgrid

import "testing"

func TestReplies(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"DA1", "\x1b[c", "\x1b[?62;22c"},
		{"DA2", "\x1b[>c", "\x1b[>41;0;0c"},
		{"DSR status", "\x1b[5n", "\x1b[0n"},
		{"DSR cursor", "ab\r\nc\x1b[6n", "\x1b[2;2R"},
		{"DSR cursor in origin mode", "\x1b[3;5r\x1b[?6h\x1b[2;3H\x1b[6n", "\x1b[2;3R"},
		{"DECRQM bracketed paste set", "\x1b[?2004h\x1b[?2004$p", "\x1b[?2004;1$y"},
		{"DECRQM sync output reset", "\x1b[?2026$p", "\x1b[?2026;2$y"},
		{"DECRQM sync output inside an update", "\x1b[?2026h\x1b[?2026$p", "\x1b[?2026;1$y"},
		{"DECRQM unknown", "\x1b[?31337$p", "\x1b[?31337;0$y"},
		{"DECRQM ANSI insert", "\x1b[4h\x1b[4$p", "\x1b[4;1$y"},
		{"kitty query default", "\x1b[?u", "\x1b[?0u"},
		{"kitty push then query", "\x1b[>3u\x1b[?u", "\x1b[?3u"},
		{"kitty push pop", "\x1b[>1u\x1b[>5u\x1b[<u\x1b[?u", "\x1b[?1u"},
		{"kitty set add", "\x1b[=1u\x1b[=4;2u\x1b[?u", "\x1b[?5u"},
		{"XTVERSION", "\x1b[>q", "\x1bP>|clowder(vtgrid)\x1b\\"},
		{"OSC 10 query", "\x1b]10;?\x07", "\x1b]10;rgb:d0d0/d0d0/d0d0\x07"},
		{"OSC 11 query", "\x1b]11;?\x1b\\", "\x1b]11;rgb:0000/0000/0000\x1b\\"},
		{"DECRQSS not supported", "\x1bP$qm\x1b\\", "\x1bP0$r\x1b\\"},
		{"window size report", "\x1b[18t", "\x1b[8;3;7t"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []byte
			term := New(7, 3, Options{Reply: func(b []byte) { got = append(got, b...) }})
			for i := 0; i < len(tc.in); i++ { // byte by byte: replies must not depend on write boundaries
				term.Write([]byte{tc.in[i]})
			}
			if string(got) != tc.want {
				t.Errorf("reply %q want %q", got, tc.want)
			}
		})
	}
}

func TestKittyFlagsArePerScreen(t *testing.T) {
	term := screenOf(5, 2, "\x1b[>1u\x1b[?1049h\x1b[>8u")
	if got := term.Modes().KittyKeyboard; got != 8 {
		t.Fatalf("alt screen kitty flags %d want 8", got)
	}
	term.Write([]byte("\x1b[?1049l"))
	if got := term.Modes().KittyKeyboard; got != 1 {
		t.Fatalf("main screen kitty flags %d want 1", got)
	}
}

func TestModes(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		check func(Modes) bool
	}{
		{"DECCKM", "\x1b[?1h", func(m Modes) bool { return m.AppCursor }},
		{"DECKPAM", "\x1b=", func(m Modes) bool { return m.AppKeypad }},
		{"DECKPNM", "\x1b=\x1b>", func(m Modes) bool { return !m.AppKeypad }},
		{"DECTCEM off", "\x1b[?25l", func(m Modes) bool { return !m.CursorVisible }},
		{"DECSCUSR", "\x1b[5 q", func(m Modes) bool { return m.CursorStyle == 5 }},
		{"bracketed paste", "\x1b[?2004h", func(m Modes) bool { return m.BracketedPaste }},
		{"mouse SGR any", "\x1b[?1003;1006h", func(m Modes) bool { return m.Mouse == MouseAny && m.MouseEnc == MouseEncSGR }},
		{"mouse off by its own mode", "\x1b[?1000h\x1b[?1000l", func(m Modes) bool { return m.Mouse == MouseOff }},
		{"focus", "\x1b[?1004h", func(m Modes) bool { return m.Focus }},
		{"sync output", "\x1b[?2026h", func(m Modes) bool { return m.SyncOutput }},
		{"sync output ends", "\x1b[?2026h\x1b[?2026l", func(m Modes) bool { return !m.SyncOutput }},
		{"RIS ends a synchronized update", "\x1b[?2026h\x1bc", func(m Modes) bool { return !m.SyncOutput }},
		{"modifyOtherKeys", "\x1b[>4;2m", func(m Modes) bool { return m.ModifyOtherKeys == 2 }},
		{"alt screen", "\x1b[?1049h", func(m Modes) bool { return m.AltScreen }},
		{"RIS resets", "\x1b[?1h\x1b[?2004h\x1bc", func(m Modes) bool { return !m.AppCursor && !m.BracketedPaste && m.Autowrap }},
		{"DECSTR resets cursor keys", "\x1b[?1h\x1b[!p", func(m Modes) bool { return !m.AppCursor }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if m := screenOf(5, 2, tc.in).Modes(); !tc.check(m) {
				t.Errorf("modes after %q: %+v", tc.in, m)
			}
		})
	}
}

func TestEvents(t *testing.T) {
	var got []Event
	term := New(10, 2, Options{Clipboard: true, Event: func(e Event) { got = append(got, e) }})
	term.Write([]byte("\x1b]0;my title\x07\x07\x1b]7;file://host/tmp\x1b\\\x1b]9;done\x07" +
		"\x1b]777;notify;T;body\x07\x1b]52;c;aGVsbG8=\x07\x1b]9;4;1;50\x07"))
	want := []Event{
		{Kind: EventTitle, Text: "my title"},
		{Kind: EventBell},
		{Kind: EventCwd, Text: "file://host/tmp"},
		{Kind: EventNotify, Text: "done"},
		{Kind: EventNotify, Title: "T", Text: "body"},
		{Kind: EventClipboard, Title: "c", Text: "hello"},
	}
	if len(got) != len(want) {
		t.Fatalf("events %+v want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("event %d: %+v want %+v", i, got[i], want[i])
		}
	}
	if s := term.Snapshot(); s.Title() != "my title" || s.Cwd() != "file://host/tmp" {
		t.Errorf("title %q cwd %q", s.Title(), s.Cwd())
	}
}

func TestClipboardOffByDefault(t *testing.T) {
	var got []Event
	term := New(10, 2, Options{Event: func(e Event) { got = append(got, e) }})
	term.Write([]byte("\x1b]52;c;aGVsbG8=\x07"))
	if len(got) != 0 {
		t.Fatalf("clipboard event with clipboard off: %+v", got)
	}
}

func TestHyperlinks(t *testing.T) {
	s := screenOf(10, 1, "\x1b]8;;https://a.test\x1b\\ab\x1b]8;;\x1b\\c").Snapshot()
	if got := s.Link(s.Cell(1, 0).LinkID()); got != "https://a.test" {
		t.Errorf("link %q", got)
	}
	if s.Cell(2, 0).LinkID() != 0 {
		t.Errorf("link did not end")
	}
}
