package tui

// This file is the copy-mode component: scroll and copy mode over a
// pane's history, the host's scrollback (fetched in pages by absolute line
// number, newest first, up to copyMaxLines) followed by the screen as it
// was on entry. It has a cursor, search forward and back with every match
// highlighted, and a stream selection that y hands to the root to copy.
//
// Like a bubbles component it has its own model, Update and View and does
// no I/O: what it needs of the root (a page of history, the search prompt,
// a status message, its end with the copied text) it returns from Update
// as a result message, which the root acts on in the same Update
// (copying.go).
//
// Lines are indexed from 0 (the oldest loaded); fetching older pages
// prepends and shifts every index by the page's length.

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/rivo/uniseg"

	"clowder/layout"
	"clowder/supervisor/proto"
)

// copyMaxLines bounds how much history copy mode loads.
const copyMaxLines = 10000

// copyLine is one line of history or screen.
type copyLine struct {
	cells   []proto.FrameCell
	wrapped bool
}

// textPos is a position in copy mode's lines.
type textPos struct{ y, x int }

// before orders positions.
func (p textPos) before(q textPos) bool { return p.y < q.y || (p.y == q.y && p.x < q.x) }

// copyMode is the state of copy mode in one pane.
type copyMode struct {
	pane     string
	lines    []copyLine
	first    uint64 // absolute history number of lines[0] (history lines only)
	history  int    // how many of lines are history (the rest is the screen)
	loading  bool
	pending  int     // scrolling asked for beyond the loaded top, done when history arrives
	top      int     // index of the first line shown
	w, h     int     // the pane's size when shown
	cur      textPos // the cursor
	anchor   *textPos
	search   string
	backward bool
}

// Messages the root sends copy mode.
type (
	copyScrollMsg struct{ lines int } // the wheel: scroll by lines (negative: up)
	copySearchMsg struct {            // the search prompt's answer
		query string
		back  bool
	}
	copySizeMsg struct{ w, h int } // the pane's size as drawn
)

// Result messages copy mode returns from Update for the root.
type (
	// copyDoneMsg ends copy mode; copied says y took text (possibly "").
	copyDoneMsg struct {
		text   string
		copied bool
	}
	// copyAskMsg asks for the search prompt, starting with initial.
	copyAskMsg struct {
		back    bool
		initial string
	}
	// copyFetchMsg asks for a page of pane's history (historyCmd's arguments).
	copyFetchMsg struct {
		pane   string
		from   uint64
		count  int
		newest bool
	}
	// copyStatusMsg is a message for the status bar.
	copyStatusMsg struct {
		text  string
		isErr bool
	}
)

// newCopyMode is copy mode on pane id, whose screen is scr, shown in r;
// it returns the request for the newest page of history.
func newCopyMode(id string, scr *screen, r layout.Rect) (copyMode, copyFetchMsg) {
	c := copyMode{pane: id, w: max(r.W, 1), h: max(r.H, 1)}
	for y := range scr.rows {
		c.lines = append(c.lines, copyLine{cells: scr.cells[y], wrapped: scr.wrapped[y]})
	}
	c.cur = textPos{y: min(int(scr.cursor.Y), max(len(c.lines)-1, 0)), x: min(int(scr.cursor.X), max(c.w-1, 0))}
	c.top = max(len(c.lines)-c.h, 0)
	c.loading = true
	page := max(1, min(1000, proto.MaxScreenCells/max(scr.cols, 1)))
	return c, copyFetchMsg{pane: id, count: page, newest: true}
}

// Update handles a key, a page of history or a message from the root, and
// returns copy mode as it now is and a result message for the root, or nil.
func (c copyMode) Update(msg tea.Msg) (copyMode, tea.Msg) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return c.key(msg.String())
	case historyMsg:
		return c.onHistory(msg)
	case copyScrollMsg:
		atBottom := c.scroll(msg.lines)
		if msg.lines > 0 && atBottom && c.anchor == nil && !c.loading {
			return c, copyDoneMsg{} // scrolled back to the bottom: leave, as tmux does
		}
	case copySearchMsg:
		c.search, c.backward = msg.query, msg.back
		return c.searchNext(msg.back)
	case copySizeMsg:
		c.w, c.h = max(msg.w, 1), max(msg.h, 1)
	}
	return c, nil
}

