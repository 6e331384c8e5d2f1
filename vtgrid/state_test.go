package vtgrid

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// recorder collects a terminal's replies.
type recorder struct{ replies []byte }

func (r *recorder) opts(scrollback int) Options {
	return Options{ScrollbackLines: scrollback, Reply: func(b []byte) { r.replies = append(r.replies, b...) }}
}

// restored serializes a and restores the state into a fresh terminal with
// its own reply recorder.
func restored(t *testing.T, a *Terminal, rec *recorder) *Terminal {
	t.Helper()
	b := New(3, 2, rec.opts(7))
	if err := b.RestoreState(a.AppendState(nil)); err != nil {
		t.Fatal(err)
	}
	return b
}

// sameTerminal fails unless a and b hold the same state: every cell of
// both screens, the scrollback, cursors, region, tabs, modes, parser,
// strings and colours.
func sameTerminal(t *testing.T, what string, a, b *Terminal) {
	t.Helper()
	diff := terminalDiff(a, b)
	if diff != "" {
		t.Fatalf("%s: the restored terminal differs: %s", what, diff)
	}
}

func terminalDiff(a, b *Terminal) string {
	switch {
	case a.cols != b.cols || a.rows != b.rows:
		return fmt.Sprintf("size %dx%d, want %dx%d", b.cols, b.rows, a.cols, a.rows)
	case screenDiff(a.main, b.main) != "":
		return "main screen: " + screenDiff(a.main, b.main)
	case (a.alt == nil) != (b.alt == nil) && !blankScreen(a.alt) && !blankScreen(b.alt):
		return fmt.Sprintf("alternate screen present %v, want %v", b.alt != nil, a.alt != nil)
	case a.alt != nil && b.alt != nil && screenDiff(a.alt, b.alt) != "":
		return "alternate screen: " + screenDiff(a.alt, b.alt)
	case a.screenIndex() != b.screenIndex():
		return fmt.Sprintf("active screen %d, want %d", b.screenIndex(), a.screenIndex())
	case scrollbackDiff(a, b) != "":
		return scrollbackDiff(a, b)
	case a.cur != b.cur:
		return fmt.Sprintf("cursor %+v, want %+v", b.cur, a.cur)
	case a.saved != b.saved:
		return fmt.Sprintf("saved cursors %+v, want %+v", b.saved, a.saved)
	case a.top != b.top || a.bot != b.bot:
		return fmt.Sprintf("scroll region %d-%d, want %d-%d", b.top, b.bot, a.top, a.bot)
	case !slices.Equal(a.tabs, b.tabs):
		return fmt.Sprintf("tab stops %v, want %v", b.tabs, a.tabs)
	case liveModes(a.modes) != liveModes(b.modes):
		return fmt.Sprintf("modes %+v, want %+v", b.modes, a.modes)
	}
	return parserDiff(a, b)
}

// liveModes clears the kitty stacks' entries above their tops, which are
// never read again.
func liveModes(m Modes) Modes {
	for i := range m.kitty {
		clear(m.kitty[i].flags[m.kitty[i].n:])
	}
	return m
}

func parserDiff(a, b *Terminal) string {
	pa, pb := a.p, b.p
	pa.v, pb.v = [maxParams]int32{}, [maxParams]int32{} // beyond count they are never read
	pa.sub, pb.sub = [maxParams]bool{}, [maxParams]bool{}
	copy(pa.v[:], a.p.v[:a.p.count()])
	copy(pb.v[:], b.p.v[:b.p.count()])
	copy(pa.sub[:], a.p.sub[:a.p.count()])
	copy(pb.sub[:], b.p.sub[:b.p.count()])
	switch {
	case a.state != b.state || pa != pb:
		return fmt.Sprintf("parser %d %+v, want %d %+v", b.state, pb, a.state, pa)
	case !bytes.Equal(a.str, b.str) || a.strCmd != b.strCmd:
		return fmt.Sprintf("string %q %q, want %q %q", b.str, b.strCmd, a.str, a.strCmd)
	case !bytes.Equal(a.utf8[:a.nutf8], b.utf8[:b.nutf8]):
		return fmt.Sprintf("pending UTF-8 %q, want %q", b.utf8[:b.nutf8], a.utf8[:a.nutf8])
	case a.last != b.last || a.join != b.join:
		return fmt.Sprintf("last %q join %v, want %q %v", b.last, b.join, a.last, a.join)
	case a.title != b.title || a.cwd != b.cwd:
		return fmt.Sprintf("title %q cwd %q, want %q %q", b.title, b.cwd, a.title, a.cwd)
	case !slices.Equal(a.links.list, b.links.list):
		return fmt.Sprintf("links %q, want %q", b.links.list, a.links.list)
	case a.Colors() != b.Colors():
		return "colours differ"
	}
	return ""
}

