package vtgrid_test

// The differential harness (docs/emulator.md, "Correctness oracle: tmux"): every
// stream of the corpus — real programs recorded at 120x40 in testdata/rec and
// per-feature streams generated for 80x24 into testdata/gen — is fed to
// vtgrid and replayed into a tmux pane of the same size, and the final
// screens are compared:
//
//   - text: capture-pane -p against Snapshot.Text, row by row;
//   - styles: capture-pane -p -e fed into a fresh vtgrid, compared cell by
//     cell (Style, Text, Width) with the original snapshot;
//   - cursor: position and visibility from display-message.
//   - scrollback, for the streams of historyStreams: capture-pane -S - -E -1
//     against the snapshot's scrollback rows.
//
// go test ./vtgrid/ runs a fast subset; VTDIFF=full (make vtdiff) runs all.
// Go -v prints the report line "vtdiff: text a/n identical, ...".

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"clowder/vtgrid"
)

// corpusStream is one byte stream of the corpus and the screen it is for.
type corpusStream struct {
	name       string // "rec/vim", "gen/sgr"
	path       string
	cols, rows int
}

// fastStreams always run; the rest only with VTDIFF=full.
var fastStreams = []string{
	"gen/sgr", "gen/cursor", "gen/erase", "gen/scroll-region", "gen/autowrap", "gen/wide",
	"rec/ls", "rec/vim",
}