// onHistory prepends a page of history and asks for the one before it.
func (c copyMode) onHistory(msg historyMsg) (copyMode, tea.Msg) {
	if c.pane != msg.pane {
		return c, nil
	}
	c.loading = false
	if msg.err != nil {
		return c, copyStatusMsg{text: fmt.Sprintf("history: %v", msg.err), isErr: true}
	}
	c.prepend(msg.rows)
	if c.pending != 0 {
		c.scroll(c.pending)
		c.pending = 0
	}
	rows := msg.rows
	if len(rows.Lines) == 0 || rows.First <= rows.Oldest || c.history >= copyMaxLines {
		return c, nil
	}
	count := int(min(uint64(len(rows.Lines)), rows.First-rows.Oldest))
	c.loading = true
	return c, copyFetchMsg{pane: c.pane, from: rows.First - uint64(count), count: count}
}

// prepend puts older lines before the loaded ones.
func (c *copyMode) prepend(rows *proto.HistoryRows) {
	if c.history > 0 && rows.First+uint64(len(rows.Lines)) != c.first {
		return // not the page just before ours: drop it rather than leave a hole
	}
	older := make([]copyLine, len(rows.Lines), len(rows.Lines)+len(c.lines))
	for i, l := range rows.Lines {
		older[i] = copyLine{cells: l.Cells, wrapped: l.Wrapped}
	}
	n := len(older)
	c.lines = append(older, c.lines...)
	c.first, c.history = rows.First, c.history+n
	c.top += n
	c.cur.y += n
	if c.anchor != nil {
		a := *c.anchor // a new one: the copy mode this one came from keeps its own
		a.y += n
		c.anchor = &a
	}
}

// move moves the cursor by dy lines and dx columns, scrolling to keep it
// shown.
func (c *copyMode) move(dy, dx int) {
	c.cur.y = clamp(c.cur.y+dy, 0, max(len(c.lines)-1, 0))
	c.cur.x = clamp(c.cur.x+dx, 0, max(c.w-1, 0))
	c.show()
}

// show scrolls so the cursor's line is shown.
func (c *copyMode) show() {
	if c.cur.y < c.top {
		c.top = c.cur.y
	}
	if c.cur.y >= c.top+c.h {
		c.top = c.cur.y - c.h + 1
	}
	c.top = clamp(c.top, 0, c.maxTop())
}

// maxTop is the top line that shows the last line at the bottom.
func (c *copyMode) maxTop() int { return max(len(c.lines)-c.h, 0) }

// scroll moves the view by n lines (the wheel), taking the cursor along.
// It reports whether the view is at the bottom afterwards.
func (c *copyMode) scroll(n int) bool {
	if want := c.top + n; want < 0 && c.loading {
		c.pending += want
	}
	c.top = clamp(c.top+n, 0, c.maxTop())
	c.cur.y = clamp(c.cur.y, c.top, c.top+c.h-1)
	c.cur.y = clamp(c.cur.y, 0, max(len(c.lines)-1, 0))
	return c.top == c.maxTop()
}

// clamp limits v to lo..hi.
func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }

// key handles a key press: moves, search, selection, copy and leave.
func (c copyMode) key(s string) (copyMode, tea.Msg) {
	switch s {
	case "q", "esc", "ctrl+c":
		return c, copyDoneMsg{}
	case "up", "k":
		c.move(-1, 0)
	case "down", "j":
		c.move(1, 0)
	case "left", "h":
		c.move(0, -1)
	case "right", "l":
		c.move(0, 1)
	case "pgup", "ctrl+b":
		c.move(-c.h, 0)
	case "pgdown", "ctrl+f":
		c.move(c.h, 0)
	case "ctrl+u":
		c.move(-c.h/2, 0)
	case "ctrl+d":
		c.move(c.h/2, 0)
	case "g", "home":
		c.move(-len(c.lines), -c.w)
	case "G", "end":
		c.move(len(c.lines), -c.w)
	case "0":
		c.move(0, -c.w)
	case "$":
		c.move(0, c.w)
	default:
		return c.command(s)
	}
	return c, nil
}

// command handles the keys that search, select and copy.
func (c copyMode) command(s string) (copyMode, tea.Msg) {
	switch s {
	case "/", "?":
		return c, copyAskMsg{back: s == "?", initial: c.search}
	case "n":
		return c.searchNext(c.backward)
	case "N":
		return c.searchNext(!c.backward)
	case "v", "space":
		if c.anchor != nil {
			c.anchor = nil
		} else {
			a := c.cur
			c.anchor = &a
		}
	case "y", "enter":
		return c, copyDoneMsg{text: c.selection(), copied: true}
	}
	return c, nil
}

// searchNext moves the cursor to the next match of the search, back or
// forward from the cursor, wrapping around.
func (c copyMode) searchNext(back bool) (copyMode, tea.Msg) {
	if c.search == "" {
		return c, nil
	}
	if p, ok := c.find(back); ok {
		c.cur = p
		c.show()
		return c, nil
	}
	return c, copyStatusMsg{text: fmt.Sprintf("%q not found", c.search)}
}

