package tui

import (
	"fmt"
	"math/rand"
	"reflect"
	"sort"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
)

// inputTokens are pieces of terminal input that random cases are made of:
// keys, Alt+keys, a lone ESC, runes, CSI, SS3, mouse, focus, replies,
// paste markers, invalid bytes.
var inputTokens = []string{
	"a", "Z", "é", "漢", "🎉", "\r", "\t", "\x7f", "\x00", "\x01", "\x1b", "\x1ba", "\x1b\x1b",
	"\x1b[A", "\x1b[1;5C", "\x1bOP", "\x1b[15~", "\x1b[97;5u", "\x1b[27;5;97~",
	"\x1b[<0;10;5M", "\x1b[<0;10;5m", "\x1b[<64;3;4M", "\x1b[M !!", "\x1b[I", "\x1b[O",
	"\x1b[1;5R", "\x1b[12;40R", "\x1b[?62;22c", "\x1b]11;rgb:0000/0000/0000\x07",
	"\x1b]10;rgb:ffff/ffff/ffff\x1b\\", "\x1b[?999z", "\x1b[?2004;1$y", "\x1bP>|tmux 3.3a\x1b\\",
	"\xff", "\xfe", "\xe6\xbc", "\x80", "\x1b[", "\x1bO",
}

// randomReads is a random input cut into random reads.
func randomReads(r *rand.Rand) []string {
	var b strings.Builder
	for i := r.Intn(12) + 1; i > 0; i-- {
		b.WriteString(inputTokens[r.Intn(len(inputTokens))])
	}
	s := b.String()
	var reads []string
	for len(s) > 0 {
		n := r.Intn(len(s)) + 1
		if n < len(s) && s[n-1] == '\x1b' && s[n] == '\\' {
			n++ // not inside ESC \, where the scanner differs on purpose (TestAReplyCutInsideItsTerminatorIsNoKey)
		}
		reads, s = append(reads, s[:n]), s[n:]
	}
	return reads
}

// The scanner and ultraviolet's reader make the same events of random
// mixes of keys, pastes, mouse, replies and invalid bytes, cut anywhere.
func TestTheScannerDecodesRandomInputAsUltravioletDoes(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	fails := 0
	for i := 0; i < 4000 && fails < 5; i++ {
		reads := randomReads(r)
		want, got := ultravioletScanned(t, reads), scanned(reads)
		if !reflect.DeepEqual(got, want) {
			fails++
			t.Errorf("reads %q:\n got %s\nwant %s", reads, events(got), events(want))
		}
	}
}

// Every sequence of ultraviolet's key table, read whole, gives the key
// its reader gives.
func TestTheScannerDecodesEveryKeyTableEntryAsUltravioletDoes(t *testing.T) {
	rd := uv.NewTerminalReader(strings.NewReader(""), "xterm-256color")
	keys := reflect.ValueOf(rd).Elem().FieldByName("table").MapKeys()
	var seqs []string
	for _, k := range keys {
		seqs = append(seqs, k.String())
	}
	sort.Strings(seqs)
	for _, seq := range seqs {
		for _, reads := range [][]string{{seq}, {seq + "a"}, {"a" + seq}} {
			want, got := ultravioletScanned(t, reads), scanned(reads)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("reads %q:\n got %s\nwant %s", reads, events(got), events(want))
			}
		}
	}
}

// Inside a bracketed paste, a read that is exactly CSI 1;5 R (Ctrl+F3, or
// a cursor position report) stays in the paste, as every other key's
// sequence does. Regression: the scanner looked its key table up before
// it looked at the paste, so that read left the paste as a Ctrl+F3 press
// in the middle of it.
func TestAKeyTableSequenceInsideAPasteStaysInThePaste(t *testing.T) {
	reads := []string{"\x1b[200~ab", "\x1b", "[1;5R", "cd\x1b[201~"}
	got := scanned(reads)
	want := ultravioletScanned(t, []string{strings.Join(reads, "")})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("reads %q:\n got %s\nwant %s", reads, events(got), events(want))
	}
}

// A paste of 1 MiB, escape sequences in it, read 4 KiB at a time, comes
// whole as one paste.
func TestAMebibytePasteComesWhole(t *testing.T) {
	line := "text é\t\x1b[A\x1bOP\r\n"
	body := strings.Repeat(line, (1<<20)/len(line))
	p := "\x1b[200~" + body + "\x1b[201~"
	var reads []string
	for len(p) > 4096 {
		reads, p = append(reads, p[:4096]), p[4096:]
	}
	reads = append(reads, p)
	got := scanned(reads)
	want := ultravioletScanned(t, []string{"\x1b[200~" + line + "\x1b[201~"})
	if len(got) != 3 || len(want) != 3 {
		t.Fatalf("got %d events, want 3 (start, paste, end)", len(got))
	}
	paste, ok := got[1].(uv.PasteEvent)
	wantLine := want[1].(uv.PasteEvent).Content
	if !ok || paste.Content != strings.Repeat(wantLine, (1<<20)/len(line)) {
		t.Errorf("the paste's content is not the %d lines pasted", (1<<20)/len(line))
	}
}