// blankScreen: an alternate screen entered and cleared equals one never
// allocated.
func blankScreen(s *screen) bool {
	if s == nil {
		return true
	}
	for y := range s.lines {
		if l := s.row(y); l.wrapped || !l.empty() {
			return false
		}
	}
	return true
}

func screenDiff(a, b *screen) string {
	for y := range a.lines {
		ca, cb := a.rowCells(y), b.rowCells(y)
		wa, wb := a.row(y).wrapped, b.row(y).wrapped
		if !slices.Equal(ca, cb) || wa != wb {
			return fmt.Sprintf("row %d is %+v (wrapped %v), want %+v (wrapped %v)", y, cb, wb, ca, wa)
		}
	}
	return ""
}

func scrollbackDiff(a, b *Terminal) string {
	ao, ae := a.ScrollbackBounds()
	bo, be := b.ScrollbackBounds()
	if ao != bo || ae != be {
		return fmt.Sprintf("scrollback rows %d-%d, want %d-%d", bo, be, ao, ae)
	}
	ra, wa, _ := a.ScrollbackRows(ao, int(ae-ao))
	rb, wb, _ := b.ScrollbackRows(bo, int(be-bo))
	for i := range ra {
		if !slices.Equal(ra[i], rb[i]) || wa[i] != wb[i] {
			return fmt.Sprintf("scrollback row %d is %+v, want %+v", i, rb[i], ra[i])
		}
	}
	return ""
}

// stateStreams are the streams the property runs on: the differential
// corpus, the recordings, the fuzz seeds and generated mixes.
func stateStreams(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, glob := range []string{"testdata/gen/*.bin", "testdata/rec/*.bin"} {
		files, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out[f] = b
		}
	}
	if len(out) == 0 {
		t.Fatal("no corpus in testdata")
	}
	for i, s := range stateSeeds {
		out[fmt.Sprintf("seed %d", i)] = []byte(s)
	}
	for i := range 40 {
		out[fmt.Sprintf("mix %d", i)] = stateMix(rand.New(rand.NewPCG(uint64(i), 7)), 3000)
	}
	return out
}

// stateSeeds are short streams that end in every kind of unfinished input.
var stateSeeds = []string{
	"\x1b[?1049h\x1b[3;10r\x1b7\x1b(0lqqk\x1b8\x1b[5;5Hx",
	"\x1b[38;2;1;2;3;4:3mab\x1b[",
	"\x1b]0;a title that is cut",
	"\x1bP$qm",
	"abc\xe4\xb8",
	"\x1b[>1u\x1b[?1049h\x1b[>3u\x1b[?2004h\x1b[?1006;1002h",
	"\x1b)0\x0e",
	"x\u0301\U0001F468\u200d",
	"\x1b]8;id=1;http://example.com\x07link",
}

// stateMix generates n pieces of text, controls, escape sequences and
// strings, many of them the state an upgrade must carry.
func stateMix(r *rand.Rand, n int) []byte {
	var b bytes.Buffer
	for range n {
		statePieces[r.IntN(len(statePieces))](r, &b)
	}
	return b.Bytes()
}

