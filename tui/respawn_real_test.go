package tui

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"clowder/panes"
	"clowder/persist"
	"clowder/supervisor/client"
	"clowder/supervisor/host"
	"clowder/supervisor/proto"
)

// serveOn runs a host on paths until stop, which kills its panes (as
// `host stop --force` does) and waits for it.
func serveOn(t *testing.T, paths persist.Paths) (stop func()) {
	t.Helper()
	h, err := host.New(host.Options{Paths: paths, Config: persist.DefaultConfig(), Build: "test", IdleExit: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Serve(ctx) }()
	var stopped bool
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("host: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Errorf("host did not stop")
		}
	}
	t.Cleanup(stop)
	return stop
}

// modelOn is a TUI model over c, with layout.json in paths' state dir,
// started and settled.
func modelOn(t *testing.T, c *client.Client, paths persist.Paths) (*Model, *program) {
	t.Helper()
	cfg := persist.DefaultConfig()
	cfg.TUI.DefaultAdapter = ""
	m, err := New(Options{Host: NewReconnectingHost(c, nil), Config: cfg, Paths: paths,
		Adapters: panes.NewAdapters(cfg.Agents, "/bin/sh"), Cwd: "/", Clipboard: &fakeClipboard{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	p := newProgram(t, m)
	p.start(m.Init())
	return m, p
}

// TestLayoutSurvivesAReboot is issue 11 §2's layout proof: the panes a
// reboot interrupted come back under the same ids, so the TUI's
// layout.json shows every one of them in its place, running, and the
// layout it saves is byte for byte the one it had.
func TestLayoutSurvivesAReboot(t *testing.T) {
	rt, err := os.MkdirTemp("/tmp", "clt")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(rt) })
	paths := persist.Paths{RuntimeDir: rt + "/run", StateDir: rt + "/state"}
	bin := filepath.Join(rt, "bin")
	if err := os.Mkdir(bin, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte("#!/bin/sh\necho \"claude $*\"\nexec cat\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+":"+os.Getenv("PATH")) // the host's resumes run with its own environment
	stop := serveOn(t, paths)
	r := &realHost{t: t, paths: paths}
	c := r.dial()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	agent, err := c.Spawn(ctx, proto.SpawnReq{Nonce: nonce(), Argv: []string{"claude"}, Kind: "agent", Adapter: "claude", Cwd: rt, Env: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	shell := r.spawn(c, "/bin/sh")
	m, p := modelOn(t, r.dial(), paths)
	p.until("both panes shown and saved", func() bool { return len(savedPanesOrNone(m)) == 2 })
	before, err := os.ReadFile(m.saver.path)
	if err != nil {
		t.Fatal(err)
	}
	leaves := m.tree.Leaves()

	// The reboot: agents.json as it was while they ran, every process gone.
	running, err := os.ReadFile(paths.AgentsFile())
	if err != nil {
		t.Fatal(err)
	}
	stop()
	if err := os.WriteFile(paths.AgentsFile(), running, 0o600); err != nil {
		t.Fatal(err)
	}
	reg, err := persist.LoadRegistry(paths.AgentsFile())
	if err != nil {
		t.Fatal(err)
	}
	rec, _ := reg.Get(agent.Pane.ID)
	rec.Session = "s-1" // the conversation it last reported
	reg.Put(rec)
	if err := reg.Save(paths.AgentsFile()); err != nil {
		t.Fatal(err)
	}
	serveOn(t, paths)
	m2, p2 := modelOn(t, r.dial(), paths)
	p2.until("the panes shown", func() bool { return m2.started && m2.tree.Len() == 2 })
	if got := m2.tree.Leaves(); !slices.Equal(got, leaves) {
		t.Fatalf("leaves after the reboot %v; want %v", got, leaves)
	}
	for _, id := range leaves {
		if pn := m2.panes[id]; pn == nil || pn.state != paneRunning {
			t.Errorf("pane %s after the reboot: %+v; want running", id, pn)
		}
	}
	if a := m2.panes[agent.Pane.ID]; a == nil || strings.Join(a.info.Argv, " ") != "claude --resume s-1" {
		t.Errorf("the agent came back as %+v; want claude --resume s-1", a)
	}
	if s := m2.panes[shell]; s == nil || s.info.Argv[0] != "/bin/sh" {
		t.Errorf("the shell came back as %+v; want /bin/sh", s)
	}
	// Its start saves the layout again: the same bytes.
	var after []byte
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("layout.json last read:\n%s\nbefore the reboot:\n%s", after, before)
		}
	})
	p2.until("layout.json saved as it was", func() bool {
		after, _ = os.ReadFile(m2.saver.path)
		return string(after) == string(before)
	})
}
