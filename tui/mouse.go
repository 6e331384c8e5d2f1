package tui

// This file handles the mouse. Click focuses the pane under the pointer;
// pressing on a border and dragging moves it (saved when the drag ends);
// the wheel scrolls the pane's history (copy mode) unless the pane turned
// on mouse reporting, in which case every event over it is passed through,
// in coordinates relative to the pane.

import (
	tea "charm.land/bubbletea/v2"

	"clowder/layout"
	"clowder/panes"
	"clowder/vtgrid"
)

// wheelLines is how far one wheel step scrolls copy mode.
const wheelLines = 3

// dragState is a border being dragged.
type dragState struct{ border layout.Border }

// onMouse routes a mouse event.
func (m *Model) onMouse(msg tea.MouseMsg) tea.Cmd {
	if m.help.shown || m.prompt != nil {
		return nil
	}
	ev := msg.Mouse()
	switch msg.(type) {
	case tea.MouseClickMsg:
		return m.mouseClick(ev)
	case tea.MouseMotionMsg:
		return m.mouseMotion(ev)
	case tea.MouseReleaseMsg:
		return m.mouseRelease(ev)
	case tea.MouseWheelMsg:
		return m.mouseWheel(ev)
	}
	return nil
}

// mouseClick starts a border drag or focuses (and passes the click to)
// the pane under the pointer.
func (m *Model) mouseClick(ev tea.Mouse) tea.Cmd {
	g := m.geometry()
	if b, ok := g.BorderAt(ev.X, ev.Y); ok && ev.Button == tea.MouseLeft {
		m.drag = &dragState{border: b}
		return nil
	}
	id, ok := g.PaneAt(ev.X, ev.Y)
	if !ok {
		return nil
	}
	cmd := m.focus(id)
	return tea.Batch(cmd, m.passMouse(id, ev, panes.MousePress))
}

// mouseMotion moves a dragged border or passes motion to the focused pane.
func (m *Model) mouseMotion(ev tea.Mouse) tea.Cmd {
	if m.drag != nil {
		pos := ev.X
		if m.drag.border.Axis == layout.Vertical {
			pos = ev.Y
		}
		if err := m.tree.Drag(m.drag.border.Split, pos, m.area(), minPane); err != nil {
			return nil
		}
		m.dirty = true
		return m.syncSizes()
	}
	return m.passMouse(m.tree.Focus(), ev, panes.MouseMotion)
}

// mouseRelease ends a drag (saving the layout) or passes the release on.
func (m *Model) mouseRelease(ev tea.Mouse) tea.Cmd {
	if m.drag != nil {
		m.drag = nil
		return m.saveCmd()
	}
	return m.passMouse(m.tree.Focus(), ev, panes.MouseRelease)
}

// mouseWheel scrolls the pane under the pointer, or passes the wheel to it.
func (m *Model) mouseWheel(ev tea.Mouse) tea.Cmd {
	id, ok := m.geometry().PaneAt(ev.X, ev.Y)
	p := m.panes[id]
	if !ok || p == nil {
		return nil
	}
	if vtModes(p.scr.modes).Mouse != vtgrid.MouseOff && !p.state.gone() {
		return m.passMouse(id, ev, panes.MousePress)
	}
	up := ev.Button == tea.MouseWheelUp
	if !up && ev.Button != tea.MouseWheelDown {
		return nil
	}
	var cmd tea.Cmd
	if m.copy == nil || m.copy.pane != id {
		cmd = m.focus(id)
		cmd = tea.Batch(cmd, m.startCopy(p))
	}
	lines := wheelLines
	if up {
		lines = -wheelLines
	}
	return tea.Batch(cmd, m.toCopy(copyScrollMsg{lines: lines})) // at the bottom copy mode ends, as in tmux
}

// passMouse encodes ev for pane id, relative to its rectangle, if the pane
// asked for mouse events of this kind.
func (m *Model) passMouse(id string, ev tea.Mouse, action panes.MouseAction) tea.Cmd {
	p := m.panes[id]
	r, ok := m.geometry().Pane(id)
	if p == nil || !ok || m.copy != nil {
		return nil
	}
	modes := vtModes(p.scr.modes)
	if modes.Mouse == vtgrid.MouseOff {
		return nil
	}
	pe := panes.MouseEvent{Action: action, Button: mouseButton(ev.Button), X: ev.X - r.X, Y: ev.Y - r.Y, Mod: teaMods(ev.Mod)}
	if pe.X < 0 || pe.Y < 0 || pe.X >= r.W || pe.Y >= r.H {
		return nil
	}
	m.sendBytes(p, panes.EncodeMouse(pe, modes))
	return nil
}

// mouseButton maps bubbletea's buttons to ours.
func mouseButton(b tea.MouseButton) panes.MouseButton {
	switch b {
	case tea.MouseLeft:
		return panes.MouseLeft
	case tea.MouseMiddle:
		return panes.MouseMiddle
	case tea.MouseRight:
		return panes.MouseRight
	case tea.MouseWheelUp:
		return panes.MouseWheelUp
	case tea.MouseWheelDown:
		return panes.MouseWheelDown
	case tea.MouseWheelLeft:
		return panes.MouseWheelLeft
	case tea.MouseWheelRight:
		return panes.MouseWheelRight
	}
	return panes.MouseNoButton
}

// focusBytes is what p gets when it gains or loses the focus, if it asked.
func focusBytes(in bool, p *pane) []byte {
	if p == nil {
		return nil
	}
	return panes.EncodeFocus(in, vtModes(p.scr.modes))
}

// onOuterFocus tells the focused pane that the outer terminal gained or
// lost the focus, if it asked.
func (m *Model) onOuterFocus(msg tea.Msg) tea.Cmd {
	_, in := msg.(tea.FocusMsg)
	p := m.focused()
	m.sendBytes(p, focusBytes(in, p))
	return nil
}