var statePieces = []func(r *rand.Rand, b *bytes.Buffer){
	func(r *rand.Rand, b *bytes.Buffer) { b.WriteString(strings.Repeat("word ", r.IntN(12))) },
	func(r *rand.Rand, b *bytes.Buffer) {
		b.WriteString([]string{"世界", "é", "e\u0301", "\U0001F468\u200d\U0001F469", "λ", "\u00a0", "\xff", "\xe4\xb8", "👍🏽"}[r.IntN(9)])
	},
	func(r *rand.Rand, b *bytes.Buffer) { b.WriteByte("\r\n\n\b\t\x0e\x0f\a"[r.IntN(8)]) },
	func(r *rand.Rand, b *bytes.Buffer) {
		b.WriteString("\x1b" + []string{"7", "8", "(0", "(B", ")0", "*0", "+B", "=", ">", "D", "M", "E", "H", "#8"}[r.IntN(14)])
	},
	func(r *rand.Rand, b *bytes.Buffer) {
		fmt.Fprintf(b, "\x1b[%d;%d%c", r.IntN(30), r.IntN(90), "HfrJKLMPX@STdGgq"[r.IntN(16)])
	},
	func(r *rand.Rand, b *bytes.Buffer) {
		fmt.Fprintf(b, "\x1b[%dm", []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 21, 22, 24, 27, 31, 42, 53, 90, 107}[r.IntN(18)])
	},
	func(r *rand.Rand, b *bytes.Buffer) {
		b.WriteString([]string{"\x1b[38;5;123m", "\x1b[48;2;10;20;30m", "\x1b[4:3m", "\x1b[58:5:9m", "\x1b[1;4;38:2::1:2:3m"}[r.IntN(5)])
	},
	func(r *rand.Rand, b *bytes.Buffer) {
		modes := []int{1, 5, 6, 7, 12, 25, 47, 1047, 1049, 1048, 9, 1000, 1002, 1003, 1004, 1005, 1006, 1007, 1015, 2004, 2026}
		fmt.Fprintf(b, "\x1b[?%d%c", modes[r.IntN(len(modes))], "hl"[r.IntN(2)])
	},
	func(r *rand.Rand, b *bytes.Buffer) {
		b.WriteString([]string{"\x1b[4h", "\x1b[4l", "\x1b[20h", "\x1b[20l", "\x1b[3 q", "\x1b[0g", "\x1b[3g", "\x1b[1\"q", "\x1b[0\"q", "\x1b[!p", "\x1b[5b"}[r.IntN(11)])
	},
	func(r *rand.Rand, b *bytes.Buffer) {
		b.WriteString([]string{"\x1b[6n", "\x1b[?6n", "\x1b[c", "\x1b[>c", "\x1b[?2004$p", "\x1b[4$p", "\x1b[?u", "\x1b]11;?\x07", "\x1b]4;3;?\x1b\\", "\x1bP$qm\x1b\\", "\x1bP+q544e\x1b\\"}[r.IntN(11)])
	},
	func(r *rand.Rand, b *bytes.Buffer) {
		b.WriteString([]string{"\x1b[>1u", "\x1b[>5u", "\x1b[<u", "\x1b[=3;2u", "\x1b[>4;2m", "\x1b[>4;0m"}[r.IntN(6)])
	},
	func(r *rand.Rand, b *bytes.Buffer) {
		b.WriteString([]string{"\x1b]0;title\x07", "\x1b]2;other\x1b\\", "\x1b]7;file:///tmp\x07", "\x1b]8;;http://x\x07", "\x1b]8;;\x07", "\x1b_apc\x1b\\"}[r.IntN(6)])
	},
	func(r *rand.Rand, b *bytes.Buffer) {
		fmt.Fprintf(b, "\x1b[%d;%dr", 1+r.IntN(6), 4+r.IntN(20))
	},
	func(r *rand.Rand, b *bytes.Buffer) {
		if r.IntN(40) == 0 {
			b.WriteString("\x1bc")
		}
	},
}

// TestStateRestoreContinuesAnyStream is the property an upgrade relies on:
// split any stream anywhere (inside an escape sequence, a string or a UTF-8
// character), feed the first part to A, restore A's state into B, feed the
// rest to both: both hold the same cells, scrollback, cursor and modes, and
// answered the same replies.
func TestStateRestoreContinuesAnyStream(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	streams := stateStreams(t)
	for _, name := range slices.Sorted(maps.Keys(streams)) { // sorted: the same cuts every run
		data := streams[name]
		for range 6 {
			cut := r.IntN(len(data) + 1)
			cols, rows := 10+r.IntN(80), 3+r.IntN(30)
			checkRestoreAt(t, fmt.Sprintf("%s cut at %d of %d on %dx%d", name, cut, len(data), cols, rows), data, cut, cols, rows)
		}
	}
}

func checkRestoreAt(t *testing.T, what string, data []byte, cut, cols, rows int) {
	t.Helper()
	var ra, rb recorder
	a := New(cols, rows, ra.opts(40))
	a.Write(data[:cut])
	b := restored(t, a, &rb)
	sameTerminal(t, what+", restored", a, b)
	ra.replies = nil
	a.Write(data[cut:])
	b.Write(data[cut:])
	sameTerminal(t, what+", fed the rest", a, b)
	if !bytes.Equal(ra.replies, rb.replies) {
		t.Fatalf("%s: replies %q, want %q", what, rb.replies, ra.replies)
	}
	sa, sb := a.SnapshotScrollback(-1), b.SnapshotScrollback(-1)
	if sa.ANSI() != sb.ANSI() || sa.HistoryANSI() != sb.HistoryANSI() {
		t.Fatalf("%s: snapshots differ", what)
	}
}

