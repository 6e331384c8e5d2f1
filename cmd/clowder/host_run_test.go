//go:build linux

package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"clowder/persist"
)

// TestForegroundHostStopsItsPanesOnSIGHUP pins issue 7: SIGHUP (its tmux
// window closed) killed a `host --foreground` on Go's default action,
// without the kill ladder: a pane that ignores HUP leaked and agents.json
// still said running. HUP is now handled as TERM.
func TestForegroundHostStopsItsPanesOnSIGHUP(t *testing.T) {
	e := newE2E(t)
	host := e.command(context.Background(), "host", "--foreground")
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- host.Wait() }()
	sock := filepath.Join(e.dir, "run", persist.SocketFileName)
	e.eventually(20*time.Second, "the host socket", func() bool { _, err := os.Stat(sock); return err == nil })
	id := strings.TrimSpace(e.must("new", "--", "sh", "-c", "trap '' HUP TERM; echo READY; exec sleep 600"))
	e.eventually(20*time.Second, "the pane to run", func() bool { return e.pane(id).State == "running" })
	if err := host.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
	case <-time.After(30 * time.Second):
		t.Fatal("the host did not stop on SIGHUP")
	}
	e.eventually(20*time.Second, "every process of the host to end", func() bool { return len(markedProcs(e.mark)) == 0 })
	reg, err := persist.LoadRegistry(filepath.Join(e.dir, "state", persist.AgentsFileName))
	if err != nil {
		t.Fatal(err)
	}
	if rec, ok := reg.Get(id); !ok || rec.State != persist.StateExited {
		t.Fatalf("agents.json after SIGHUP: %+v", rec)
	}
}
