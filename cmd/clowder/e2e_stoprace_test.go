//go:build linux

package main

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stopWhileFrozen freezes the client running in o (SIGSTOP), stops the
// host with --force (which kills every pane, then exits), and lets the
// client run again: it meets the lost connection only once every pane's
// leader is dead, the exact step where it used to start a new host.
func stopWhileFrozen(t *testing.T, e *e2eEnv, o *outerTmux) {
	t.Helper()
	pid := o.pid()
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = syscall.Kill(pid, syscall.SIGCONT) }() // never leave it frozen
	e.must("host", "stop", "--force")
	e.eventually(30*time.Second, "the stopped host gone", func() bool { _, up := e.hostInfo(); return !up })
}

// noHostUntil waits until done says the client has settled, failing as
// soon as a host answers: the client started one behind the user's back.
func noHostUntil(t *testing.T, e *e2eEnv, o *outerTmux, what string, done func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !done() {
		if st, up := e.hostInfo(); up {
			t.Fatalf("a host (pid %d) was started after host stop --force killed every pane; the screen:\n%s", st.Pid, o.screen())
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 30s; the screen:\n%s", what, o.screen())
		}
		time.Sleep(50 * time.Millisecond) // polling a condition with a deadline
	}
	if st, up := e.hostInfo(); up {
		t.Fatalf("a host (pid %d) was started after host stop --force killed every pane", st.Pid)
	}
}

// TestE2ETUIStartsNoHostAfterAForcedStopKilledEveryPane pins the race
// behind TestE2ETUISIGKILLedDuringAFloodLosesNothing's "processes still
// alive after host stop --force": the TUI, slow to see its connection end,
// reconnected after `host stop --force` had killed every pane and started
// a new host for panes already dead (it checked their leaders only after
// connecting, which starts a host). The TUI is frozen across the stop;
// once thawed it says the host stopped and starts none.
func TestE2ETUIStartsNoHostAfterAForcedStopKilledEveryPane(t *testing.T) {
	e, o := tuiEnv(t, 120, 40)
	o.waitScreen("$")
	stopWhileFrozen(t, e, o)
	noHostUntil(t, e, o, "the TUI saying no pane runs", func() bool { return strings.Contains(o.screen(), "no pane runs") })
}

// TestE2EAttachStartsNoHostAfterAForcedStopKilledThePane is the same race
// for `clowder attach`: thawed after the stop killed its pane, it ends
// (it may read the pane's exit first, or find its leader dead), and no
// host is started.
func TestE2EAttachStartsNoHostAfterAForcedStopKilledThePane(t *testing.T) {
	e := newE2E(t)
	id := strings.TrimSpace(e.must("new", "--", "sh", "-c", "echo READY; exec cat"))
	o := startTmux(t, e, 100, 30, "attach", id)
	o.waitScreen("READY")
	attach := o.pid()
	stopWhileFrozen(t, e, o)
	// attach ends: on the pane's exit, or on its leader found dead.
	noHostUntil(t, e, o, "attach ended", func() bool { return syscall.Kill(attach, 0) != nil || zombie(attach) })
}

// zombie reports whether pid has exited and awaits its parent's wait.
func zombie(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	i := strings.LastIndexByte(string(b), ')')
	return err == nil && i > 0 && len(b) > i+2 && b[i+2] == 'Z'
}