// TestStateRestoreEveryCutOfTheSeeds splits the short seeds at every byte.
func TestStateRestoreEveryCutOfTheSeeds(t *testing.T) {
	for i, s := range stateSeeds {
		data := []byte(s + "more text\x1b[2;3Hq\x1b[6n" + s)
		for cut := range len(data) + 1 {
			checkRestoreAt(t, fmt.Sprintf("seed %d cut at %d", i, cut), data, cut, 12, 5)
		}
	}
}

// TestStateRestoreRefusesBadStates: a state of another version, cut short
// or corrupt is refused with an error and leaves the terminal as it was.
func TestStateRestoreRefusesBadStates(t *testing.T) {
	var rec recorder
	a := New(20, 5, rec.opts(10))
	a.Write(stateMix(rand.New(rand.NewPCG(3, 4)), 500))
	good := a.AppendState(nil)
	newer := slices.Clone(good)
	newer[len(stateMagic)] = StateVersion + 1
	bad := map[string][]byte{
		"empty":         nil,
		"not a state":   []byte("hello"),
		"newer":         newer,
		"trailing":      append(slices.Clone(good), 0),
		"cut in half":   good[:len(good)/2],
		"cut at 3/4":    good[:len(good)*3/4],
		"cut at a byte": good[:len(good)-1],
	}
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 200 {
		c := slices.Clone(good)
		c[len(stateMagic)+1+r.IntN(len(c)-len(stateMagic)-1)] ^= byte(1 + r.IntN(255))
		bad[fmt.Sprintf("flipped %d", i)] = c
	}
	for name, data := range bad {
		b := New(7, 3, rec.opts(10))
		b.Write([]byte("kept"))
		before := b.Snapshot().ANSI()
		err := b.RestoreState(data)
		if strings.HasPrefix(name, "flipped") {
			if err == nil {
				checkInvariants(t, b) // a flip that still decodes must give a sane terminal
			}
			continue
		}
		if err == nil {
			t.Fatalf("%s: restored without an error", name)
		}
		if got := b.Snapshot().ANSI(); got != before {
			t.Fatalf("%s: a refused state changed the terminal to %q", name, got)
		}
	}
}

// BenchmarkStateRoundTrip serializes and restores a 200x50 terminal with a
// full 10,000-row scrollback of styled text (an upgrade does it once per
// pane); state-bytes is the size of the state.
func BenchmarkStateRoundTrip(b *testing.B) {
	a := New(200, 50, Options{})
	r := rand.New(rand.NewPCG(8, 9))
	for a.ScrollbackLen() < DefaultScrollbackLines {
		fmt.Fprintf(a, "\x1b[3%dm%s\x1b[0m %s\r\n", r.IntN(8), strings.Repeat("word ", r.IntN(20)), strings.Repeat("x", r.IntN(80)))
	}
	var state []byte
	b.ResetTimer()
	for range b.N {
		state = a.AppendState(state[:0])
		if err := New(1, 1, Options{}).RestoreState(state); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(state)), "state-bytes")
}

// FuzzRestoreState: no state, however corrupt, makes RestoreState panic
// or leave a terminal that breaks the invariants every consumer relies on.
func FuzzRestoreState(f *testing.F) {
	for i, s := range stateSeeds {
		a := New(10+i, 4, Options{ScrollbackLines: 5})
		a.Write([]byte(strings.Repeat("line\r\n", i) + s))
		f.Add(a.AppendState(nil))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b := New(5, 3, Options{})
		if err := b.RestoreState(data); err != nil {
			return
		}
		checkInvariants(t, b)
		b.Write([]byte("\x1b[?1049lmore\r\n\x1b8x\x1b[?1049hy"))
		checkInvariants(t, b)
	})
}

// TestStateRestoreRefusesHugeSizes: a few bytes claiming an enormous
// screen (an overflowing cols x rows included) are refused before anything
// is allocated.
func TestStateRestoreRefusesHugeSizes(t *testing.T) {
	for _, size := range [][2]int{{1 << 32, 1 << 32}, {1 << 62, 4}, {1 << 20, 1 << 20}, {10, 1000}} {
		e := &stateEnc{b: []byte(stateMagic)}
		e.uv(StateVersion)
		e.int(size[0])
		e.int(size[1])
		if err := New(2, 2, Options{}).RestoreState(e.b); err == nil || !strings.Contains(err.Error(), "out of range") {
			t.Errorf("a state of %dx%d: %v; want it refused as out of range", size[0], size[1], err)
		}
	}
}
