package tui

// This file paints the panes: each pane's cells from its screen grid (or
// copy mode's View, copymode.go) into its rectangle, the border lines between panes
// with box-drawing junctions, and each pane's title on the line above it.
// All coordinates are absolute cells of the window; row 0 is the top line
// (the titles of the top panes), the last row the status bar.

import (
	"image/color"
	"strconv"

	"charm.land/lipgloss/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/rivo/uniseg"

	"clowder/layout"
	"clowder/supervisor/proto"
)

// frameColor converts a frame colour; nil is the default colour.
func frameColor(c proto.FrameColor) color.Color {
	if i, ok := c.Index(); ok {
		return paletteColor(i)
	}
	if r, g, b, ok := c.RGB(); ok {
		return rgb(r, g, b)
	}
	return nil
}

// attrMap maps frame attributes to the renderer's.
var attrMap = []struct {
	from proto.FrameAttr
	to   uint8
}{
	{proto.AttrBold, uv.AttrBold}, {proto.AttrDim, uv.AttrFaint},
	{proto.AttrItalic, uv.AttrItalic}, {proto.AttrBlink, uv.AttrBlink},
	{proto.AttrReverse, uv.AttrReverse}, {proto.AttrHidden, uv.AttrConceal},
	{proto.AttrStrike, uv.AttrStrikethrough},
}

// cellStyle converts a frame cell's style.
func cellStyle(c *proto.FrameCell) uv.Style {
	s := uv.Style{Fg: frameColor(c.Fg), Bg: frameColor(c.Bg), UnderlineColor: frameColor(c.UL),
		Underline: uv.Underline(c.Attrs.Underline())}
	for _, a := range attrMap {
		if c.Attrs&a.from != 0 {
			s.Attrs |= a.to
		}
	}
	return s
}

// styles converts frame cells' styles, remembering the last: a cell
// mostly has its neighbour's style, and converting a truecolor colour
// allocates (issue 12: a fifth of the TUI's CPU in a coloured flood).
type styles struct {
	ok         bool
	fg, bg, ul proto.FrameColor
	attrs      proto.FrameAttr
	style      uv.Style
}

// of is c's style.
func (st *styles) of(c *proto.FrameCell) uv.Style {
	if !st.ok || c.Fg != st.fg || c.Bg != st.bg || c.UL != st.ul || c.Attrs != st.attrs {
		st.ok, st.fg, st.bg, st.ul, st.attrs = true, c.Fg, c.Bg, c.UL, c.Attrs
		st.style = cellStyle(c)
	}
	return st.style
}

// paintCells paints a row of frame cells at (x0, y), at most w cells; a
// wide character that does not fit is painted as a blank.
func paintCells(cv *lipgloss.Canvas, x0, y, w int, cells []proto.FrameCell, restyle func(x int, s *uv.Style)) {
	var cell uv.Cell // one for the row: SetCell copies it, and a cell per column would escape per column
	var st styles
	for x := 0; x < w; x++ {
		fc := &blankCell
		if x < len(cells) {
			fc = &cells[x]
		}
		if fc.Width == 0 {
			continue // the continuation of a wide character, painted with it
		}
		cell = uv.Cell{Content: fc.Text, Width: int(fc.Width), Style: st.of(fc)}
		if cell.Content == "" || (cell.Width == 2 && x+1 >= w) {
			cell.Content, cell.Width = " ", 1
		}
		if restyle != nil {
			restyle(x, &cell.Style)
		}
		cv.SetCell(x0+x, y, &cell)
	}
}

// paintPane paints pane p into r: its screen, or copy mode's view of it.
func (m *Model) paintPane(cv *lipgloss.Canvas, p *pane, r layout.Rect) {
	if c := m.copy; c != nil && c.pane == p.id {
		c.View(cv, r, m.theme)
		return
	}
	for y := 0; y < r.H; y++ {
		var row []proto.FrameCell
		if y < p.scr.rows {
			row = p.scr.cells[y]
		}
		paintCells(cv, r.X, r.Y+y, r.W, row, nil)
	}
	if p.state.gone() {
		m.paintGone(cv, p, r)
	}
}

// paintGone writes the exited/missing notice on the pane's last row.
func (m *Model) paintGone(cv *lipgloss.Canvas, p *pane, r layout.Rect) {
	msg := " " + p.state.String()
	if p.state == paneExited && p.info.ExitReason != "" {
		msg += " (" + p.info.ExitReason
		if p.info.ExitReason == "failed" {
			msg += " " + strconv.Itoa(p.info.ExitCode)
		}
		msg += ")"
	}
	msg += " — " + m.km.Prefix.Help().Key + " " + firstKey(m.km.Bindings[ActRespawn].Help().Key) + " respawns "
	style := uv.Style{Fg: m.theme.ExitedText, Attrs: uv.AttrReverse}
	putText(cv, r.X, r.Y+r.H-1, r.W, msg, style)
}

