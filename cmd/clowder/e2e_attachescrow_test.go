//go:build linux

package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"clowder/supervisor/proto"
)

// hupAgent starts a pane whose shell records a SIGHUP in the file hup and
// echoes every line typed as got-LINE; it returns the pane's id once the
// shell is ready.
func hupAgent(e *e2eEnv, hup string) string {
	script := "trap 'echo hup >> " + hup + "' HUP; echo ready-agent; while read l; do echo got-$l; done"
	id := strings.TrimSpace(e.must("new", "--", "sh", "-c", script))
	e.must("wait", id, "--text", "ready-agent", "--timeout", "10s")
	return id
}

// holds reports whether st names a holder of pane's master.
func holds(st proto.HostInfoReply, pane string) bool {
	return slices.ContainsFunc(st.Escrow, func(h proto.EscrowHolder) bool { return h.Pane == pane })
}

// noHUP fails the test if the agent recorded a SIGHUP.
func noHUP(t *testing.T, hup string) {
	t.Helper()
	if b, err := os.ReadFile(hup); err == nil {
		t.Fatalf("the agent got SIGHUP (%q)", b)
	}
}

// TestE2EAttachSurvivesHostSIGKILL pins issue 10 §1 for attach: it held
// the pane's master and, when the host was SIGKILLed, ended and closed it,
// so the agent got SIGHUP and the next host found it orphaned or lost.
// Now attach keeps the master, starts a new host, hands the master back
// (same pid, no SIGHUP) and stays attached: typing reaches the agent.
func TestE2EAttachSurvivesHostSIGKILL(t *testing.T) {
	e := newE2E(t)
	hup := filepath.Join(e.dir, "hup")
	id := hupAgent(e, hup)
	before := e.pane(id)
	o := startTmux(t, e, 100, 30, "attach", id)
	o.waitScreen("ready-agent")
	st, ok := e.hostInfo()
	e.eventually(10*time.Second, "host status naming attach as holder of the pane's master", func() bool {
		st, ok = e.hostInfo()
		return ok && holds(st, id)
	})
	if err := syscall.Kill(st.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	e.eventually(30*time.Second, "a new host started by attach, running the pane with the same pid", func() bool {
		now, ok := e.hostInfo()
		return ok && now.Pid != st.Pid && samePanes([]proto.PaneInfo{before}, e.livePanes())
	})
	o.keys("-l", "after-crash")
	o.keys("Enter")
	o.waitScreen("got-after-crash")
	e.must("wait", id, "--text", "got-after-crash", "--timeout", "10s")
	noHUP(t, hup)
	e.eventually(10*time.Second, "attach holding the master again on the new host", func() bool {
		now, ok := e.hostInfo()
		return ok && holds(now, id)
	})
	o.keys("C-\\")
	o.waitScreen("[detached]")
	if p := e.pane(id); p.State != "running" {
		t.Fatalf("after detach the pane is %s", p.State)
	}
	noHUP(t, hup)
}

// TestE2EAttachFollowsAHostUpgrade pins issue 10 §2 for attach: the host's
// upgrade ended attach's subscription (code upgrading) and attach ended
// with it. Now it subscribes again on the upgraded host, redraws, and
// stays attached: typing reaches the pane and its output shows.
func TestE2EAttachFollowsAHostUpgrade(t *testing.T) {
	e := newE2E(t)
	hup := filepath.Join(e.dir, "hup")
	id := hupAgent(e, hup)
	o := startTmux(t, e, 100, 30, "attach", id)
	o.waitScreen("ready-agent")
	o.keys("-l", "before-upgrade")
	o.keys("Enter")
	o.waitScreen("got-before-upgrade")
	e.must("host", "upgrade")
	e.eventually(30*time.Second, "attach holding the master from the upgraded host", func() bool {
		st, ok := e.hostInfo()
		return ok && holds(st, id)
	})
	o.keys("-l", "after-upgrade")
	o.keys("Enter")
	screen := o.waitScreen("got-after-upgrade")
	if strings.Contains(screen, "[detached]") || !strings.Contains(screen, "got-before-upgrade") {
		t.Fatalf("attach after the upgrade:\n%s", screen)
	}
	o.keys("C-\\")
	o.waitScreen("[detached]")
	noHUP(t, hup)
}
