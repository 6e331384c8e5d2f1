package tui

// This file builds the view: panes and borders (render.go), the status bar
// (or the prompt in its place), the help overlay (helpoverlay.go), and where the terminal's
// cursor goes. Update calls render when the model changed; View returns
// the result.

import (
	"image/color"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"clowder/layout"
	"clowder/vtgrid"
)

// rgb is a truecolor value.
func rgb(r, g, b uint8) color.Color { return ansi.RGBColor{R: r, G: g, B: b} }

// render builds the whole view.
func (m *Model) render() tea.View {
	v := tea.View{AltScreen: true, MouseMode: tea.MouseModeCellMotion, ReportFocus: true}
	if m.width <= 0 || m.height <= 0 {
		return v
	}
	cv := m.newCanvas()
	geo := m.geometry()
	m.paintBorders(cv, geo)
	for _, gp := range geo.Panes {
		if p := m.panes[gp.ID]; p != nil {
			m.paintPane(cv, p, gp.Rect)
		}
	}
	m.paintTitles(cv, geo)
	m.paintEmpty(cv, geo)
	m.paintStatus(cv)
	if m.help.shown {
		m.help.View(cv)
	}
	m.canvas = cv
	if m.draw == nil {
		v.Content = cv.Render() // tests read the view as text; the terminal copies cells
	}
	return m.pointer(v)
}

// pointer sets the view's cursor and mouse mode from the model.
func (m *Model) pointer(v tea.View) tea.View {
	v.Cursor = m.cursor()
	v.MouseMode = tea.MouseModeCellMotion
	if p := m.focused(); p != nil && vtModes(p.scr.modes).Mouse == vtgrid.MouseAny {
		v.MouseMode = tea.MouseModeAllMotion
	}
	return v
}

// newCanvas returns a blank canvas of the window's size: the last one,
// cleared (no allocation, nothing for the GC to scan anew), or a new one.
func (m *Model) newCanvas() *lipgloss.Canvas {
	if cv := m.canvas; cv != nil && cv.Width() == m.width && cv.Height() == m.height {
		cv.Clear()
		return cv
	}
	return lipgloss.NewCanvas(m.width, m.height)
}

// paintEmpty says what is going on when there are no panes.
func (m *Model) paintEmpty(cv *lipgloss.Canvas, geo layout.Geometry) {
	if len(geo.Panes) > 0 || m.height < 3 {
		return
	}
	msg := "starting…"
	if m.started && m.spawning == 0 {
		msg = "no panes — " + m.km.Prefix.Help().Key + " " + firstKey(m.km.Bindings[ActNewShell].Help().Key) + " starts a shell"
	}
	putText(cv, 2, m.height/2, m.width-4, msg, uv.Style{Fg: m.theme.Title})
}

// paintStatus draws the bottom row: mode, panes needing input, messages,
// host status; or the open prompt.
func (m *Model) paintStatus(cv *lipgloss.Canvas) {
	y := m.height - 1
	base := uv.Style{Fg: m.theme.StatusFg, Bg: m.theme.StatusBg}
	for x := 0; x < m.width; x++ {
		cv.SetCell(x, y, &uv.Cell{Content: " ", Width: 1, Style: base})
	}
	if m.prompt != nil {
		text, _ := m.prompt.View()
		putText(cv, 0, y, m.width, " "+text, uv.Style{Fg: m.theme.OverlayFg, Bg: m.theme.OverlayBg, Attrs: uv.AttrBold})
		return
	}
	x := 0
	if tag := m.modeTag(); tag != "" {
		x += putText(cv, x, y, m.width-x, " "+tag+" ", uv.Style{Fg: m.theme.StatusPrefixFg, Bg: m.theme.StatusPrefixBg, Attrs: uv.AttrBold})
	}
	if names := m.needsInput(); len(names) > 0 {
		x += putText(cv, x, y, m.width-x, " needs input: "+strings.Join(names, ", ")+" ",
			uv.Style{Fg: m.theme.StatusAttention, Bg: m.theme.StatusBg, Attrs: uv.AttrBold})
	}
	msg, style := m.status, base
	if m.statusErr {
		style.Fg = m.theme.StatusError
	}
	if m.hostDown != "" {
		msg, style.Fg = "host: "+m.hostDown, m.theme.StatusError
	}
	right := " " + m.km.Prefix.Help().Key + " " + firstKey(m.km.Bindings[ActHelp].Help().Key) + " help "
	x += putText(cv, x, y, max(m.width-x-len(right), 0), " "+msg, style)
	if x+len(right) <= m.width {
		putText(cv, m.width-len(right), y, len(right), right, base)
	}
}

// modeTag names the input mode for the status bar.
func (m *Model) modeTag() string {
	switch {
	case m.mode == modePrefix:
		return "PREFIX"
	case m.mode == modeRepeat:
		return "RESIZE"
	case m.copy != nil:
		return "COPY"
	}
	return ""
}

// needsInput lists the names of the panes waiting for their user.
func (m *Model) needsInput() []string {
	var names []string
	for _, id := range m.tree.Leaves() {
		if p := m.panes[id]; p != nil && p.needsInput() {
			names = append(names, p.name())
		}
	}
	return names
}

// cursor places the terminal's cursor: in the prompt, at copy mode's
// cursor, or at the focused pane's own cursor when it shows one.
func (m *Model) cursor() *tea.Cursor {
	if m.prompt != nil {
		_, at := m.prompt.View()
		return tea.NewCursor(min(1+at, m.width-1), m.height-1)
	}
	if m.help.shown {
		return nil
	}
	p := m.focused()
	r, ok := m.geometry().Pane(m.tree.Focus())
	if p == nil || !ok {
		return nil
	}
	if c := m.copy; c != nil && c.pane == p.id {
		return tea.NewCursor(c.cursor(r))
	}
	cur := p.scr.cursor
	if !cur.Visible || p.state.gone() || int(cur.Y) >= r.H {
		return nil
	}
	c := tea.NewCursor(r.X+min(int(cur.X), r.W-1), r.Y+int(cur.Y))
	c.Shape, c.Blink = cursorShape(cur.Style)
	return c
}

// cursorShape maps DECSCUSR 0-6 to a shape and blink.
func cursorShape(style uint8) (tea.CursorShape, bool) {
	blink := style == 0 || style%2 == 1
	switch style {
	case 3, 4:
		return tea.CursorUnderline, blink
	case 5, 6:
		return tea.CursorBar, blink
	}
	return tea.CursorBlock, blink
}
