package tui

// This file is the root's side of the copy-mode component (copymode.go):
// entering it (the copy-mode action, the wheel), handing it keys, pages
// of history and the search prompt's answer, and acting on its results:
// fetching history, opening the search prompt, the status bar, and the
// copy that ends it.

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
)

// startCopy enters copy mode on p with its current screen, and fetches
// the newest page of history.
func (m *Model) startCopy(p *pane) tea.Cmd {
	r, _ := m.geometry().Pane(p.id)
	c, fetch := newCopyMode(p.id, &p.scr, r)
	m.copy, m.dirty = &c, true
	return m.onCopyOut(fetch)
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
		cmd = tea.Batch(cmd, m.toCopy(k))
	}
	return cmd
}

// onHistory hands a page of history to copy mode, if it is for its pane.
func (m *Model) onHistory(msg historyMsg) tea.Cmd {
	if m.copy == nil || m.copy.pane != msg.pane {
		return nil
	}
	return m.toCopy(msg)
}

// toCopy hands msg to copy mode and acts on what it returns.
func (m *Model) toCopy(msg tea.Msg) tea.Cmd {
	c, out := m.copy.Update(msg)
	m.copy, m.dirty = &c, true
	return m.onCopyOut(out)
}

// onCopyOut acts on a result of copy mode.
func (m *Model) onCopyOut(out tea.Msg) tea.Cmd {
	switch out := out.(type) {
	case copyDoneMsg:
		m.copy, m.dirty = nil, true
		if out.copied {
			m.setStatus(fmt.Sprintf("copied %d characters", len([]rune(out.text))), false)
			return m.copyText(out.text)
		}
	case copyAskMsg:
		return m.askSearch(out)
	case copyFetchMsg:
		return m.historyCmd(out.pane, out.from, out.count, out.newest)
	case copyStatusMsg:
		m.setStatus(out.text, out.isErr)
	}
	return nil
}

// askSearch opens the search prompt for copy mode.
func (m *Model) askSearch(q copyAskMsg) tea.Cmd {
	label := map[bool]string{false: "search forward:", true: "search back:"}[q.back]
	return m.ask(label, q.initial, func(m *Model, s string) tea.Cmd {
		if m.copy == nil || s == "" {
			return nil
		}
		return m.toCopy(copySearchMsg{query: s, back: q.back})
	})
}

// sizeCopy tells copy mode the size its pane is drawn at.
func (m *Model) sizeCopy() {
	if m.copy == nil {
		return
	}
	if r, ok := m.geometry().Pane(m.copy.pane); ok {
		c, _ := m.copy.Update(copySizeMsg{w: r.W, h: r.H}) // a size has no result
		m.copy = &c
	}
}
