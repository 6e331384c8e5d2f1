package tui

// This file recovers from a lost host connection. The TUI holds a copy of
// every running pane's PTY master (its subscription passed it) and never
// reads it. When the connection ends (the host died, or dropped the TUI
// after it stopped reading for 30 s), the TUI keeps those copies open, so
// no agent gets SIGHUP, and typed keys go straight to them. It connects
// again, starting a host if none runs and a pane it holds still runs
// (after `host stop --force` killed every pane it starts none), hands
// each master back with an escrow request (the pane's identity and the
// screen last drawn), closes
// its copies once the host has answered, and subscribes to everything
// afresh, which redraws every pane. A hand-back the host refuses (the
// identity does not check) is reported and the copy closed. The
// reconnecting and the hand-back are client.Redialer and client.HandBack,
// shared with `clowder attach` (attach_escrow.go).
//
// Quitting while the TUI may hold masters no host holds (quitSafely)
// hands them over first; with no host reachable, a user's quit asks.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"clowder/layout"
	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

// reconnectRetry is the time between two attempts to reach a host.
const reconnectRetry = time.Second

// recoverer is the part of Host that survives a lost connection; a host
// that lacks it (a test fake) is not reconnected.
type recoverer interface {
	// Reconnect replaces a lost connection with a new one (starting a host
	// if none runs); swapped is false when the connection was still up.
	Reconnect(ctx context.Context) (swapped bool, err error)
	// Escrow hands a pane's master back (client.Client.Escrow).
	Escrow(ctx context.Context, req proto.EscrowReq, master *client.Master) (proto.EscrowedReply, error)
}

// prober is a recoverer that can check its connection by a round trip
// (client.Redialer.Probe).
type prober interface {
	Probe(ctx context.Context) (lost bool)
}

// reconnectMsg asks for the next attempt to reach a host.
type reconnectMsg struct{}

// reconnectedMsg says how an attempt went.
type reconnectedMsg struct {
	swapped bool
	err     error
}

// escrowedMsg carries the hand-backs' results, by pane.
type escrowedMsg struct{ errs map[string]error }

// recoverHost starts reconnecting unless it is under way or impossible.
func (m *Model) recoverHost() tea.Cmd {
	if _, ok := m.host.(recoverer); !ok || m.reconnecting || m.quitting {
		return nil
	}
	m.reconnecting = true
	return m.reconnectCmd()
}

// reconnectCmd makes one attempt to reach a host. It starts one only if
// a pane whose master the TUI holds still runs at that moment: after
// `host stop --force` killed every pane, a TUI that saw its connection end
// late must not bring a host back behind the user's back.
func (m *Model) reconnectCmd() tea.Cmd {
	r := m.host.(recoverer)
	need := m.anyLeaderAlive(m.heldLeaders())
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		swapped, err := r.Reconnect(client.StartOnlyIf(ctx, need))
		return reconnectedMsg{swapped: swapped, err: err}
	}
}

// leader names a pane's process, as the host last said it.
type leader struct {
	pid   int
	start uint64
}

// heldLeaders lists the leaders of the running panes whose master the TUI
// holds or may soon hold (its stream's end still to come).
func (m *Model) heldLeaders() []leader {
	var l []leader
	for _, p := range m.panes {
		if (p.held != nil || p.master != nil) && !p.state.gone() {
			l = append(l, leader{p.info.Pid, p.info.PidStart})
		}
	}
	return l
}

// anyLeaderAlive is a check, safe to run off the model's goroutine, of
// whether one of leaders still runs when it is asked.
func (m *Model) anyLeaderAlive(leaders []leader) func() bool {
	alive := m.alive
	return func() bool {
		return slices.ContainsFunc(leaders, func(l leader) bool { return alive(l.pid, l.start) })
	}
}