// Through a real terminal: a lone ESC is the escape key once the escape
// timeout passed, and a key after it is that key, not Alt+key; ESC and a
// key in one read is Alt+key; a terminal's replies between keys come in
// their place; invalid bytes cost no key after them.
func TestALoneEscapeThenAKeyAndRepliesThroughATerminal(t *testing.T) {
	ptm, l := terminalLoop(t)
	r := &recorder{got: make(chan tea.Msg, 64)}
	res := runRecorder(t, l, r, nil)
	write := func(s string) {
		t.Helper()
		if _, err := ptm.WriteString(s); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct{ in, want string }{
		{"\x1b", "key esc"},
		{"a", "key a"},
		{"\x1bb", "key alt+b"},
		{"c\x1b]11;rgb:0000/0000/0000\x07d", "key c|bg|key d"},
		{"\x1b[?62;22ce", "caps|key e"},
		{"\xff\xfef", "key f"},
	}
	for _, st := range steps {
		write(st.in)
		var seen []string
		for len(seen) < strings.Count(st.want, "|")+1 {
			if s := describeAll(next(t, r)); s != "" {
				seen = append(seen, s)
			}
		}
		if got := strings.Join(seen, "|"); got != st.want {
			t.Errorf("wrote %q: Update got %q, want %q", st.in, got, st.want)
		}
	}
	write("q")
	if err := <-res; err != nil {
		t.Errorf("a QuitMsg ended the loop with %v", err)
	}
}

// describeAll is describe, and names a terminal's replies.
func describeAll(msg tea.Msg) string {
	switch msg.(type) {
	case tea.BackgroundColorMsg:
		return "bg"
	case uv.PrimaryDeviceAttributesEvent:
		return "caps"
	case uv.UnknownEvent:
		return "" // invalid bytes: the TUI ignores them
	}
	if d := describe(msg); d != "" {
		return d
	}
	return fmt.Sprintf("%T", msg)
}

// A paste whose end marker the terminal's reads cut, with more than the
// escape timeout between the two parts (a slow link, a loaded machine),
// still ends at the marker, and the key typed after it is a key.
// Regression: the timeout took the marker's first part as an unknown
// sequence inside the paste and dropped it, so the paste never ended and
// every key typed after it went into the paste, unseen.
func TestAPasteEndMarkerCutByTheEscapeTimeoutStillEndsThePaste(t *testing.T) {
	for _, cut := range []string{"\x1b", "\x1b[", "\x1b[2", "\x1b[20", "\x1b[201"} {
		var s inputScanner
		var got []uv.Event
		emit := func(ev uv.Event) { got = append(got, ev) }
		s.feed([]byte("\x1b[200~abc"+cut), emit)
		s.expire(emit)
		s.feed([]byte("\x1b[201~"[len(cut):]), emit)
		s.feed([]byte("x"), emit)
		s.expire(emit)
		want := []uv.Event{uv.PasteStartEvent{}, uv.PasteEvent{Content: "abc"}, uv.PasteEndEvent{}, uv.KeyPressEvent{Code: 'x', Text: "x"}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("end marker cut after %q:\n got %s\nwant %s", cut, events(got), events(want))
		}
	}
}

// A terminal's reply to a query (OSC colours, DCS version, APC) whose
// string terminator ESC \ the reads cut between its two bytes is the same
// reply as in one read, and no key. Regression: the ESC at the end of the
// first read was taken as the reply's end, and the \ after it as a typed
// key, which went to the focused pane (ultraviolet's reader does the same).
func TestAReplyCutInsideItsTerminatorIsNoKey(t *testing.T) {
	for _, reply := range []string{"\x1b]10;rgb:ffff/ffff/ffff", "\x1b]11;rgb:0000/0000/0000", "\x1bP>|tmux 3.3a", "\x1b_Gi=1;OK"} {
		reads := []string{"x" + reply + "\x1b", "\\a"}
		want := scanned([]string{strings.Join(reads, "")})
		if got := scanned(reads); !reflect.DeepEqual(got, want) {
			t.Errorf("reads %q:\n got %s\nwant %s", reads, events(got), events(want))
		}
	}
}
