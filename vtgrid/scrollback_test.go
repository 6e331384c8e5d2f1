package vtgrid

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

func TestScrollbackKeepsScrolledRows(t *testing.T) {
	term := New(10, 3, Options{ScrollbackLines: 5})
	for i := 0; i < 10; i++ {
		fmt.Fprintf(term, "line %d\r\n", i)
	}
	s := term.SnapshotScrollback(-1)
	if s.HistoryLen() != 5 {
		t.Fatalf("history %d rows, want the bound 5", s.HistoryLen())
	}
	want := "line 3\nline 4\nline 5\nline 6\nline 7\nline 8\nline 9\n"
	if got := s.HistoryText(); got != want {
		t.Fatalf("history text %q want %q", got, want)
	}
}

func TestScrollbackOnlyFromFullScreenRegion(t *testing.T) {
	term := screenOf(5, 3, "a\r\nb\r\nc\x1b[2;3r\x1b[3;1H\n\n")
	if n := term.ScrollbackLen(); n != 0 {
		t.Fatalf("a partial scroll region put %d rows in the scrollback", n)
	}
	term.Write([]byte("\x1b[r\x1b[3;1H\n"))
	if n := term.ScrollbackLen(); n != 1 {
		t.Fatalf("full-screen scroll kept %d rows, want 1", n)
	}
}

func TestAltScreenHasNoScrollback(t *testing.T) {
	term := screenOf(5, 2, "\x1b[?1049h1\r\n2\r\n3\r\n4")
	if n := term.ScrollbackLen(); n != 0 {
		t.Fatalf("alt screen scrolled %d rows into scrollback", n)
	}
}

// compactRows are rows of every kind the scrollback keeps differently.
var compactRows = []string{
	"plain ascii",
	"\x1b[31mred\x1b[m and \x1b[1mbold\x1b[m",
	"wide 世界 text",
	"e\u0301 combining",
	"\x1b]8;;http://x.test\x1b\\link\x1b]8;;\x1b\\",
	"\x1b[44m   \x1b[m trailing bg",
	"\x1b[1\"qprotected\x1b[0\"q plain \x1b[1\"q世\x1b[0\"q", // issue 8: DECSCA survives the scrollback
	"",
	strings.Repeat("long ", 40),
}

func TestCompactRoundTrip(t *testing.T) {
	for _, in := range compactRows {
		t.Run(in, func(t *testing.T) {
			s := screenOf(30, 1, in).Snapshot()
			row := s.Row(0)
			var sb scrollback
			cl := sb.compact(row, len(row), false)
			if x, a, b, ok := sameCells(row, cl.expand()); !ok {
				t.Fatalf("cell %d: %+v came back as %+v", x, a, b)
			}
		})
	}
}

// sameCells reports whether a row came back from the scrollback as it
// went in (its empty cells as spaces, its trailing ones dropped), or the
// first cell that did not.
func sameCells(row, back []Cell) (x int, want, got Cell, ok bool) {
	for x := range row {
		var b Cell
		if x < len(back) {
			b = back[x]
		}
		if row[x].r == 0 && b.r == ' ' {
			b.r = 0 // empty cells come back as spaces
		}
		if row[x] != b {
			return x, row[x], b, false
		}
	}
	return 0, Cell{}, Cell{}, true
}

func TestResizeReflowsSoftWrappedLines(t *testing.T) {
	term := screenOf(10, 3, "0123456789abcdef\r\nxy")
	term.Resize(20, 3)
	s := term.Snapshot()
	if got := s.Text(); got != "0123456789abcdef\nxy\n" {
		t.Fatalf("after widening:\n%s", got)
	}
	if x, y, _ := s.Cursor(); x != 2 || y != 1 {
		t.Fatalf("cursor %d,%d want 2,1", x, y)
	}
	term.Resize(4, 3)
	s = term.SnapshotScrollback(-1)
	if got := s.HistoryText(); got != "0123\n4567\n89ab\ncdef\nxy" {
		t.Fatalf("after narrowing:\n%q", got)
	}
	if x, y, _ := s.Cursor(); x != 2 || y != 2 {
		t.Fatalf("cursor %d,%d want 2,1", x, y)
	}
	term.Resize(10, 3)
	s = term.SnapshotScrollback(-1)
	if got := s.HistoryText(); got != "0123456789\nabcdef\nxy" {
		t.Fatalf("after widening again:\n%q", got)
	}
}

