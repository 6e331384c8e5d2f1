//go:build linux

package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
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

// attachedAgent starts an agent that records any SIGHUP in hup and
// attaches to it in an outer tmux, once the host lists attach as the
// holder of its master; it returns the pane, the hup file, the pane as it
// was, the outer tmux and the host's status.
func attachedAgent(t *testing.T, e *e2eEnv) (id, hup string, before proto.PaneInfo, o *outerTmux, st proto.HostInfoReply) {
	t.Helper()
	hup = filepath.Join(e.dir, "hup")
	id = hupAgent(e, hup)
	before = e.pane(id)
	o = startTmux(t, e, 100, 30, "attach", id)
	o.waitScreen("ready-agent")
	e.eventually(10*time.Second, "host status naming attach as holder of the pane's master", func() bool {
		var ok bool
		st, ok = e.hostInfo()
		return ok && holds(st, id)
	})
	return id, hup, before, o, st
}

// TestE2EAttachSurvivesHostSIGKILL pins issue 10 §1 for attach: it held
// the pane's master and, when the host was SIGKILLed, ended and closed it,
// so the agent got SIGHUP and the next host found it orphaned or lost.
// Now attach keeps the master, starts a new host, hands the master back
// (same pid, no SIGHUP) and stays attached: typing reaches the agent.
func TestE2EAttachSurvivesHostSIGKILL(t *testing.T) {
	e := newE2E(t)
	id, hup, before, o, st := attachedAgent(t, e)
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

// blockHostStart makes e's runtime dir unusable (a file where the
// directory was), so no host can be started or reached; the returned func
// puts it back, as the test's cleanup does at the latest (before e's
// cleanup stops the host).
func blockHostStart(t *testing.T, e *e2eEnv) func() {
	t.Helper()
	run := filepath.Join(e.dir, "run")
	if err := os.Rename(run, run+".away"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(run, []byte("not a directory\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	unblock := func() {
		once.Do(func() {
			_ = os.Remove(run)                 // checked below: the rename fails while it is there
			err := os.Rename(run+".away", run) // the host's socket dir again
			if err != nil {
				t.Errorf("put the runtime dir back: %v", err)
			}
		})
	}
	t.Cleanup(unblock)
	return unblock
}

// alive reports whether every pane's leader still runs.
func alive(panes []proto.PaneInfo) bool {
	for _, p := range panes {
		if syscall.Kill(p.Pid, 0) != nil {
			return false
		}
	}
	return true
}

// TestE2ETUIAsksBeforeHangingUpHeldPanes pins issue 10 §1's "quitting is
// safe": a TUI that held the panes' masters after its host died closed
// them when the user detached, so every agent got SIGHUP. Now, with no
// host it can start, detaching says why and asks; the default keeps the
// TUI and the agents. Once a host can start again, the TUI hands the
// masters back by itself, and a detach then leaves them running.
func TestE2ETUIAsksBeforeHangingUpHeldPanes(t *testing.T) {
	e, o := tuiEnv(t, 160, 48)
	hup := filepath.Join(e.dir, "hup")
	o.waitScreen("$")
	o.keys("-l", "trap 'echo x >> "+hup+"' HUP; echo trapped")
	o.keys("Enter")
	o.waitCount("trapped", 2)
	before := e.livePanes()
	st, ok := e.hostInfo()
	e.eventually(10*time.Second, "the TUI holding both panes' masters", func() bool {
		st, ok = e.hostInfo()
		return ok && len(st.Escrow) == len(before)
	})
	unblock := blockHostStart(t, e)
	if err := syscall.Kill(st.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	o.waitScreen("reconnecting")
	o.keys("C-Space", "d")
	o.waitScreen("hang up 2 pane(s) and quit? y/N")
	o.keys("n")
	meanwhile := filepath.Join(e.dir, "meanwhile")
	o.keys("-l", "touch "+meanwhile) // no host shows the pane now, but keys reach its held master
	o.keys("Enter")
	e.eventually(10*time.Second, "the command typed without a host ran", func() bool {
		_, err := os.Stat(meanwhile)
		return err == nil
	})
	if !alive(before) {
		t.Fatal("an agent died after the user kept them")
	}
	noHUP(t, hup)
	unblock()
	e.eventually(30*time.Second, "a host started by the TUI, running the same panes", func() bool {
		now, ok := e.hostInfo()
		return ok && now.Pid != st.Pid && samePanes(before, e.livePanes()) && len(now.Escrow) == len(before)
	})
	o.keys("C-Space", "d")
	e.eventually(10*time.Second, "the TUI quit", func() bool {
		return strings.TrimSpace(o.run("display-message", "-p", "-t", "0", "#{pane_dead}")) == "1"
	})
	if !samePanes(before, e.livePanes()) {
		t.Fatalf("after the TUI quit the panes are %v; want %v", e.livePanes(), before)
	}
	noHUP(t, hup)
}

// TestE2EAttachAsksBeforeHangingUpItsPane: attach holding the pane's
// master with no host it can start asks before detaching (which would
// hang the agent up); the default stays attached, keys still reach the
// agent, and once a host can start attach hands the master back by itself.
func TestE2EAttachAsksBeforeHangingUpItsPane(t *testing.T) {
	e := newE2E(t)
	id, hup, before, o, st := attachedAgent(t, e)
	unblock := blockHostStart(t, e)
	if err := syscall.Kill(st.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	o.keys("C-\\")
	o.waitScreen("hang up " + id + " and detach? y/N")
	o.keys("n")
	o.keys("-l", "meanwhile")
	o.keys("Enter")
	unblock()
	e.eventually(30*time.Second, "a host started by attach, running the pane with the same pid", func() bool {
		now, ok := e.hostInfo()
		return ok && now.Pid != st.Pid && samePanes([]proto.PaneInfo{before}, e.livePanes())
	})
	o.waitScreen("got-meanwhile") // typed while no host ran, answered, and shown once attach redrew
	noHUP(t, hup)
	o.keys("C-\\")
	o.waitScreen("[detached]")
	if !samePanes([]proto.PaneInfo{before}, e.livePanes()) {
		t.Fatalf("after detach the pane is %v; want %v", e.livePanes(), before)
	}
	noHUP(t, hup)
}
