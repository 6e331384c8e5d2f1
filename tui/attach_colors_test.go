package tui

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/creack/pty"

	"clowder/supervisor/proto"
)

// answersOf feeds parts to a fresh parser and returns what it learned.
func answersOf(parts []string) (proto.SetColorsReq, string, bool) {
	var a answers
	for _, p := range parts {
		a.feed([]byte(p))
	}
	return a.colors, string(a.finish()), a.done
}

func TestAttachParsesTheTerminalsAnswersSplitAnywhere(t *testing.T) {
	tests := []struct {
		name, in string
		want     proto.SetColorsReq
		rest     string
		done     bool
	}{
		{"all", "\x1b]10;rgb:1010/2020/3030\x07\x1b]11;rgb:ffff/ffff/f0f0\x1b\\\x1b]12;rgb:cc/00/00\x07" +
			"\x1b]4;1;rgb:aaaa/1111/2222\x07\x1b[?62;22c",
			proto.SetColorsReq{Foreground: "#102030", Background: "#fffff0", Cursor: "#cc0000", Palette: []string{"", "#aa1122"}}, "", true},
		{"keys around answers", "ab\x1b[A\x1b]11;rgb:0000/0000/0000\x07c\x1b[?1;2cde",
			proto.SetColorsReq{Background: "#000000"}, "ab\x1b[Acde", true},
		{"no colour answers", "\x1b[?6c", proto.SetColorsReq{}, "", true},
		{"no DA1 yet", "\x1b]11;rgb:0000/0000/0000\x07\x1b]10;rgb:ff", proto.SetColorsReq{Background: "#000000"},
			"\x1b]10;rgb:ff", false},
		{"a report that is not DA1 is input", "\x1b[?2004;1$y\x1b[?1c", proto.SetColorsReq{}, "\x1b[?2004;1$y", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			feeds := [][]string{{tc.in}, bytesOf(tc.in)}
			for i := 1; i < len(tc.in); i++ {
				feeds = append(feeds, []string{tc.in[:i], tc.in[i:]})
			}
			for _, parts := range feeds {
				got, rest, done := answersOf(parts)
				if !sameColors(got, tc.want) || rest != tc.rest || done != tc.done {
					t.Fatalf("fed %q: colours %+v rest %q done %v; want %+v %q %v", parts, got, rest, done, tc.want, tc.rest, tc.done)
				}
			}
		})
	}
}

// bytesOf splits s into one-byte strings.
func bytesOf(s string) []string {
	out := make([]string, len(s))
	for i := range s {
		out[i] = s[i : i+1]
	}
	return out
}

// rawPTY opens a PTY pair with the terminal side raw, as attach has it.
func rawPTY(t *testing.T) (ptm, tty *os.File) {
	t.Helper()
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ptm.Close(); tty.Close() })
	if _, err := term.MakeRaw(tty.Fd()); err != nil {
		t.Fatal(err)
	}
	return ptm, tty
}

// Regression: attach never asked the outer terminal its colours, so the
// host answered a pane's queries black. Here a real PTY stands in for the
// outer terminal: the test answers the queries it reads, as a terminal
// does, and types a key before the DA1 answer.
func TestAttachAsksTheOuterTerminalItsColors(t *testing.T) {
	ptm, tty := rawPTY(t)
	asked := make(chan string, 1)
	go func() {
		var q []byte
		buf := make([]byte, 512)
		for !bytes.HasSuffix(q, []byte("\x1b[c")) {
			n, err := ptm.Read(buf)
			if err != nil {
				asked <- string(q)
				return
			}
			q = append(q, buf[:n]...)
		}
		io.WriteString(ptm, "\x1b]11;rgb:fafa/fafa/f0f0\x1b\\\x1b]10;rgb:1010/1010/1010\x1b\\x\x1b]4;0;rgb:0101/0101/0101\x1b\\\x1b[?62;22c")
		asked <- string(q)
	}()
	got, rest := askOuterColors(tty, tty, time.Minute)
	q := <-asked
	for _, want := range []string{"\x1b]10;?\x07", "\x1b]11;?\x07", "\x1b]12;?\x07", "\x1b]4;0;?\x07", "\x1b]4;15;?\x07"} {
		if !bytes.Contains([]byte(q), []byte(want)) {
			t.Errorf("queries %q lack %q", q, want)
		}
	}
	want := proto.SetColorsReq{Foreground: "#101010", Background: "#fafaf0", Palette: []string{"#010101"}}
	if !sameColors(got, want) || string(rest) != "x" {
		t.Fatalf("learned %+v, input %q; want %+v and the typed x", got, rest, want)
	}
}

// A terminal that answers nothing costs only the wait.
func TestAttachColorQueryEndsWhenTheTerminalIsSilent(t *testing.T) {
	_, tty := rawPTY(t)
	got, rest := askOuterColors(tty, tty, 50*time.Millisecond)
	if !sameColors(got, proto.SetColorsReq{}) || len(rest) != 0 || !slices.Equal(got.Palette, nil) {
		t.Fatalf("learned %+v, input %q from a silent terminal", got, rest)
	}
}

// Regression: keys typed while attach asked the terminal its colours went
// to the pane unchecked, so a Ctrl-\ typed at once reached the pane (cat
// died of SIGQUIT) instead of detaching.
func TestAttachDetachKeyTypedDuringTheColorQueryDetaches(t *testing.T) {
	ptm, tty := rawPTY(t)
	go func() {
		buf := make([]byte, 512)
		var q []byte
		for !bytes.HasSuffix(q, []byte("\x1b[c")) {
			n, err := ptm.Read(buf)
			if err != nil {
				return
			}
			q = append(q, buf[:n]...)
		}
		io.WriteString(ptm, "ab\x1ccd\x1b[?62;22c") // keys, then only DA1: no colours to set
	}()
	var master bytes.Buffer
	err := passOuterColors(context.Background(), nil, tty, tty, &master)
	if !errors.Is(err, ErrDetached) || master.String() != "ab" {
		t.Fatalf("passOuterColors: %v, pane got %q; want ErrDetached and only the keys before it", err, master.String())
	}
}