// corpus lists testdata/rec (120x40) and testdata/gen (80x24).
func corpus(t *testing.T) []corpusStream {
	t.Helper()
	var all []corpusStream
	for _, d := range []struct {
		dir        string
		cols, rows int
	}{{"rec", 120, 40}, {"gen", 80, 24}} {
		files, err := filepath.Glob(filepath.Join("testdata", d.dir, "*.bin"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			name := d.dir + "/" + strings.TrimSuffix(filepath.Base(f), ".bin")
			all = append(all, corpusStream{name: name, path: f, cols: d.cols, rows: d.rows})
		}
	}
	if len(all) == 0 {
		t.Fatal("vtdiff: no streams under testdata/rec and testdata/gen; run go run vtgrid/testdata/gen.go")
	}
	return all
}

// styleGap is a documented limit of capture-pane -e: cells for which it
// returns true are not compared for style.
type styleGap struct {
	what, reason string
	skip         func(c vtgrid.Cell, x, captured int) bool // captured: cells tmux wrote out for the row
}

// tmuxStyleGaps is the table of places where tmux's capture cannot show a
// style that vtgrid has. A style difference is accepted only there.
var tmuxStyleGaps = []styleGap{{
	what: "erased cells after the last written cell of a row",
	reason: "capture-pane -e, even with -N, stops at the last cell written in the row, so the background " +
		"colour EL/ED/ECH give erased cells beyond it (BCE) is not in the capture",
	skip: func(c vtgrid.Cell, x, captured int) bool { return x >= captured && c.Text() == "" && c.Width() == 1 },
}}

// knownDifference accepts a difference where tmux 3.3a departs from xterm
// and vtgrid follows xterm on purpose. rows are 0-based screen rows; nil
// means every row (and the cursor) of the stream.
type knownDifference struct {
	stream, reason string
	rows           []int
}

var knownDifferences = []knownDifference{
	{"gen/invalid-utf8", "tmux drops malformed UTF-8 bytes; vtgrid shows U+FFFD per maximal bad subsequence like xterm (docs/emulator.md)", nil},
	{"gen/xterm-only", "tmux 3.3a does not implement HPR (CSI a)", []int{0}},
	{"gen/xterm-only", "tmux 3.3a does not implement VPR (CSI e)", []int{1, 2}},
	{"gen/xterm-only", "tmux 3.3a does not implement CHT (CSI I)", []int{3}},
	{"gen/xterm-only", "tmux 3.3a ignores a CSI whose parameter overflows an int; xterm clamps it", []int{4}},
	{"gen/xterm-only", "tmux 3.3a does not implement DECSEL (CSI ? K); with no protected cells xterm erases like EL", []int{6, 7}},
	{"gen/xterm-only", "tmux 3.3a writes ASCII runs without clearing the wide character whose right half they overwrite; xterm blanks the left half", []int{9}},
	{"gen/xterm-only", "tmux 3.3a inserts (IRM) before wrapping, so the wrapped character overwrites instead of shifting the next row", []int{17}},
	{"gen/xterm-only-2", "tmux 3.3a leaves the row unchanged for ICH with a count past the right margin; xterm clears from the cursor to the margin", []int{8}},
	{"gen/xterm-only-2", "tmux 3.3a ICH/DCH/ECH/EL that split a wide character leave its other half; xterm blanks it", []int{11, 12, 13, 14}},
	{"gen/xterm-only-2", "tmux 3.3a drops a CSI with more than 24 parameters; xterm uses the first 30 and ignores the rest", []int{16}},
	{"gen/deccolm", "tmux 3.3a keeps the scroll region on DECCOLM; vtgrid resets it like the VT100 and xterm", []int{8, 9, 10}},
	{"gen/decsca", "tmux 3.3a implements neither DECSCA nor DECSEL/DECSED (CSI ? K, CSI ? J); vtgrid erases the unprotected cells like xterm", []int{6, 7}},
	{"gen/xterm-only-2", "tmux 3.3a holds a zero width joiner back and attaches it to a later cell; vtgrid keeps it on the character it follows (UAX #29)", []int{15}},
}

// knownReason returns why a difference in row of stream is accepted, or "".
// row -1 is the cursor.
func knownReason(stream string, row int) string {
	for _, k := range knownDifferences {
		if k.stream == stream && (k.rows == nil || slices.Contains(k.rows, row)) {
			return k.reason
		}
	}
	return ""
}

// rowDiff is one differing row (row -1: the cursor).
type rowDiff struct {
	row    int
	detail string
}

// streamResult is the outcome for one stream.
type streamResult struct {
	name                string
	text, style, cursor []rowDiff
}

// failing returns the diffs of kind nobody accepted.
func (r streamResult) failing(diffs []rowDiff) []rowDiff {
	return slices.DeleteFunc(slices.Clone(diffs), func(d rowDiff) bool { return knownReason(r.name, d.row) != "" })
}

func TestVTDiffMatchesTmux(t *testing.T) {
	bin := tmuxOrSkip(t)
	streams := corpus(t)
	if os.Getenv("VTDIFF") != "full" {
		streams = slices.DeleteFunc(streams, func(s corpusStream) bool { return !slices.Contains(fastStreams, s.name) })
		t.Logf("vtdiff: fast subset of %d streams; VTDIFF=full (make vtdiff) runs the whole corpus", len(streams))
	}
	var mu sync.Mutex
	var results []streamResult
	t.Run("streams", func(t *testing.T) {
		for _, st := range streams {
			t.Run(st.name, func(t *testing.T) {
				t.Parallel()
				r := diffStream(t, bin, st)
				mu.Lock()
				results = append(results, r)
				mu.Unlock()
				for _, k := range r.kinds() {
					if f := r.failing(k.diffs); len(f) > 0 {
						t.Errorf("vtdiff %s: %s differs from tmux in %d rows (first: row %d); see the vtdiff report", st.name, k.kind, len(f), f[0].row)
					}
				}
			})
		}
	})
	report(t, results)
	checkNoStaleDifferences(t, results)
}

// checkNoStaleDifferences fails when an accepted difference no longer
// differs: the table must say only what is true of vtgrid today.
func checkNoStaleDifferences(t *testing.T, results []streamResult) {
	for _, k := range knownDifferences {
		i := slices.IndexFunc(results, func(r streamResult) bool { return r.name == k.stream })
		if i < 0 {
			continue // not in this run's subset
		}
		r := results[i]
		for _, row := range k.rows {
			if !r.differsAt(row) {
				t.Errorf("vtdiff %s row %d is listed as a tmux difference (%s) but matches tmux now; remove it from knownDifferences", k.stream, row, k.reason)
			}
		}
	}
}

// differsAt reports whether any kind of difference covers row.
func (r streamResult) differsAt(row int) bool {
	for _, k := range r.kinds() {
		if slices.ContainsFunc(k.diffs, func(d rowDiff) bool { return d.row == row }) {
			return true
		}
	}
	return false
}

// diffStream feeds one stream to vtgrid and tmux and compares the screens.
func diffStream(t *testing.T, bin string, st corpusStream) streamResult {
	data, err := os.ReadFile(st.path)
	if err != nil {
		t.Fatal(err)
	}
	vt := feedAll(st.cols, st.rows, data)
	tm := replayInTmux(t, bin, st.path, st.cols, st.rows)
	if os.Getenv("VTDIFF_SHOW") == st.name {
		showScreens(t, vt, tm)
	}
	return streamResult{
		name:   st.name,
		text:   compareText(vt, tm.plain),
		style:  compareStyles(vt, tm.styled),
		cursor: compareCursor(vt, tm),
	}
}

type kindDiffs struct {
	kind  string
	diffs []rowDiff
}

func (r streamResult) kinds() []kindDiffs {
	return []kindDiffs{{"text", r.text}, {"style", r.style}, {"cursor", r.cursor}}
}

func feedAll(cols, rows int, data []byte) *vtgrid.Snapshot {
	term := vtgrid.New(cols, rows, vtgrid.Options{Reply: func([]byte) {}})
	_, _ = term.Write(data) // never fails (vtgrid contract)
	return term.Snapshot()
}

// showScreens logs both screens side by side (VTDIFF_SHOW=rec/vim).
func showScreens(t *testing.T, vt *vtgrid.Snapshot, tm tmuxScreen) {
	rows := strings.Split(vt.Text(), "\n")
	var b strings.Builder
	for y := range vt.Rows() {
		got := ""
		if y < len(rows) {
			got = rows[y]
		}
		mark := " "
		if !acsEqual(strings.TrimRight(got, " "), tm.plain[y]) {
			mark = "*"
		}
		fmt.Fprintf(&b, "%s%2d vtgrid|%s\n   tmux  |%s\n", mark, y, got, tm.plain[y])
	}
	t.Logf("vtdiff: screens (* = differs):\n%s", b.String())
}

// report logs the summary line and, per stream and kind, the first
// difference nobody accepted (both versions of the row) and how many were
// accepted.
func report(t *testing.T, results []streamResult) {
	slices.SortFunc(results, func(a, b streamResult) int { return strings.Compare(a.name, b.name) })
	var same, accepted, failing [3]int
	for _, r := range results {
		for i, k := range r.kinds() {
			switch {
			case len(k.diffs) == 0:
				same[i]++
			case len(r.failing(k.diffs)) == 0:
				accepted[i]++
			default:
				failing[i]++
			}
		}
	}
	n := len(results)
	t.Logf("vtdiff: text %d/%d identical, styles %d/%d, cursor %d/%d (accepted tmux differences: %d/%d/%d; failing: %d/%d/%d)",
		same[0], n, same[1], n, same[2], n, accepted[0], accepted[1], accepted[2], failing[0], failing[1], failing[2])
	for _, r := range results {
		for _, k := range r.kinds() {
			f := r.failing(k.diffs)
			if len(k.diffs) == 0 {
				continue
			}
			if len(f) == 0 {
				t.Logf("vtdiff: %s %s: %d rows differ, all accepted", r.name, k.kind, len(k.diffs))
				continue
			}
			t.Logf("vtdiff: %s %s: %d rows differ (%d accepted); first: row %d: %s", r.name, k.kind, len(k.diffs), len(k.diffs)-len(f), f[0].row, f[0].detail)
		}
	}
}

// compareText compares Snapshot.Text with capture-pane -p row by row.
func compareText(vt *vtgrid.Snapshot, tmux []string) []rowDiff {
	rows := strings.Split(vt.Text(), "\n")
	var diffs []rowDiff
	for y := range vt.Rows() {
		got := ""
		if y < len(rows) {
			got = strings.TrimRight(rows[y], " ")
		}
		if !acsEqual(got, tmux[y]) {
			diffs = append(diffs, rowDiff{y, fmt.Sprintf("\n\tvtgrid: %q\n\ttmux:   %q", got, tmux[y])})
		}
	}
	if len(rows) > vt.Rows() {
		diffs = append(diffs, rowDiff{vt.Rows(), fmt.Sprintf("Text has %d rows, want %d", len(rows), vt.Rows())})
	}
	return diffs
}

// decGraphics is the DEC special graphics set (VT100), by the ASCII byte
// that selects each glyph. tmux keeps such cells as the ASCII byte plus a
// charset flag, so capture-pane -p prints the byte; vtgrid stores the glyph.
var decGraphics = map[rune][]rune{
	'_': {' ', '\u00a0'}, '`': {'◆'}, 'a': {'▒'}, 'b': {'␉'}, 'c': {'␌'}, 'd': {'␍'}, 'e': {'␊'},
	'f': {'°'}, 'g': {'±'}, 'h': {'␤'}, 'i': {'␋'}, 'j': {'┘'}, 'k': {'┐'}, 'l': {'┌'}, 'm': {'└'},
	'n': {'┼'}, 'o': {'⎺'}, 'p': {'⎻'}, 'q': {'─'}, 'r': {'⎼'}, 's': {'⎽'}, 't': {'├'}, 'u': {'┤'},
	'v': {'┴'}, 'w': {'┬'}, 'x': {'│'}, 'y': {'≤'}, 'z': {'≥'}, '{': {'π'}, '|': {'≠'}, '}': {'£'},
	'~': {'·'},
}

// acsEqual reports whether vtgrid's text equals tmux's, where tmux may show
// a DEC graphics glyph as its ASCII byte.
func acsEqual(vt, tmux string) bool {
	if vt == tmux {
		return true
	}
	a, b := []rune(vt), []rune(tmux)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !slices.Contains(decGraphics[b[i]], a[i]) {
			return false
		}
	}
	return true
}

