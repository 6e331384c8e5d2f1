package tui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"clowder/panes"
	"clowder/persist"
	"clowder/supervisor/client"
)

// reconnectingModel is realHost.model over a Host that dials the host
// again when its connection is lost.
func (r *realHost) reconnectingModel() (*Model, *client.Client) {
	r.t.Helper()
	c := r.dial()
	cfg := persist.DefaultConfig()
	cfg.TUI.DefaultAdapter = ""
	redial := func(ctx context.Context) (*client.Client, error) {
		nc, err := client.Dial(ctx, r.paths.SocketFile())
		if err == nil {
			r.t.Cleanup(func() { _ = nc.Close() })
		}
		return nc, err
	}
	m, err := New(Options{Host: NewReconnectingHost(c, redial), Config: cfg, Paths: r.paths,
		Adapters: panes.NewAdapters(cfg.Agents, "/bin/sh"), Cwd: "/", Clipboard: &fakeClipboard{}})
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(m.Close)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	return m, c
}

// screenText is the text of a pane's picture in the TUI.
func screenText(p *pane) string {
	var b strings.Builder
	for _, row := range p.scr.cells {
		b.WriteString(rowText(row))
		b.WriteByte('\n')
	}
	return b.String()
}

// TestTUIReconnectsAfterLosingTheHost pins issue 10 §1: a TUI whose host
// connection ended (the host dropped it after 30 s of not reading, or
// died) stayed "host connection lost" for good. Now it connects again,
// hands the masters back (this host still runs the pane, so it needs
// none and says so), closes its copies, and subscribes afresh: the pane
// is drawn again, with a new master, and typing reaches it.
func TestTUIReconnectsAfterLosingTheHost(t *testing.T) {
	r := startRealHost(t)
	other := r.dial()
	id := r.spawn(other, "/bin/sh", "-c", "echo first-line; exec cat")
	m, c := r.reconnectingModel()
	p := newProgram(t, m)
	p.start(m.Init())
	p.until("the pane drawn with its master", func() bool {
		q := m.panes[id]
		return q != nil && q.master != nil && strings.Contains(screenText(q), "first-line")
	})
	old := m.panes[id].master
	_ = c.Close() // the connection ends under the TUI, as when the host drops it
	p.until("reconnected, with a new master and the pane drawn again", func() bool {
		q := m.panes[id]
		return m.hostDown == "" && !m.reconnecting && q.master != nil && q.master != old && q.held == nil &&
			strings.Contains(screenText(q), "first-line")
	})
	for _, r := range "typed\r" {
		p.update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	p.until("typing reaches the pane", func() bool { return strings.Count(screenText(m.panes[id]), "typed") == 2 })
}
