package tui

import (
	"runtime"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestAFrameReachesTheMailboxOnTheClientsReader pins issue 12's hop
// count for a screen frame: the client's reader goroutine, which decodes
// it off the socket, files it in the mailbox itself, and the event loop
// takes it from there. Before, the reader queued it for the
// subscription's pump goroutine, which handed it to the mailbox's
// watcher goroutine: two hops more per frame.
func TestAFrameReachesTheMailboxOnTheClientsReader(t *testing.T) {
	r := startRealHost(t)
	id := r.spawn(r.dial(), "/bin/sh", "-c", "echo READY; exec cat")
	m, _ := r.model()
	var mu sync.Mutex
	var stacks []string
	m.mail.filed = func() {
		buf := make([]byte, 64<<10)
		s := string(buf[:runtime.Stack(buf, false)])
		mu.Lock()
		stacks = append(stacks, s)
		mu.Unlock()
	}
	p := newProgram(t, m)
	p.start(m.Init())
	p.until("the pane's first frame", func() bool {
		q := m.panes[id]
		return q != nil && strings.Contains(screenText(q), "READY")
	})
	mu.Lock()
	stacks = nil // frames queued before the stream was handed over came from Update's goroutine
	mu.Unlock()
	p.update(tea.KeyPressMsg{Code: 'z', Text: "z"})
	p.until("the echo's frame", func() bool { return strings.Contains(screenText(m.panes[id]), "READY\nz") })
	mu.Lock()
	defer mu.Unlock()
	if len(stacks) == 0 {
		t.Fatal("no frame was filed")
	}
	for _, s := range stacks {
		if !strings.Contains(s, "(*Client).readLoop") {
			t.Fatalf("a frame was filed off the client's reader goroutine:\n%s", s)
		}
	}
}