// compareStyles feeds tmux's styled capture into a fresh vtgrid, row by
// row, and compares it cell by cell with vt.
func compareStyles(vt *vtgrid.Snapshot, styled string) []rowDiff {
	term := vtgrid.New(vt.Cols(), vt.Rows(), vtgrid.Options{Reply: func([]byte) {}})
	// tmux writes DEC graphics cells between SO and SI, assuming G1 holds
	// the graphics set.
	_, _ = term.Write([]byte("\x1b)0\x1b[H"))
	lines := strings.Split(strings.TrimSuffix(styled, "\n"), "\n")
	captured := make([]int, vt.Rows()) // cells tmux wrote out per row
	for y := range min(len(lines), vt.Rows()) {
		if y > 0 {
			_, _ = term.Write([]byte("\r\n"))
		}
		_, _ = term.Write([]byte(lines[y]))
		x, _, _ := term.Snapshot().Cursor()
		captured[y] = x
		if x >= vt.Cols()-1 {
			captured[y] = vt.Cols()
		}
	}
	ref := term.Snapshot()
	var diffs []rowDiff
	for y := range vt.Rows() {
		if d := compareStyleRow(vt, ref, y, captured[y]); d != "" {
			line := ""
			if y < len(lines) {
				line = lines[y]
			}
			diffs = append(diffs, rowDiff{y, d + fmt.Sprintf("\n\tvtgrid: %q\n\ttmux:   %q", vtANSIRow(vt, y), line)})
		}
	}
	return diffs
}