// holdMaster keeps p's master after its connection ended: it becomes the
// escrow copy, and the pane's keys go to it until a host takes it back.
func (m *Model) holdMaster(p *pane) {
	if p.master != nil && p.held == nil {
		p.held = p.master
	}
	p.stream, p.master = nil, nil
	if p.in != nil && p.held != nil && !p.state.gone() {
		p.in.setMaster(p.held)
	}
}

// onReconnected hands the held masters to the host it reached, or tries
// again later.
func (m *Model) onReconnected(msg reconnectedMsg) tea.Cmd {
	switch {
	case errors.Is(msg.err, client.ErrNoHostNeeded):
		m.hostDown, m.dirty = "host stopped and no pane runs; waiting for a host (`clowder host` starts one), or quit", true
		return m.after(reconnectRetry, reconnectMsg{})
	case msg.err != nil:
		m.hostDown, m.dirty = fmt.Sprintf("host connection lost; reconnecting: %v", msg.err), true
		return m.after(reconnectRetry, reconnectMsg{})
	}
	m.eventsToken++ // the old connection's events stream ends unheard
	m.events = nil
	if !msg.swapped {
		return m.recovered(nil)
	}
	return m.escrowCmd(m.heldCopies())
}

// heldCopies holds every running pane's master (a stream of the old
// connection whose end is not in yet included) and returns a dup of each
// to hand back; the Cmd that hands them back closes the dups.
func (m *Model) heldCopies() []client.Held {
	var items []client.Held
	for id, p := range m.panes {
		m.holdMaster(p)
		if p.held == nil || p.state.gone() || !m.leaderAlive(p) {
			continue
		}
		if f := dupMaster(p.held); f != nil {
			items = append(items, client.Held{Req: escrowRequest(id, p), Master: f})
		}
	}
	return items
}

// leaderAlive reports whether p's leader still runs: a host stopped with
// --force killed it before it went, and handing its master back would
// start a new host for nothing (one outlived every test that raced a TUI's
// quit with host stop).
func (m *Model) leaderAlive(p *pane) bool { return m.alive(p.info.Pid, p.info.PidStart) }

// escrowRequest names p's leader and carries the screen last drawn.
func escrowRequest(id string, p *pane) proto.EscrowReq {
	info := p.info
	info.ID = id
	return client.EscrowRequest(info, p.scr.frame(id))
}

// escrowCmd hands every item back, one at a time.
func (m *Model) escrowCmd(items []client.Held) tea.Cmd {
	r := m.host.(recoverer)
	return func() tea.Msg {
		errs := client.HandBack(context.Background(), r, items, callTimeout)
		closeHeld(items) // the host has its own copies now, or refused them
		return escrowedMsg{errs: errs}
	}
}

// closeHeld closes the dups of a hand-back.
func closeHeld(items []client.Held) {
	for _, it := range items {
		_ = it.Master.Close() // best effort: a dup
	}
}

// onEscrowed reports refused hand-backs and starts over on the new
// connection.
func (m *Model) onEscrowed(msg escrowedMsg) tea.Cmd {
	return m.recovered(msg.errs)
}

// recovered subscribes to everything again on the new connection (which
// redraws every pane and passes fresh masters), then closes the held
// copies: the host holds the panes' terminals again.
func (m *Model) recovered(errs map[string]error) tea.Cmd {
	m.reconnecting, m.hostDown, m.dirty = false, "", true
	cmds := []tea.Cmd{m.eventsCmd(true)}
	for _, id := range m.tree.Leaves() {
		if p := m.panes[id]; p != nil {
			p.size = layout.Size{} // the host may be new: tell it every size again
			cmds = append(cmds, m.subscribe(p))
		}
	}
	for id, p := range m.panes {
		if err := errs[id]; err != nil {
			m.setStatus(fmt.Sprintf("pane %s was not taken back by the host: %v", p.name(), err), true)
		}
		if p.held != nil {
			_ = p.held.Close() // best effort: the host holds the terminal, or refused it
			p.held = nil
		}
	}
	return tea.Batch(append(cmds, m.syncSizes())...)
}

