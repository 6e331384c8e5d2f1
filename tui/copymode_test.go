package tui

import (
	"errors"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"clowder/layout"
	"clowder/supervisor/proto"
)

// textRow is a row of one-cell characters.
func textRow(s string) []proto.FrameCell {
	var cells []proto.FrameCell
	for _, r := range s {
		cells = append(cells, proto.FrameCell{Text: string(r), Width: 1})
	}
	return cells
}

// copyOn is copy mode over a 3-row screen "$ a", "$ b", "$" with the
// cursor at the end of the last row, shown at 10x2.
func copyOn(t *testing.T) (copyMode, copyFetchMsg) {
	t.Helper()
	scr := &screen{cols: 10, rows: 3, cells: [][]proto.FrameCell{textRow("$ a"), textRow("$ b"), textRow("$")},
		wrapped: []bool{false, false, false}, cursor: proto.FrameCursor{X: 1, Y: 2}}
	return newCopyMode("p1", scr, layout.Rect{W: 10, H: 2})
}

func TestCopyModeStartsOnTheScreenAndAsksForTheNewestPage(t *testing.T) {
	c, fetch := copyOn(t)
	if fetch != (copyFetchMsg{pane: "p1", count: min(1000, proto.MaxScreenCells/10), newest: true}) {
		t.Errorf("fetch %+v", fetch)
	}
	if len(c.lines) != 3 || c.cur != (textPos{y: 2, x: 1}) || c.top != 1 || !c.loading {
		t.Errorf("copy mode %+v", c)
	}
}

func TestCopyModeHistoryPrependsAndAsksForTheOlderPage(t *testing.T) {
	c, _ := copyOn(t)
	c, _ = c.Update(tea.KeyPressMsg{Code: 'v', Text: "v"})
	before := c
	rows := historyRows(100, 5)
	rows.Oldest = 20 // more history than this page
	c, out := c.Update(historyMsg{pane: "p1", rows: rows})
	if want := (copyFetchMsg{pane: "p1", from: 90, count: 5}); out != want {
		t.Errorf("result %+v, want %+v", out, want)
	}
	if len(c.lines) != 8 || c.history != 5 || c.first != 95 || c.cur.y != 7 || c.top != 6 || c.anchor.y != 7 {
		t.Errorf("after a page: lines %d history %d first %d cur %+v top %d anchor %+v", len(c.lines), c.history, c.first, c.cur, c.top, c.anchor)
	}
	if before.anchor.y != 2 || len(before.lines) != 3 {
		t.Errorf("Update changed the copy mode it was called on: anchor %+v, %d lines", before.anchor, len(before.lines))
	}
	if _, out := c.Update(historyMsg{pane: "p2", rows: rows}); out != nil {
		t.Errorf("another pane's history: result %+v", out)
	}
	c, out = c.Update(historyMsg{pane: "p1", rows: historyRows(50, 5)})
	if out != nil || len(c.lines) != 8 {
		t.Errorf("a page that is not the one before: result %+v, %d lines (want it dropped)", out, len(c.lines))
	}
	_, out = c.Update(historyMsg{pane: "p1", err: errors.New("boom")})
	if out != (copyStatusMsg{text: "history: boom", isErr: true}) {
		t.Errorf("error: result %+v", out)
	}
}

func TestCopyModeKeysAnswerWithResults(t *testing.T) {
	cases := []struct {
		keys []string
		want tea.Msg
	}{
		{[]string{"q"}, copyDoneMsg{}},
		{[]string{"esc"}, copyDoneMsg{}},
		{[]string{"ctrl+c"}, copyDoneMsg{}},
		{[]string{"y"}, copyDoneMsg{text: "$", copied: true}},
		{[]string{"k", "enter"}, copyDoneMsg{text: "$ b", copied: true}},
		{[]string{"k", "0", "v", "$", "y"}, copyDoneMsg{text: "$ b", copied: true}},
		{[]string{"k", "0", "v", "j", "y"}, copyDoneMsg{text: "$ b\n$", copied: true}},
		{[]string{"g", "v", "l", "y"}, copyDoneMsg{text: "$ ", copied: true}},
		{[]string{"/"}, copyAskMsg{}},
		{[]string{"?"}, copyAskMsg{back: true}},
		{[]string{"n"}, nil}, // no search yet
		{[]string{"j", "h", "G", "pgup", "pgdown"}, nil},
	}
	for _, tc := range cases {
		c, _ := copyOn(t)
		var out tea.Msg
		for _, k := range tc.keys {
			c, out = c.Update(keyOf(k))
		}
		if out != tc.want {
			t.Errorf("%q: result %#v, want %#v", tc.keys, out, tc.want)
		}
	}
}

