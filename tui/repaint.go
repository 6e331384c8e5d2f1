package tui

// This file repaints only what the host's frames changed. When nothing but
// panes' screens changed since the last render (an echo, a pane's output),
// the canvas still holds everything else, so only the changed rows of
// those panes are painted again, and the terminal copies and compares only
// those rows (damage). Anything else that changes the view (layout, focus,
// titles, the status bar, copy mode, help, a pane that ended) sets dirty
// and the whole view is rendered.

import (
	"clowder/supervisor/proto"
)

// damage is what a frame changed on the canvas: every row, or the rows
// listed (none when only the cursor moved). cols, when it has a span per
// row, narrows each row to the cells [x0, x1) that changed; without it
// the rows changed whole.
type damage struct {
	all  bool
	rows []int
	cols [][2]int
	// echo: the frame is the echo of typed input, drawn without waiting
	// for the terminal's cost gap, as the mailbox delivered it (issue 12).
	echo bool
}

// merge adds newer's rows to d's, for a frame drawn in place of one that
// was not drawn yet.
func (d damage) merge(newer damage) damage {
	if d.all || newer.all {
		return damage{all: true}
	}
	m := damage{rows: append(d.rows, newer.rows...)}
	if d.spanned() && newer.spanned() {
		m.cols = append(d.cols, newer.cols...)
	}
	return m
}

// spanned reports whether cols narrows every row.
func (d damage) spanned() bool { return len(d.cols) == len(d.rows) }

// span is row i's cells: [x0, x1), or the whole row (0, w).
func (d damage) span(i, w int) (int, int) {
	if d.spanned() {
		return d.cols[i][0], min(d.cols[i][1], w)
	}
	return 0, w
}

// span is the cells [x0, x1) of row y of a pane's screen.
type span struct{ y, x0, x1 int }

// damage records the cells frame f changes on p's screen, row by row, or
// marks the whole view dirty when f replaces the screen (a full or
// resized frame). It runs before f is applied: a row's span runs from
// its first to its last cell that differs, so an echo repaints the key,
// not the row (issue 12).
func (m *Model) damage(p *pane, f *proto.ScreenFrame) {
	if f.Full || int(f.Cols) != p.scr.cols || int(f.Rows) != p.scr.rows {
		m.dirty = true
		return
	}
	if m.damaged == nil {
		m.damaged = map[string][]span{}
	}
	spans := m.damaged[p.id]
	for _, l := range f.Lines {
		if int(l.Y) < p.scr.rows {
			if s, ok := changed(p.scr.cells[l.Y], l.Cells); ok {
				s.y = int(l.Y)
				spans = append(spans, s)
			}
		}
	}
	m.damaged[p.id] = spans
}

// changed is the span of cells where row new differs from old (new is
// padded with blanks to old's length), widened to whole wide characters.
func changed(old, new []proto.FrameCell) (span, bool) {
	at := func(x int) *proto.FrameCell {
		if x < len(new) {
			return &new[x]
		}
		return &blankCell
	}
	x0, x1 := 0, len(old)
	for x0 < x1 && *at(x0) == old[x0] {
		x0++
	}
	if x0 == x1 {
		return span{}, false
	}
	for x1 > x0 && *at(x1 - 1) == old[x1-1] {
		x1--
	}
	for x0 > 0 && (at(x0).Width == 0 || old[x0].Width == 0) {
		x0-- // the second half of a wide character: paint it whole
	}
	if at(x1-1).Width == 2 {
		x1++
	}
	return span{x0: x0, x1: min(x1, len(old))}, true
}

// repaint paints the damaged cells of the visible panes into the last
// canvas and updates the view's cursor, reporting false when the view must
// be rendered whole instead.
func (m *Model) repaint() (damage, bool) {
	cv := m.canvas
	if m.dirty || m.draw == nil || cv == nil || cv.Width() != m.width || cv.Height() != m.height ||
		m.copy != nil || m.help.shown {
		return damage{}, false
	}
	var d damage
	for _, gp := range m.geometry().Panes {
		spans, hit := m.damaged[gp.ID]
		p := m.panes[gp.ID]
		if !hit || p == nil {
			continue
		}
		if p.state.gone() {
			return damage{}, false // its notice covers the last row
		}
		r := gp.Rect
		for _, s := range spans {
			if s.y < r.H && s.y < p.scr.rows && s.x0 < r.W {
				paintCells(cv, r.X+s.x0, r.Y+s.y, min(s.x1, r.W)-s.x0, p.scr.cells[s.y][s.x0:], nil)
				d.rows = append(d.rows, r.Y+s.y)
				d.cols = append(d.cols, [2]int{r.X + s.x0, r.X + min(s.x1, r.W)})
			}
		}
	}
	m.view = m.pointer(m.view)
	return d, true
}