func TestResizeKeepsWideCharsWhole(t *testing.T) {
	term := screenOf(6, 2, "ab世界")
	term.Resize(3, 3)
	if got := term.Snapshot().Text(); got != "ab\n世\n界" {
		t.Fatalf("got %q", got)
	}
}

func TestResizeHeightPullsBackScrollback(t *testing.T) {
	term := screenOf(5, 2, "1\r\n2\r\n3")
	term.Resize(5, 3)
	s := term.Snapshot()
	if got := s.Text(); got != "1\n2\n3" {
		t.Fatalf("got %q", got)
	}
	if _, y, _ := s.Cursor(); y != 2 {
		t.Fatalf("cursor row %d want 2", y)
	}
	term.Resize(5, 1)
	if got := term.Snapshot().Text(); got != "3" {
		t.Fatalf("shrunk: %q", got)
	}
}

func TestResizeKeepsCursorRowWithBlankRowsBelow(t *testing.T) {
	term := screenOf(10, 5, "$ ")
	term.Resize(10, 3)
	s := term.Snapshot()
	if x, y, _ := s.Cursor(); x != 2 || y != 0 || s.Text() != "$\n\n" {
		t.Fatalf("cursor %d,%d text %q", x, y, s.Text())
	}
}

func TestResizeAltScreenRestoresMainCursor(t *testing.T) {
	term := screenOf(10, 4, "0123456789ab\x1b[?1049h\x1b[Hvim")
	term.Resize(5, 4)
	term.Write([]byte("\x1b[?1049l"))
	s := term.Snapshot()
	if got := s.Text(); got != "01234\n56789\nab\n" {
		t.Fatalf("main screen %q", got)
	}
	if x, y, _ := s.Cursor(); x != 2 || y != 2 {
		t.Fatalf("cursor %d,%d want 2,2", x, y)
	}
}

func TestSnapshotDirtyRows(t *testing.T) {
	term := screenOf(5, 4, "a\r\nb")
	first := term.Snapshot()
	if len(first.DirtyRows()) != 4 {
		t.Fatalf("first snapshot dirty %v, want all", first.DirtyRows())
	}
	if d := term.Snapshot().DirtyRows(); len(d) != 0 {
		t.Fatalf("unchanged screen dirty %v", d)
	}
	term.Write([]byte("\x1b[3;1Hx"))
	s := term.Snapshot()
	if d := s.DirtyRows(); len(d) != 1 || d[0] != 2 {
		t.Fatalf("dirty %v want [2]", d)
	}
	if s.Text() != "a\nb\nx\n" || first.Text() != "a\nb\n\n" {
		t.Fatalf("snapshots are not independent: %q %q", s.Text(), first.Text())
	}
}

// TestScrollbackMemory pins docs/emulator.md: a plain 200-column scrollback row
// costs about its text, far from a full cell array (4800 bytes).
func TestScrollbackMemory(t *testing.T) {
	line := strings.Repeat("x", 200) + "\r\n"
	perLine := scrollbackBytesPerLine(func(i int) []byte { return []byte(line) })
	if perLine > 500 {
		t.Fatalf("%d bytes per 200-column scrollback row, want <= 500", perLine)
	}
}