// compareStyleRow describes the first cell of row y that differs.
func compareStyleRow(vt, ref *vtgrid.Snapshot, y, captured int) string {
	for x := range vt.Cols() {
		a, b := vt.Cell(x, y), ref.Cell(x, y)
		if inStyleGap(a, x, captured) {
			continue
		}
		if a.Style() != b.Style() || a.Width() != b.Width() || !acsEqual(blank(a.Text()), blank(b.Text())) {
			return fmt.Sprintf("col %d: vtgrid %q w%d %s, tmux %q w%d %s",
				x, a.Text(), a.Width(), describeStyle(a.Style()), b.Text(), b.Width(), describeStyle(b.Style()))
		}
	}
	return ""
}

func inStyleGap(c vtgrid.Cell, x, captured int) bool {
	for _, g := range tmuxStyleGaps {
		if g.skip(c, x, captured) {
			return true
		}
	}
	return false
}

// blank treats an erased cell and a written space alike: capture-pane -e
// writes spaces where tmux has erased cells.
func blank(s string) string {
	if s == "" {
		return " "
	}
	return s
}

// vtANSIRow is row y of the snapshot's ANSI rendering.
func vtANSIRow(s *vtgrid.Snapshot, y int) string {
	rows := strings.Split(s.ANSI(), "\r\n")
	if y < len(rows) {
		return rows[y]
	}
	return ""
}

// describeStyle prints a style compactly for a report.
func describeStyle(s vtgrid.Style) string {
	color := func(c vtgrid.Color) string {
		switch c.Kind() {
		case vtgrid.ColorIndexed:
			return fmt.Sprintf("%d", c.Index())
		case vtgrid.ColorRGB:
			r, g, b := c.RGB()
			return fmt.Sprintf("#%02x%02x%02x", r, g, b)
		}
		return "-"
	}
	return fmt.Sprintf("{fg %s bg %s ul %d ulc %s attrs %#x}", color(s.Fg), color(s.Bg), s.Underline, color(s.UnderlineColor), s.Attrs)
}

