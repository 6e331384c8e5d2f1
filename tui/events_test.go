package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"clowder/supervisor/proto"
)

// TestEventsKeepComingAfterTheHostEndsTheSubscription pins issue 7 §2
// with a real host: once the host ended the TUI's event subscription
// (here through an unsubscribe, as when it drops a subscriber that fell
// behind), exit and new-pane updates stopped for good.
func TestEventsKeepComingAfterTheHostEndsTheSubscription(t *testing.T) {
	r := startRealHost(t)
	other := r.dial()
	first := r.spawn(other, "/bin/sh", "-c", "exec cat")
	m, c := r.model()
	p := newProgram(t, m)
	p.start(m.Init())
	p.until("the TUI shows the first pane and listens to events", func() bool { return m.tree.Has(first) && m.events != nil })
	old := m.events
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.Unsubscribe(ctx, old.(subStream).s.ID()); err != nil {
		t.Fatal(err)
	}
	p.until("a new event subscription", func() bool { return m.events != nil && m.events != old })
	second := r.spawn(other, "/bin/sh", "-c", "read x; exit 3")
	p.until("the new pane shown", func() bool { return m.tree.Has(second) })
	if err := other.Input(ctx, proto.InputReq{Pane: second, Data: []byte("go\r")}); err != nil {
		t.Fatal(err)
	}
	p.until("the new pane's exit shown", func() bool {
		q := m.panes[second]
		return q != nil && q.state == paneExited && q.info.ExitCode == 3
	})
	if m.hostDown != "" {
		t.Errorf("host down: %s", m.hostDown)
	}
}

// TestAnUpgradeRefusingTheEventsShowsNoError: an upgrade in place refuses
// a new event subscription (CodeUpgrading) until the new host answers;
// that is no error, and the status line said "no pane events (trying
// again): ... upgrading" after every upgrade that met a resubscription,
// until its error timer ran out. An error that is one is shown, and
// cleared once the events are back.
func TestAnUpgradeRefusingTheEventsShowsNoError(t *testing.T) {
	m, _ := newTestModel(t, nil, nil)
	m.Update(eventsMsg{err: &proto.ErrorReply{Code: proto.CodeUpgrading, Message: "the host is upgrading in place"}})
	if m.status != "" {
		t.Fatalf("after an upgrade's refusal the status says %q", m.status)
	}
	m.Update(eventsMsg{err: &proto.ErrorReply{Code: proto.CodeInternal, Message: "boom"}})
	if !strings.Contains(m.status, "no pane events") {
		t.Fatalf("after a real error the status says %q", m.status)
	}
	m.Update(eventsMsg{stream: &fakeStream{c: make(chan proto.Message)}})
	if m.status != "" {
		t.Fatalf("with the events back the status still says %q", m.status)
	}
}
