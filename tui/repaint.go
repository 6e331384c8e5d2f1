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
// listed (none when only the cursor moved).
type damage struct {
	all  bool
	rows []int
}

// merge adds newer's rows to d's, for a frame drawn in place of one that
// was not drawn yet.
func (d damage) merge(newer damage) damage {
	if d.all || newer.all {
		return damage{all: true}
	}
	return damage{rows: append(d.rows, newer.rows...)}
}

// damage records the rows frame f changes on p's screen, or marks the
// whole view dirty when f replaces the screen (a full or resized frame).
func (m *Model) damage(p *pane, f *proto.ScreenFrame) {
	if f.Full || int(f.Cols) != p.scr.cols || int(f.Rows) != p.scr.rows {
		m.dirty = true
		return
	}
	if m.damaged == nil {
		m.damaged = map[string][]uint16{}
	}
	rows := m.damaged[p.id]
	for _, l := range f.Lines {
		rows = append(rows, l.Y)
	}
	m.damaged[p.id] = rows
}

// repaint paints the damaged rows of the visible panes into the last
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
		ys, hit := m.damaged[gp.ID]
		p := m.panes[gp.ID]
		if !hit || p == nil {
			continue
		}
		if p.state.gone() {
			return damage{}, false // its notice covers the last row
		}
		r := gp.Rect
		for _, y := range ys {
			if int(y) < r.H && int(y) < p.scr.rows {
				paintCells(cv, r.X, r.Y+int(y), r.W, p.scr.cells[y], nil)
				d.rows = append(d.rows, r.Y+int(y))
			}
		}
	}
	m.view = m.pointer(m.view)
	return d, true
}
