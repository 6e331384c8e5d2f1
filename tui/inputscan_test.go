package tui

import (
	"context"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
)

// inputCorpus is terminal input, each case as the reads it comes in:
// keys of every encoding, pastes, mouse, focus, replies to queries, and
// sequences split across reads.
var inputCorpus = [][]string{
	{"a"}, {"abc"}, {"héllo 漢字 🎉"}, {"\x01\x7f\r\t\x00"},
	{"\x1b[A"}, {"\x1b[1;5C"}, {"\x1bOP"}, {"\x1b[15~"}, {"\x1b[1~\x1b[4~"}, {"\x1bOA\x1bOD"},
	{"\x1ba"}, {"\x1b\x1b"}, {"\x1b"}, {"a\x1b"}, {"\x1b[97;5u"}, {"\x1b[27;5;97~"}, {"\x1b[97;1:3u"},
	{"\x1b[200~hello\r\nworld\x1b[201~"}, {"\x1b[200~a\x1b[Ab\x1b\x1b[201~"}, {"\x1b[200~\xff\xfeok\x1b[201~"},
	{"x\x1b[200~p\x1b[201~y"}, {"\x1b[200~"}, {"\x1b[200~\x1b"},
	{"\x1b[<0;10;5M\x1b[<0;10;5m"}, {"\x1b[<64;3;4M"}, {"\x1b[<35;20;7M"}, {"\x1b[M !!"},
	{"\x1b[I\x1b[O"}, {"\x1b[1;5R"}, {"a\x1b[1;5R"}, {"\x1b[12;40R"}, {"\x1b[?62;22c"},
	{"\x1b]11;rgb:0000/0000/0000\x07"}, {"\x1b]10;rgb:ffff/ffff/ffff\x1b\\"}, {"\x1b[?999z"}, {"\x1b[?2004;1$y"},
	{"\x1b", "[A"}, {"\x1b[", "1;5C"}, {"\x1b[", "200~x", "y\x1b[20", "1~"}, {"\x1b[<0;1", "0;5M"},
	{"\xe6\xbc", "\xa2"}, {"a", "b", "\x1b", "b"}, {"\x1b[?62;", "22c"}, {"\x1b]11;rgb:00", "00/0000/0000\x07"},
	{"\x1bP>|tmux 3.3a\x1b\\"}, {"\x1b_Gi=1;OK\x1b\\"},
	longPaste(),
}

// longPaste is a paste of 10,000 bytes of text and control characters in
// the reads a terminal gives it, 4,096 bytes each, the end marker split.
func longPaste() []string {
	p := "\x1b[200~" + strings.Repeat("line\tof text é\r\n", 10_000/17) + "\x1b[201~"
	var reads []string
	for len(p) > 4096 {
		reads, p = append(reads, p[:4096]), p[4096:]
	}
	cut := len(p) - 3
	return append(reads, p[:cut], p[cut:])
}

// scanned is what inputScanner makes of reads, expired at the end.
func scanned(reads []string) []uv.Event {
	var s inputScanner
	var got []uv.Event
	emit := func(ev uv.Event) { got = append(got, ev) }
	for _, r := range reads {
		s.feed([]byte(r), emit)
	}
	s.expire(emit)
	return got
}

// ultravioletScanned is what ultraviolet's TerminalReader makes of the
// same reads, its escape timeout out of the way: the end of the input
// expires what is left, as it does for the scanner.
func ultravioletScanned(t *testing.T, reads []string) []uv.Event {
	t.Helper()
	pr, pw := io.Pipe()
	rd := uv.NewTerminalReader(pr, "xterm-256color")
	rd.EscTimeout = time.Hour
	evc := make(chan uv.Event, 64)
	done := make(chan error, 1)
	go func() { done <- rd.StreamEvents(context.Background(), evc) }()
	for _, r := range reads {
		if _, err := pw.Write([]byte(r)); err != nil {
			t.Fatal(err)
		}
	}
	pw.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	close(evc)
	var got []uv.Event
	for ev := range evc {
		got = append(got, ev)
	}
	return got
}

