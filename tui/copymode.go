package tui

// This file is scroll and copy mode over a pane's history: the host's
// scrollback (fetched in pages by absolute line number, newest first, up
// to copyMaxLines) followed by the screen as it was on entry. It has a
// cursor, search forward and back with every match highlighted, and a
// stream selection that y copies to the outer terminal (OSC 52) and the
// system clipboard.
//
// Lines are indexed from 0 (the oldest loaded); fetching older pages
// prepends and shifts every index by the page's length.

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"clowder/supervisor"
)

// copyMaxLines bounds how much history copy mode loads.
const copyMaxLines = 10000

// copyLine is one line of history or screen.
type copyLine struct {
	cells   []supervisor.FrameCell
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

// startCopy enters copy mode on p with its current screen, and fetches
// the newest page of history.
func (m *Model) startCopy(p *pane) tea.Cmd {
	r, _ := m.geometry().Pane(p.id)
	c := &copyMode{pane: p.id, w: max(r.W, 1), h: max(r.H, 1)}
	for y := range p.scr.rows {
		c.lines = append(c.lines, copyLine{cells: p.scr.cells[y], wrapped: p.scr.wrapped[y]})
	}
	c.cur = textPos{y: min(int(p.scr.cursor.Y), max(len(c.lines)-1, 0)), x: min(int(p.scr.cursor.X), max(c.w-1, 0))}
	c.top = max(len(c.lines)-c.h, 0)
	c.loading = true
	m.copy, m.dirty = c, true
	return m.historyCmd(p.id, 0, c.page(p), true)
}

// page is how many lines one history request asks for.
func (c *copyMode) page(p *pane) int {
	return max(1, min(1000, supervisor.MaxScreenCells/max(p.scr.cols, 1)))
}

// enterCopy is the copy-mode action; entered with PageUp it pages up at once.
func (m *Model) enterCopy(k tea.KeyPressMsg) tea.Cmd {
	p := m.focused()
	if p == nil || p.state == paneMissing {
		return nil
	}
	var cmd tea.Cmd
	if m.copy == nil || m.copy.pane != p.id {
		cmd = m.startCopy(p)
	}
	if k.String() == "pgup" {
		m.copy.move(-m.copy.h, 0)
	}
	return cmd
}

// onHistory prepends a page of history and asks for the one before it.
func (m *Model) onHistory(msg historyMsg) tea.Cmd {
	c := m.copy
	if c == nil || c.pane != msg.pane {
		return nil
	}
	c.loading = false
	if msg.err != nil {
		m.setStatus(fmt.Sprintf("history: %v", msg.err), true)
		return nil
	}
	c.prepend(msg.rows)
	if c.pending != 0 {
		c.scroll(c.pending)
		c.pending = 0
	}
	m.dirty = true
	rows := msg.rows
	if len(rows.Lines) == 0 || rows.First <= rows.Oldest || c.history >= copyMaxLines {
		return nil
	}
	count := int(min(uint64(len(rows.Lines)), rows.First-rows.Oldest))
	c.loading = true
	return m.historyCmd(c.pane, rows.First-uint64(count), count, false)
}

// prepend puts older lines before the loaded ones.
func (c *copyMode) prepend(rows *supervisor.HistoryRows) {
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
		c.anchor.y += n
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

// copyKey handles a key in copy mode.
func (m *Model) copyKey(k tea.KeyPressMsg) tea.Cmd {
	c := m.copy
	m.dirty = true
	switch k.String() {
	case "q", "esc", "ctrl+c":
		m.copy = nil
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
		return m.copyCommand(k.String())
	}
	return nil
}

// copyCommand handles the copy-mode keys that search, select and copy.
func (m *Model) copyCommand(s string) tea.Cmd {
	c := m.copy
	switch s {
	case "/", "?":
		back := s == "?"
		return m.ask("search "+map[bool]string{false: "forward", true: "back"}[back]+":", c.search,
			func(m *Model, q string) tea.Cmd {
				if m.copy != nil && q != "" {
					m.copy.search, m.copy.backward = q, back
					m.copySearch(back)
				}
				return nil
			})
	case "n":
		m.copySearch(c.backward)
	case "N":
		m.copySearch(!c.backward)
	case "v", "space":
		if c.anchor != nil {
			c.anchor = nil
		} else {
			a := c.cur
			c.anchor = &a
		}
	case "y", "enter":
		text := c.selection()
		m.copy = nil
		m.setStatus(fmt.Sprintf("copied %d characters", len([]rune(text))), false)
		return m.copyText(text)
	}
	return nil
}

// copySearch moves the cursor to the next match of the search, back or
// forward from the cursor, wrapping around.
func (m *Model) copySearch(back bool) {
	c := m.copy
	if c.search == "" {
		return
	}
	if p, ok := c.find(back); ok {
		c.cur = p
		c.show()
		return
	}
	m.setStatus(fmt.Sprintf("%q not found", c.search), false)
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
func lineIndex(cells []supervisor.FrameCell) (string, []int) {
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