// find returns the next match position after (or before) the cursor.
func (c *copyMode) find(back bool) (textPos, bool) {
	n := len(c.lines)
	for i := 0; i <= n; i++ {
		y := c.cur.y + i
		if back {
			y = c.cur.y - i
		}
		y = ((y % n) + n) % n
		cols := c.matches(y)
		if back {
			for j := len(cols) - 1; j >= 0; j-- {
				if p := (textPos{y, cols[j]}); i > 0 || p.before(c.cur) {
					return p, true
				}
			}
			continue
		}
		for _, x := range cols {
			if p := (textPos{y, x}); i > 0 || c.cur.before(p) {
				return p, true
			}
		}
	}
	return textPos{}, false
}

// matches returns the starting columns of the search's matches in line y.
func (c *copyMode) matches(y int) []int {
	if c.search == "" || y < 0 || y >= len(c.lines) {
		return nil
	}
	text, starts := lineIndex(c.lines[y].cells)
	var cols []int
	for off := 0; ; {
		i := strings.Index(text[off:], c.search)
		if i < 0 {
			return cols
		}
		cols = append(cols, cellAt(starts, off+i))
		off += i + max(len(c.search), 1)
	}
}

// lineIndex is a line's text (blanks as spaces) and each cell's byte
// offset in it.
func lineIndex(cells []proto.FrameCell) (string, []int) {
	var b strings.Builder
	starts := make([]int, len(cells))
	for i, cell := range cells {
		starts[i] = b.Len()
		switch {
		case cell.Width == 0:
		case cell.Text == "":
			b.WriteByte(' ')
		default:
			b.WriteString(cell.Text)
		}
	}
	return b.String(), starts
}

// cellAt is the cell whose text holds byte offset off.
func cellAt(starts []int, off int) int {
	i := 0
	for i+1 < len(starts) && starts[i+1] <= off {
		i++
	}
	return i
}

// selected reports whether cell (x, y) is in the selection.
func (c *copyMode) selected(x, y int) bool {
	if c.anchor == nil {
		return false
	}
	a, b := *c.anchor, c.cur
	if b.before(a) {
		a, b = b, a
	}
	p := textPos{y, x}
	return !p.before(a) && !b.before(p)
}

// selection is the selected text (the cursor's line with no selection);
// soft-wrapped lines join without a newline.
func (c *copyMode) selection() string {
	a, b := c.cur, c.cur
	if c.anchor != nil {
		a = *c.anchor
	}
	if b.before(a) {
		a, b = b, a
	}
	if c.anchor == nil {
		a.x, b.x = 0, c.w
	}
	var out strings.Builder
	for y := a.y; y <= b.y && y < len(c.lines); y++ {
		cells := c.lines[y].cells
		lo, hi := 0, len(cells)
		if y == a.y {
			lo = min(a.x, len(cells))
		}
		if y == b.y {
			hi = min(b.x+1, len(cells))
		}
		out.WriteString(rowText(cells[lo:max(lo, hi)]))
		if y < b.y && !c.lines[y].wrapped {
			out.WriteByte('\n')
		}
	}
	return out.String()
}

// position describes where the view is, for the pane's title.
func (c *copyMode) position() string {
	return fmt.Sprintf("[copy %d/%d]", c.cur.y+1, len(c.lines))
}

// View paints copy mode's lines into r of cv, matches and selection
// marked with th's colours.
func (c copyMode) View(cv *lipgloss.Canvas, r layout.Rect, th Theme) {
	for y := 0; y < r.H; y++ {
		ly := c.top + y
		var row []proto.FrameCell
		if ly < len(c.lines) {
			row = c.lines[ly].cells
		}
		marks := c.matchMask(ly, len(row))
		paintCells(cv, r.X, r.Y+y, r.W, row, func(x int, s *uv.Style) {
			switch {
			case c.selected(x, ly):
				s.Fg, s.Bg, s.Attrs = th.CopySelectFg, th.CopySelectBg, 0
			case x < len(marks) && marks[x]:
				s.Fg, s.Bg, s.Attrs = th.CopyMatchFg, th.CopyMatchBg, 0
			}
		})
	}
}

// matchMask marks the cells of line y that are inside a search match.
func (c copyMode) matchMask(y, n int) []bool {
	cols := c.matches(y)
	if len(cols) == 0 {
		return nil
	}
	mask := make([]bool, n)
	width := uniseg.StringWidth(c.search)
	for _, x := range cols {
		for i := x; i < x+width && i < n; i++ {
			mask[i] = true
		}
	}
	return mask
}

// cursor is where the terminal's cursor goes when copy mode is shown in r.
func (c copyMode) cursor(r layout.Rect) (x, y int) {
	return r.X + min(c.cur.x, r.W-1), r.Y + c.cur.y - c.top
}
