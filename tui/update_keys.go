package tui

// This file routes key presses: an overlay component (help, prompt) takes
// them first; then the prefix state machine; then the copy-mode component;
// everything else goes to the focused pane, encoded for its modes.

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// repeatWindow is how long a repeatable action's keys keep working without
// the prefix (tmux's repeat-time). One timer per action, none while idle.
const repeatWindow = 600 * time.Millisecond

// repeatEndMsg closes the repeat window it was started for.
type repeatEndMsg struct{ seq int }

// onKey routes one key press.
func (m *Model) onKey(k tea.KeyPressMsg) tea.Cmd {
	if m.help.shown {
		return m.helpKey(k)
	}
	if m.prompt != nil {
		return m.promptKey(k)
	}
	switch m.mode {
	case modePrefix:
		return m.prefixKey(k)
	case modeRepeat:
		if a, ok := m.km.action(k); ok && a.repeats() {
			return m.repeatAction(a)
		}
		m.mode, m.dirty = modeNormal, true
	}
	if key.Matches(k, m.km.Prefix) {
		m.mode, m.dirty = modePrefix, true
		return nil
	}
	if m.copy != nil {
		return m.toCopy(k)
	}
	return m.sendKey(k)
}

// helpKey hands a key to the help overlay, which any key closes.
func (m *Model) helpKey(k tea.KeyPressMsg) tea.Cmd {
	var out tea.Msg
	m.help, out = m.help.Update(k)
	if _, closed := out.(helpClosedMsg); closed {
		m.dirty = true
	}
	return nil
}

// prefixKey handles the key after the prefix: the prefix again sends it to
// the pane; a bound key runs its action; anything else is dropped.
func (m *Model) prefixKey(k tea.KeyPressMsg) tea.Cmd {
	m.mode, m.dirty = modeNormal, true
	if key.Matches(k, m.km.Prefix) {
		return m.sendKey(k)
	}
	a, ok := m.km.action(k)
	if !ok {
		if k.Key().Code != tea.KeyEscape {
			m.setStatus(k.String()+" is not bound; "+m.km.Prefix.Help().Key+" ? shows the keys", false)
		}
		return nil
	}
	if a.repeats() {
		return m.repeatAction(a)
	}
	return m.run(a, k)
}

// repeatAction runs a repeatable action and opens (or extends) the window
// in which it repeats without the prefix.
func (m *Model) repeatAction(a Action) tea.Cmd {
	m.mode = modeRepeat
	m.repeatSeq++
	seq := m.repeatSeq
	end := tea.Tick(repeatWindow, func(time.Time) tea.Msg { return repeatEndMsg{seq: seq} })
	return tea.Batch(m.run(a, tea.KeyPressMsg{}), end)
}

// onRepeatEnd closes the repeat window unless a later action extended it.
func (m *Model) onRepeatEnd(msg repeatEndMsg) tea.Cmd {
	if msg.seq == m.repeatSeq && m.mode == modeRepeat {
		m.mode, m.dirty = modeNormal, true
	}
	return nil
}
