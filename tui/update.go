package tui

// This file is Update: one type switch that hands each message to its
// handler (update_*.go), then rebuilds the view if anything changed.

import (
	tea "charm.land/bubbletea/v2"
)

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.dispatch(msg)
	if t := m.statusTimer(); t != nil {
		cmd = tea.Batch(cmd, t)
	}
	if m.dirty || m.damaged != nil {
		m.redraw()
	}
	m.echo = false // an echo that changed nothing marks nothing after it
	if mail, ok := msg.(mailMsg); ok {
		m.mail.handled(mail) // paces the next delivery by what this one cost
	}
	return m, cmd
}

// dispatch routes one message.
func (m *Model) dispatch(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		return m.onWindowSize(msg)
	case tea.KeyPressMsg:
		return m.onKey(msg)
	case tea.PasteMsg:
		return m.pasteText(msg.Content)
	case tea.ClipboardMsg:
		return m.onTermClipboard(msg)
	case clipboardMsg:
		return m.onClipboard(msg)
	case clipboardWaitMsg:
		return m.onClipboardWait(msg)
	case tea.MouseMsg:
		return m.onMouse(msg)
	case tea.FocusMsg, tea.BlurMsg:
		return m.onOuterFocus(msg)
	case repeatEndMsg:
		return m.onRepeatEnd(msg)
	case signalMsg:
		return m.quitSafely(false) // detach: layout.json written, every pane left running
	case statusExpiredMsg:
		return m.onStatusExpired(msg)
	case tea.ForegroundColorMsg, tea.BackgroundColorMsg, tea.CursorColorMsg, oscReply, colorsSentMsg:
		return m.onOuterColor(msg)
	}
	return m.dispatchHost(msg)
}

// dispatchHost routes the messages of host I/O.
func (m *Model) dispatchHost(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case startMsg:
		return m.onStart(msg)
	case handedOverMsg:
		return m.onHandedOver(msg)
	case mailMsg:
		return m.onMail(msg)
	case eventsMsg:
		return m.onEvents(msg)
	case eventsRetryMsg:
		return m.eventsCmd(true)
	case subscribedMsg:
		return m.onSubscribed(msg)
	case spawnedMsg:
		return m.onSpawned(msg)
	case respawnedMsg:
		return m.onRespawned(msg)
	case resizedMsg:
		return m.onResized(msg)
	case doneMsg:
		return m.onDone(msg)
	case worktreeEndedMsg:
		return m.onWorktreeEnded(msg)
	case savedMsg:
		return m.onSaved(msg)
	case historyMsg:
		return m.onHistory(msg)
	case killedAllMsg:
		return m.onKilledAll(msg)
	}
	return m.dispatchRecovery(msg)
}

// dispatchRecovery routes the messages of a reconnection (escrow.go).
func (m *Model) dispatchRecovery(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case reconnectMsg:
		return m.reconnectCmd()
	case reconnectedMsg:
		return m.onReconnected(msg)
	case escrowedMsg:
		return m.onEscrowed(msg)
	}
	return nil
}

// onWindowSize lays the panes out on the new size.
func (m *Model) onWindowSize(msg tea.WindowSizeMsg) tea.Cmd {
	m.width, m.height, m.dirty = msg.Width, msg.Height, true
	return m.syncSizes()
}

// redraw rebuilds the view, whole or only the rows that changed, and
// hands it to the terminal: drawn now, not at a renderer's next tick.
func (m *Model) redraw() {
	if m.canvasMu != nil {
		m.canvasMu.Lock() // the terminal copies from the canvas
		defer m.canvasMu.Unlock()
	}
	m.sizeCopy() // copy mode pages by the size its pane is drawn at
	d, ok := m.repaint()
	if !ok {
		m.view, d = m.render(), damage{all: true}
	}
	m.dirty, m.damaged = false, nil
	d.echo, m.echo = m.echo, false
	if m.draw != nil {
		m.draw(m.view, m.canvas, d)
	}
}