// putText writes s at (x, y), at most w cells, and returns the cells used.
func putText(cv *lipgloss.Canvas, x, y, w int, s string, style uv.Style) int {
	used := 0
	state := -1
	for s != "" {
		var g string
		var gw int
		g, s, gw, state = uniseg.FirstGraphemeClusterInString(s, state)
		if gw == 0 {
			continue
		}
		if used+gw > w {
			break
		}
		cv.SetCell(x+used, y, &uv.Cell{Content: g, Width: gw, Style: style})
		used += gw
	}
	return used
}

// lineGrid marks the cells that are border lines: the top row and every
// border of the layout.
type lineGrid struct {
	w, h  int
	cells []bool
}

func (g *lineGrid) set(x, y int) {
	if x >= 0 && y >= 0 && x < g.w && y < g.h {
		g.cells[y*g.w+x] = true
	}
}

func (g *lineGrid) at(x, y int) bool {
	return x >= 0 && y >= 0 && x < g.w && y < g.h && g.cells[y*g.w+x]
}

// boxChars are the box-drawing characters by connection: bit 0 left,
// 1 right, 2 up, 3 down.
var boxChars = [16]string{
	" ", "─", "─", "─", "│", "┘", "└", "┴", "│", "┐", "┌", "┬", "│", "┤", "├", "┼",
}

// paintBorders draws the top line and the borders between panes, with
// junctions where they meet; the focused pane's edges are highlighted.
func (m *Model) paintBorders(cv *lipgloss.Canvas, geo layout.Geometry) {
	lg := &lineGrid{w: m.width, h: m.height - 1, cells: make([]bool, m.width*max(m.height-1, 0))}
	for x := 0; x < m.width; x++ {
		lg.set(x, 0)
	}
	for _, b := range geo.Borders {
		for y := b.Rect.Y; y < b.Rect.Y+b.Rect.H; y++ {
			for x := b.Rect.X; x < b.Rect.X+b.Rect.W; x++ {
				lg.set(x, y)
			}
		}
	}
	focus, hasFocus := geo.Pane(m.tree.Focus())
	for y := 0; y < lg.h; y++ {
		for x := 0; x < lg.w; x++ {
			if !lg.at(x, y) {
				continue
			}
			k := 0
			for i, d := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
				if lg.at(x+d[0], y+d[1]) {
					k |= 1 << i
				}
			}
			style := uv.Style{Fg: m.theme.Border}
			if hasFocus && touches(focus, x, y) {
				style.Fg = m.theme.BorderFocus
			}
			cv.SetCell(x, y, &uv.Cell{Content: boxChars[k], Width: 1, Style: style})
		}
	}
}

// touches reports whether border cell (x, y) is on the edge of r.
func touches(r layout.Rect, x, y int) bool {
	inX := x >= r.X-1 && x <= r.X+r.W
	inY := y >= r.Y-1 && y <= r.Y+r.H
	return inX && inY && (x == r.X-1 || x == r.X+r.W || y == r.Y-1 || y == r.Y+r.H)
}

// paintTitles writes each pane's title on the line above it: number,
// name, kind and the attention badge.
func (m *Model) paintTitles(cv *lipgloss.Canvas, geo layout.Geometry) {
	ids := m.tree.Leaves()
	for _, gp := range geo.Panes {
		p := m.panes[gp.ID]
		r := gp.Rect
		if p == nil || r.Y < 1 || r.W < 4 {
			continue
		}
		focused := gp.ID == m.tree.Focus()
		x, w := r.X+1, r.W-2
		style := uv.Style{Fg: m.theme.Title}
		if focused {
			style = uv.Style{Fg: m.theme.TitleFocus, Attrs: uv.AttrBold}
		}
		n := indexOf(ids, gp.ID) + 1
		used := putText(cv, x, r.Y-1, w, " "+strconv.Itoa(n)+" "+p.name()+" · "+p.kind()+" ", style)
		used += m.paintBadge(cv, p, x+used, r.Y-1, w-used)
		if m.tree.Zoomed() == gp.ID {
			used += putText(cv, x+used, r.Y-1, w-used, " [zoom] ", style)
		}
		if c := m.copy; c != nil && c.pane == gp.ID {
			putText(cv, x+used, r.Y-1, w-used, " "+c.position()+" ", style)
		}
	}
}

// paintBadge writes the attention badge and returns the cells used.
func (m *Model) paintBadge(cv *lipgloss.Canvas, p *pane, x, y, w int) int {
	att := p.attention()
	style := uv.Style{Fg: m.theme.BadgeIdle}
	text := "○ " + att
	switch att {
	case "needs-input":
		style = uv.Style{Fg: m.theme.BadgeNeedsInput, Bg: m.theme.BadgeNeedsInputBg, Attrs: uv.AttrBold}
		text = " ● needs input "
	case "working":
		style.Fg, text = m.theme.BadgeWorking, "● working"
	case "exited", "missing":
		style.Fg, text = m.theme.BadgeExited, "✕ "+att
	case "":
		return 0
	}
	return putText(cv, x, y, w, text+" ", style)
}

// indexOf is the index of s in list, or -1.
func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}