// compareCursor compares position and visibility. Both may report the
// pending-wrap state as x == width; that is clamped to the last column.
func compareCursor(vt *vtgrid.Snapshot, tm tmuxScreen) []rowDiff {
	x, y, on := vt.Cursor()
	x, tx := min(x, vt.Cols()-1), min(tm.cx, vt.Cols()-1)
	if x != tx || y != tm.cy || on != tm.cursorOn {
		return []rowDiff{{-1, fmt.Sprintf("vtgrid (%d,%d) visible=%v, tmux (%d,%d) visible=%v", x, y, on, tx, tm.cy, tm.cursorOn)}}
	}
	return nil
}

// TestVTDiffSplitWritesMatchOneShot feeds every stream of the corpus in
// random pieces (seeded, so failures reproduce) and checks the final screen
// equals the one-shot feed: no parser state may depend on write boundaries.
func TestVTDiffSplitWritesMatchOneShot(t *testing.T) {
	for i, st := range corpus(t) {
		t.Run(st.name, func(t *testing.T) {
			data, err := os.ReadFile(st.path)
			if err != nil {
				t.Fatal(err)
			}
			want := feedAll(st.cols, st.rows, data)
			rng := rand.New(rand.NewPCG(20240501, uint64(i)))
			for trial := range 3 {
				term := vtgrid.New(st.cols, st.rows, vtgrid.Options{Reply: func([]byte) {}})
				var cuts []int
				for off := 0; off < len(data); {
					n := min(len(data)-off, 1+rng.IntN([]int{1, 2, 4, 16, 256, 8192}[rng.IntN(6)]))
					_, _ = term.Write(data[off : off+n])
					off += n
					cuts = append(cuts, off)
				}
				if d := sameScreen(want, term.Snapshot()); d != "" {
					t.Errorf("trial %d (%d writes, first cuts %v): split feed differs from one-shot feed: %s",
						trial, len(cuts), cuts[:min(len(cuts), 8)], d)
				}
			}
		})
	}
}

// sameScreen compares two vtgrid snapshots exactly.
func sameScreen(want, got *vtgrid.Snapshot) string {
	for y := range want.Rows() {
		for x := range want.Cols() {
			a, b := want.Cell(x, y), got.Cell(x, y)
			if a.Text() != b.Text() || a.Style() != b.Style() || a.Width() != b.Width() {
				return fmt.Sprintf("row %d col %d: one-shot %q w%d %s, split %q w%d %s",
					y, x, a.Text(), a.Width(), describeStyle(a.Style()), b.Text(), b.Width(), describeStyle(b.Style()))
			}
		}
	}
	wx, wy, wv := want.Cursor()
	gx, gy, gv := got.Cursor()
	if wx != gx || wy != gy || wv != gv {
		return fmt.Sprintf("cursor: one-shot (%d,%d,%v), split (%d,%d,%v)", wx, wy, wv, gx, gy, gv)
	}
	return ""
}

// historyStreams are the streams whose scrollback is compared with tmux's
// history as well: the clears that keep the screen in the scrollback.
var historyStreams = []string{"gen/clears"}

// TestVTDiffScrollbackMatchesTmux compares vtgrid's scrollback with tmux's
// history (capture-pane -S - -E -1) line by line, for historyStreams.
func TestVTDiffScrollbackMatchesTmux(t *testing.T) {
	bin := tmuxOrSkip(t)
	for _, st := range corpus(t) {
		if !slices.Contains(historyStreams, st.name) {
			continue
		}
		t.Run(st.name, func(t *testing.T) {
			data, err := os.ReadFile(st.path)
			if err != nil {
				t.Fatal(err)
			}
			term := vtgrid.New(st.cols, st.rows, vtgrid.Options{Reply: func([]byte) {}})
			_, _ = term.Write(data) // never fails (vtgrid contract)
			got := historyLines(term.SnapshotScrollback(-1))
			want := replayInTmux(t, bin, st.path, st.cols, st.rows).history
			if !slices.Equal(got, want) {
				t.Errorf("vtdiff %s: scrollback differs from tmux's history\n\tvtgrid: %q\n\ttmux:   %q", st.name, got, want)
			}
		})
	}
}

// historyLines is the text of a snapshot's scrollback rows, trailing blanks
// trimmed.
func historyLines(s *vtgrid.Snapshot) []string {
	lines := strings.Split(s.HistoryText(), "\n")[:s.HistoryLen()]
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	return lines
}