func TestCopyModeSearchMovesOrSaysNotFound(t *testing.T) {
	c, _ := copyOn(t)
	c, out := c.Update(copySearchMsg{query: "b", back: true})
	if out != nil || c.cur != (textPos{y: 1, x: 2}) || c.search != "b" || !c.backward {
		t.Fatalf("search back for b: result %+v, cursor %+v", out, c.cur)
	}
	if _, out := c.Update(copyAskMsg{}); out != nil {
		t.Errorf("a result message sent back changed something: %+v", out)
	}
	c, out = c.Update(keyOf("n"))
	if out != nil || c.cur != (textPos{y: 1, x: 2}) {
		t.Errorf("n with one match: result %+v, cursor %+v (want it to wrap to the same match)", out, c.cur)
	}
	_, out = c.Update(copySearchMsg{query: "zz"})
	if out != (copyStatusMsg{text: `"zz" not found`}) {
		t.Errorf("no match: result %+v", out)
	}
	if _, out = c.Update(keyOf("/")); out != (copyAskMsg{initial: "b"}) {
		t.Errorf("/ asks with the last search: %+v", out)
	}
}

func TestCopyModeWheelDownLeavesAtTheBottomOnly(t *testing.T) {
	c, _ := copyOn(t) // loading
	if _, out := c.Update(copyScrollMsg{lines: 3}); out != nil {
		t.Errorf("at the bottom while history loads: %+v, want copy mode kept", out)
	}
	c.loading = false
	if _, out := c.Update(copyScrollMsg{lines: -1}); out != nil {
		t.Errorf("up: %+v", out)
	}
	if _, out := c.Update(copyScrollMsg{lines: 3}); out != (copyDoneMsg{}) {
		t.Errorf("down to the bottom: %+v, want copy mode left", out)
	}
	c, _ = c.Update(keyOf("v"))
	if _, out := c.Update(copyScrollMsg{lines: 3}); out != nil {
		t.Errorf("with a selection: %+v, want copy mode kept", out)
	}
}

func TestCopyModeScrollAboveTheTopWaitsForHistory(t *testing.T) {
	c, _ := copyOn(t)
	c, _ = c.Update(copyScrollMsg{lines: -3}) // top 1 - 3: two lines above what is loaded
	c, _ = c.Update(historyMsg{pane: "p1", rows: historyRows(100, 5)})
	if c.top != 5+1-3 {
		t.Errorf("top %d, want %d", c.top, 5+1-3)
	}
}

func TestCopyModeSizeSetsThePage(t *testing.T) {
	c, _ := copyOn(t)
	c, _ = c.Update(copySizeMsg{w: 10, h: 1})
	c, _ = c.Update(keyOf("pgup"))
	if c.cur.y != 1 {
		t.Errorf("page up at height 1: cursor %+v", c.cur)
	}
}

func TestCopyModeViewMarksMatchesAndSelection(t *testing.T) {
	c, _ := copyOn(t)
	c, _ = c.Update(copySearchMsg{query: "b", back: true}) // cursor on b, line 1
	c, _ = c.Update(keyOf("v"))
	th, err := LoadTheme("")
	if err != nil {
		t.Fatal(err)
	}
	cv := lipgloss.NewCanvas(12, 3)
	r := layout.Rect{X: 1, Y: 1, W: 10, H: 2}
	c.View(cv, r, th)
	if got := cv.CellAt(1, 1).Content + cv.CellAt(3, 1).Content; got != "$b" {
		t.Errorf("line 1 painted %q", got)
	}
	if bg := cv.CellAt(3, 1).Style.Bg; bg != th.CopySelectBg {
		t.Errorf("selected cell background %v, want %v", bg, th.CopySelectBg)
	}
	if x, y := c.cursor(r); x != 3 || y != 1 {
		t.Errorf("cursor at %d,%d, want 3,1", x, y)
	}
	c, _ = c.Update(keyOf("v"))
	cv = lipgloss.NewCanvas(12, 3)
	c.View(cv, r, th)
	if bg := cv.CellAt(3, 1).Style.Bg; bg != th.CopyMatchBg {
		t.Errorf("match background %v, want %v", bg, th.CopyMatchBg)
	}
}