// scrollbackBytesPerLine is the live heap a 200x50 terminal with a
// scrollback of 10,000 lines holds, over those lines, once fed 10,050 of
// the lines line(i) makes.
func scrollbackBytesPerLine(line func(i int) []byte) int64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	term := New(200, 50, Options{ScrollbackLines: 10000})
	for i := 0; i < 10050; i++ {
		term.Write(line(i))
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(term)
	return (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / 10000
}

func TestClearScreenKeepsOutputInScrollback(t *testing.T) {
	term := screenOf(5, 3, "a\r\nb\x1b[2J")
	s := term.SnapshotScrollback(-1)
	if got := s.HistoryText(); got != "a\nb\n\n\n" {
		t.Fatalf("history after clear %q", got)
	}
}

// TestResetKeepsOutputInScrollback pins issue 8: RIS (ESC c) dropped the
// rows on screen, where tmux keeps them as it does for ED 2.
func TestResetKeepsOutputInScrollback(t *testing.T) {
	term := screenOf(10, 4, "hello\r\nworld\r\n\x1bc")
	s := term.SnapshotScrollback(-1)
	if got := s.HistoryText(); got != "hello\nworld\n\n\n\n" {
		t.Fatalf("history after RIS %q", got)
	}
}

// TestColumnModeKeepsOutputInScrollback: DECCOLM clears like ED 2, and like
// tmux it keeps the rows it clears (issue 8).
func TestColumnModeKeepsOutputInScrollback(t *testing.T) {
	term := screenOf(10, 4, "hello\r\nworld\r\n\x1b[?3hX")
	s := term.SnapshotScrollback(-1)
	if got := s.HistoryText(); got != "hello\nworld\nX\n\n\n" {
		t.Fatalf("history after DECCOLM %q", got)
	}
}

// TestProtectedCellsSurviveSnapshotAndReflow: the DECSCA attribute travels
// with the cell through snapshots and through a resize that reflows the
// row out to the scrollback and back (issue 8).
func TestProtectedCellsSurviveSnapshotAndReflow(t *testing.T) {
	term := screenOf(6, 2, "\x1b[1\"qP\x1b[0\"qlain")
	if !term.Snapshot().Cell(0, 0).Protected() || term.Snapshot().Cell(1, 0).Protected() {
		t.Fatalf("snapshot lost the protection")
	}
	term.Resize(6, 1)
	term.Write([]byte("\r\n"))
	term.Resize(6, 3)
	term.Write([]byte("\x1b[1;1H\x1b[?2J"))
	if got := term.Snapshot().Text(); got != "P\n\n" {
		t.Fatalf("after a round trip through the scrollback DECSED left %q, want the protected P", got)
	}
}

// TestCellIs24Bytes: cells are copied everywhere; the DECSCA bit lives in
// the flags byte and must not grow them. A scrollback row's records (its
// style runs or its cells) are laid out in the arena by that size, and the
// row's header is 16 bytes.
func TestCellIs24Bytes(t *testing.T) {
	if n := unsafe.Sizeof(Cell{}); n != 24 {
		t.Fatalf("Cell is %d bytes, want 24", n)
	}
	if n, a := unsafe.Sizeof(styleRun{}), unsafe.Alignof(styleRun{}); n != recordSize || a > recordAlign {
		t.Fatalf("styleRun is %d bytes aligned to %d, want %d aligned to at most %d", n, a, recordSize, recordAlign)
	}
	if n, a := unsafe.Sizeof(Cell{}), unsafe.Alignof(Cell{}); n != recordSize || a > recordAlign {
		t.Fatalf("Cell is %d bytes aligned to %d, want %d aligned to at most %d", n, a, recordSize, recordAlign)
	}
	if n := unsafe.Sizeof(compactLine{}); n != 16 {
		t.Fatalf("compactLine is %d bytes, want 16", n)
	}
}

// TestScrollbackRowsShareChunks: rows of every kind, pushed one after
// another through one scrollback (so they share arena chunks and spill
// into new ones), come back as they went in, with their wrap flags.
func TestScrollbackRowsShareChunks(t *testing.T) {
	inputs := compactRows
	var rows [][]Cell
	for _, in := range inputs {
		s := screenOf(300, 1, in).Snapshot()
		rows = append(rows, s.Row(0))
	}
	var sb scrollback
	sb.max = 1 << 20
	n := 0
	for sb.arena == nil || n < 3*arenaChunk/100 { // well past the first chunk
		row := rows[n%len(rows)]
		sb.keep(sb.compact(row, len(row), n%3 == 0))
		n++
	}
	for i := range n {
		cl := sb.at(i)
		if cl.wrapped() != (i%3 == 0) {
			t.Fatalf("row %d: wrapped %v, want %v", i, cl.wrapped(), i%3 == 0)
		}
		if x, a, b, ok := sameCells(rows[i%len(rows)], cl.expand()); !ok {
			t.Fatalf("row %d (%q) cell %d: %+v came back as %+v", i, inputs[i%len(inputs)], x, a, b)
		}
	}
}

// TestScrollbackMemoryOfBuildLines: what builds print, lines of about 45
// columns, costs the text and a 16-byte header a row, and little more.
func TestScrollbackMemoryOfBuildLines(t *testing.T) {
	perLine := scrollbackBytesPerLine(func(i int) []byte {
		return fmt.Appendf(nil, "line %5d of the history, as a build prints it\r\n", i)
	})
	// 46 bytes of text and 16 of header; the ring's spare capacity and
	// the screen itself (200x50, spread over the lines) are the rest.
	if perLine > 80 {
		t.Fatalf("%d bytes per 46-column scrollback row, want <= 80", perLine)
	}
}

func TestScrollbackRowsByAbsoluteNumber(t *testing.T) {
	term := New(10, 2, Options{ScrollbackLines: 3})
	for i := 0; i < 7; i++ {
		fmt.Fprintf(term, "r%d\r\n", i)
	}
	oldest, end := term.ScrollbackBounds()
	if oldest != 3 || end != 6 {
		t.Fatalf("bounds %d-%d want 3-6", oldest, end)
	}
	rows, _, first := term.ScrollbackRows(0, 2)
	if first != 3 || len(rows) != 2 || rows[0][1].Text() != "3" {
		t.Fatalf("first %d rows %d", first, len(rows))
	}
	term.Resize(5, 2) // reflow keeps the numbering
	if o, e := term.ScrollbackBounds(); o != 3 || e != 6 {
		t.Fatalf("after reflow bounds %d-%d want 3-6", o, e)
	}
}

// TestUsedBoundsEveryWrittenCell drives every kind of write that can leave
// a non-empty cell (print, wide, combining mark on an empty cell, insert,
// erase and ECH in a background colour, DECALN, the last column without
// autowrap, REP, scrolling, resize) and checks that no row holds a
// non-empty cell past its used bound: compact and erase skip that tail, so
// a write that forgot to mark it would lose text from the scrollback.
func TestUsedBoundsEveryWrittenCell(t *testing.T) {
	steps := []string{
		"hello", "\x1b[10G\u0301", "\x1b[2;1Habc\x1b[1G\x1b[5@", "\x1b[3;1H\x1b[44m\x1b[K\x1b[0m",
		"\x1b[4;5H\x1b[45m\x1b[3X\x1b[0m", "\x1b[5;1H世界", "\x1b[6;1H\x1b[?7lwxyz0123456789abcdefghijklmnop\x1b[?7h",
		"\x1b[7;1Hq\x1b[30b", "\x1b[8;1H\x1b[42m\x1b[2P\x1b[0m", "\x1b[?1049h\x1b[43m\x1b[2J\x1b[?1049l", "\x1b[1;1H\x1b[44m\x1b[1K\x1b[0m",
	}
	term := New(20, 8, Options{ScrollbackLines: 50})
	for i, s := range steps {
		term.Write([]byte(s))
		checkUsed(t, term.main, fmt.Sprintf("main after step %d", i))
		checkUsed(t, term.alt, fmt.Sprintf("alternate after step %d", i))
	}
	term.Write([]byte("\x1b#8"))
	checkUsed(t, term.main, "main after DECALN")
	term.Resize(13, 5)
	checkUsed(t, term.main, "main after resize")
	term.Write([]byte("\x1b[8;1H\r\n\r\n\r\n\x1b[41m\r\n\r\n"))
	checkUsed(t, term.main, "main after scrolling in a background colour")
}
