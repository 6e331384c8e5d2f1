package tui

// This file keeps the pane-event subscription open. The host may end it
// (it ends a subscriber that fell behind, with an error code), and so may
// the client; whatever the reason, short of a lost connection, the TUI
// subscribes again at once and lists the panes afresh, so attention, exit
// and removal updates never silently stop. A subscription that keeps
// ending is asked again at most once per eventsRetry.

import (
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

// eventsRetry is the least time between two event subscriptions.
const eventsRetry = time.Second

// eventsRetryMsg asks for the event subscription again.
type eventsRetryMsg struct{}

// onEvents starts the event stream's watcher and, after a resubscription,
// brings the panes up to date with the host's list.
func (m *Model) onEvents(msg eventsMsg) tea.Cmd {
	if msg.err != nil {
		if errors.Is(msg.err, client.ErrConnectionLost) {
			return m.lostHost(msg.err)
		}
		if !client.Resumable(msg.err) { // an upgrade in place refused it: the new host answers the retry, nothing went wrong
			m.setStatus(fmt.Sprintf("no pane events (trying again): %v", msg.err), true)
			m.eventsErrSeq = m.statusSeq
		}
		return m.resubscribeEvents()
	}
	if m.eventsErrSeq == m.statusSeq && m.status != "" { // the events' error still shown: they are back
		m.status, m.statusErr, m.dirty = "", false, true
	}
	m.events = msg.stream
	m.eventsToken++
	m.mail.follow(msg.stream, "", m.eventsToken) // until the stream ends
	if !msg.again {
		return nil
	}
	if errors.Is(msg.lerr, client.ErrConnectionLost) {
		return m.lostHost(msg.lerr) // the reconnection lists afresh; not an error to show
	}
	if msg.lerr != nil {
		m.setStatus(fmt.Sprintf("cannot list panes: %v", msg.lerr), true)
		return nil
	}
	return m.reconcile(msg.infos)
}

// onEventsEnd subscribes again unless the connection is gone.
func (m *Model) onEventsEnd(e streamEnd) tea.Cmd {
	if e.token != m.eventsToken {
		return nil // a stream of a connection already replaced
	}
	m.events = nil
	if errors.Is(e.err, client.ErrConnectionLost) {
		return m.lostHost(e.err)
	}
	return m.resubscribeEvents()
}

// lostHost notes that the connection to the host ended.
func (m *Model) lostHost(err error) tea.Cmd {
	m.hostDown, m.dirty = fmt.Sprintf("host connection lost: %v", err), true
	return m.recoverHost()
}

// resubscribeEvents asks for the event stream again: at once, or after
// eventsRetry if the last ask was more recent.
func (m *Model) resubscribeEvents() tea.Cmd {
	wait := eventsRetry - time.Since(m.eventsAt)
	if wait > 0 {
		return tea.Tick(wait, func(time.Time) tea.Msg { return eventsRetryMsg{} })
	}
	m.eventsAt = time.Now()
	return m.eventsCmd(true)
}

// reconcile brings the panes up to date with the host's list, as the
// events missed while no stream was open would have: new panes join,
// vanished ones leave, the others take the host's description.
func (m *Model) reconcile(infos []proto.PaneInfo) tea.Cmd {
	live := map[string]bool{}
	var cmds []tea.Cmd
	for _, info := range infos {
		live[info.ID] = true
		cmds = append(cmds, m.refresh(info))
	}
	for id, p := range m.panes {
		if !live[id] && p.state != paneMissing && p.state != panePending {
			cmds = append(cmds, m.onPaneEvent(proto.PaneEvent{Kind: proto.EventRemoved, Pane: id}))
		}
	}
	return tea.Batch(cmds...)
}

// refresh applies one listed pane as the matching event would.
func (m *Model) refresh(info proto.PaneInfo) tea.Cmd {
	p := m.panes[info.ID]
	switch {
	case p == nil && stateOf(info) == paneExited:
		return nil // not in the layout: it stays on the host (see onStart)
	case p == nil:
		return m.onPaneEvent(proto.PaneEvent{Kind: proto.EventAdded, Pane: info.ID, Info: &info})
	case stateOf(info) == paneExited && p.state != paneExited:
		return m.onPaneEvent(proto.PaneEvent{Kind: proto.EventExited, Pane: info.ID, Info: &info})
	case stateOf(info) != paneExited && p.state == paneExited: // respawned while no stream was open
		return m.onPaneEvent(proto.PaneEvent{Kind: proto.EventRespawned, Pane: info.ID, Info: &info})
	case info.Name != p.meta.Name:
		return m.onPaneEvent(proto.PaneEvent{Kind: proto.EventRenamed, Pane: info.ID, Info: &info})
	}
	old := p.info.Attention
	p.info.Attention, p.info.Title = info.Attention, info.Title
	m.dirty = true
	return m.attentionChanged(p, old) // a transition missed while no stream was open
}
