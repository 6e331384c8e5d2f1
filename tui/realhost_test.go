package tui

import (
	"context"
	"os"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"clowder/panes"
	"clowder/persist"
	"clowder/supervisor/client"
	"clowder/supervisor/host"
	"clowder/supervisor/proto"
)

// realHost is a real host serving on a real unix socket in a short temp
// dir (sun_path is about 108 bytes), stopped (its panes killed) when the
// test ends.
type realHost struct {
	t     *testing.T
	paths persist.Paths
}

func startRealHost(t *testing.T) *realHost { return startPacedHost(t, 0) }

// startPacedHost is startRealHost with screen frames paced by period (0:
// the host's own).
func startPacedHost(t *testing.T, period time.Duration) *realHost {
	t.Helper()
	rt, err := os.MkdirTemp("/tmp", "clt")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(rt) })
	paths := persist.Paths{RuntimeDir: rt + "/run", StateDir: rt + "/state"}
	h, err := host.New(host.Options{Paths: paths, Config: persist.DefaultConfig(), Build: "test", IdleExit: -1, FramePeriod: period})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("host: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Errorf("host did not stop")
		}
	})
	return &realHost{t: t, paths: paths}
}

// dial connects a new client, closed when the test ends.
func (r *realHost) dial() *client.Client {
	r.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := client.Dial(context.Background(), r.paths.SocketFile())
		if err == nil {
			r.t.Cleanup(func() { _ = c.Close() })
			return c
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("dial the host: %v", err)
		}
		time.Sleep(10 * time.Millisecond) // polling a condition with a deadline
	}
}

// spawn starts argv as a pane and returns its id.
func (r *realHost) spawn(c *client.Client, argv ...string) string {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rep, err := c.Spawn(ctx, proto.SpawnReq{Nonce: nonce(), Argv: argv, Kind: "shell", Cwd: "/", Cols: 80, Rows: 24,
		Env: []string{"PATH=" + os.Getenv("PATH")}})
	if err != nil {
		r.t.Fatalf("spawn %v: %v", argv, err)
	}
	return rep.Pane.ID
}

// model builds a TUI model over its own connection to the host, with
// layout.json in the host's state dir; the mailbox is live (program.until
// delivers what the host sends).
func (r *realHost) model() (*Model, *client.Client) {
	r.t.Helper()
	c := r.dial()
	cfg := persist.DefaultConfig()
	cfg.TUI.DefaultAdapter = ""
	m, err := New(Options{Host: NewReconnectingHost(c, nil), Config: cfg, Paths: r.paths,
		Adapters: panes.NewAdapters(cfg.Agents, "/bin/sh"), Cwd: "/", Clipboard: &fakeClipboard{}})
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(m.Close)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	return m, c
}