// The decoder that runs on the terminal's reading goroutine (issue 12)
// makes the same events as ultraviolet's TerminalReader, which it
// replaces where the terminal is read through the poller, from the same
// reads: keys, pastes, mouse, focus, replies, split sequences.
func TestTheScannerDecodesAsUltravioletDoes(t *testing.T) {
	for _, reads := range inputCorpus {
		want, got := ultravioletScanned(t, reads), scanned(reads)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("reads %q:\n got %s\nwant %s", reads, events(got), events(want))
		}
	}
}

// events prints events with their types.
func events(evs []uv.Event) string {
	var b strings.Builder
	for _, e := range evs {
		fmt.Fprintf(&b, "%T%+v ", e, e)
	}
	return b.String()
}

// Issue 12: ultraviolet read the terminal on one goroutine and decoded
// on another, a hop (and often a thread woken) for every key before the
// loop's. The goroutine that reads the terminal now decodes it, and no
// TerminalReader runs.
func TestTheTerminalIsDecodedOnTheGoroutineThatReadsIt(t *testing.T) {
	ptm, l := terminalLoop(t)
	r := &recorder{got: make(chan tea.Msg, 16)}
	res := runRecorder(t, l, r, nil)
	if _, err := ptm.WriteString("a"); err != nil {
		t.Fatal(err)
	}
	if k, ok := next(t, r).(tea.KeyPressMsg); !ok || k.String() != "a" {
		t.Fatalf("Update got %v, want the key a", k)
	}
	buf := make([]byte, 1<<20)
	stacks := string(buf[:runtime.Stack(buf, true)])
	if strings.Contains(stacks, "ultraviolet.(*TerminalReader)") {
		t.Errorf("ultraviolet's TerminalReader decodes the input on goroutines of its own:\n%s", stacks)
	}
	typeQuit(t, ptm, res)
}

// Keys, pastes, mouse and focus events typed through a real terminal
// reach Update in the order they were typed, a sequence split across
// writes whole, and a lone ESC as the escape key once no more follows.
func TestInputReachesUpdateInOrder(t *testing.T) {
	ptm, l := terminalLoop(t)
	r := &recorder{got: make(chan tea.Msg, 64)}
	res := runRecorder(t, l, r, nil)
	writes := []string{"a\x1b[200~one\r\ntwo\x1b[201~", "\x1b[<0;10;5M\x1b[<0;10;5m", "\x1b[", "Bb\x1b[I\x1b[O", "\x1b[<64;3;4M", "\x1b"}
	want := "key a, paste one\r\ntwo, click left 9 4, release left 9 4, key down, key b, focus, blur, wheel wheelup 2 3, key esc"
	for _, w := range writes {
		if _, err := ptm.WriteString(w); err != nil {
			t.Fatal(err)
		}
	}
	var seen []string
	for len(seen) < strings.Count(want, ",")+1 {
		if s := describe(next(t, r)); s != "" {
			seen = append(seen, s)
		}
	}
	if got := strings.Join(seen, ", "); got != want {
		t.Errorf("Update got\n %q\nwant\n %q", got, want)
	}
	typeQuit(t, ptm, res)
}

// describe names an input message ("" for the paste's start and end).
func describe(msg tea.Msg) string {
	switch m := msg.(type) {
	case tea.KeyPressMsg:
		return "key " + m.String()
	case tea.PasteMsg:
		return "paste " + m.Content
	case tea.MouseClickMsg:
		return fmt.Sprintf("click %s %d %d", m.Button, m.X, m.Y)
	case tea.MouseReleaseMsg:
		return fmt.Sprintf("release %s %d %d", m.Button, m.X, m.Y)
	case tea.MouseWheelMsg:
		return fmt.Sprintf("wheel %s %d %d", m.Button, m.X, m.Y)
	case tea.FocusMsg:
		return "focus"
	case tea.BlurMsg:
		return "blur"
	}
	return ""
}