// frame is the screen as one full frame, nil when nothing was drawn.
func (s *screen) frame(pane string) *proto.ScreenFrame {
	if s.cols <= 0 || s.rows <= 0 {
		return nil
	}
	f := &proto.ScreenFrame{Pane: pane, Seq: s.seq, Cols: uint16(s.cols), Rows: uint16(s.rows), Full: true,
		Cursor: s.cursor, Modes: s.modes}
	for y, row := range s.cells {
		f.Lines = append(f.Lines, proto.FrameRow{Y: uint16(y), Wrapped: s.wrapped[y], Cells: row})
	}
	return f
}

// handOverTimeout bounds handing the masters over before quitting: it may
// start a host (client.HostStartTimeout) and hand back every pane.
const handOverTimeout = 30 * time.Second

// handedOverMsg says how handing the masters over before a quit went.
type handedOverMsg struct {
	err error // no host could be reached: quitting hangs n agents up
	n   int
	ask bool // the user quit, and may be asked (a signal may not)
}

// quitSafely quits once a host holds every pane's terminal. While the
// TUI holds masters that no host may have (its connection was lost), it
// first hands them to a host, starting one; if none can be reached, a
// user's quit asks before hanging the agents up (anything but y stays),
// and a signal's quits anyway.
func (m *Model) quitSafely(ask bool) tea.Cmd {
	r, ok := m.host.(recoverer)
	if !ok || m.quitting {
		return m.quit()
	}
	if m.handingOver {
		return nil
	}
	items, held := m.escrowCopies()
	if len(items) == 0 {
		return m.quit()
	}
	m.handingOver = true
	need := m.anyLeaderAlive(itemLeaders(items))
	return func() tea.Msg {
		defer closeHeld(items)
		ctx, cancel := context.WithTimeout(context.Background(), handOverTimeout)
		defer cancel()
		if p, ok := r.(prober); ok {
			p.Probe(ctx) // a host that died a moment ago: Reconnect then sees the connection lost
		}
		swapped, err := r.Reconnect(client.StartOnlyIf(ctx, need))
		if errors.Is(err, client.ErrNoHostNeeded) {
			err = nil // every pane ended with its host (host stop --force): nothing to hang up
		}
		if err == nil && (swapped || held) {
			_ = client.HandBack(ctx, r, items, callTimeout) // a refused one is not the pane's process: nothing to keep
		}
		return handedOverMsg{err: err, n: len(items), ask: ask}
	}
}

// escrowCopies is a dup of every running pane's master, the held ones
// first-hand (held: some master is held, its host may be gone).
func (m *Model) escrowCopies() (items []client.Held, held bool) {
	for id, p := range m.panes {
		f := p.held
		if f != nil {
			held = true
		} else {
			f = p.master
		}
		if f == nil || p.state.gone() || !m.leaderAlive(p) {
			continue
		}
		if d := dupMaster(f); d != nil {
			items = append(items, client.Held{Req: escrowRequest(id, p), Master: d})
		}
	}
	return items, held
}

// itemLeaders lists the leaders of a hand-back's panes.
func itemLeaders(items []client.Held) []leader {
	l := make([]leader, 0, len(items))
	for _, it := range items {
		l = append(l, leader{it.Req.Pid, it.Req.PidStart})
	}
	return l
}

// onHandedOver quits, or asks first when no host holds the terminals.
func (m *Model) onHandedOver(msg handedOverMsg) tea.Cmd {
	m.handingOver = false
	if msg.err == nil || !msg.ask {
		return m.quit()
	}
	why := strings.ReplaceAll(msg.err.Error(), "\n", " ")
	label := fmt.Sprintf("hang up %d pane(s) and quit? y/N (no host can take them back: %s)", msg.n, why)
	return m.confirm(label, func(m *Model) tea.Cmd { return m.quit() })
}
