//go:build linux

package main

import (
	"os"
	"strings"
	"testing"
)

// withConfig writes config.toml for e's host and CLI.
func (e *e2eEnv) withConfig(toml string) {
	e.t.Helper()
	if err := os.WriteFile(e.dir+"/config.toml", []byte(toml), 0o600); err != nil {
		e.t.Fatal(err)
	}
}

// TestE2ENewTimeoutZeroOverridesTheConfigDefault pins issue 7: `new
// --timeout 0` took config.toml's timeout anyway, since 0 on the wire meant
// "the default". The pane outlives the default; the wait for its exit
// times out instead.
func TestE2ENewTimeoutZeroOverridesTheConfigDefault(t *testing.T) {
	e := newE2E(t)
	e.withConfig("[supervisor]\ntimeout = \"1s\"\nidle_timeout = \"1s\"\n")
	id := strings.TrimSpace(e.must("new", "--timeout", "0", "--idle-timeout", "0", "--", "sh", "-c", "echo up; sleep 60"))
	_, errOut, code := e.run("wait", id, "--exit", "--timeout", "3s")
	if code != 1 || !strings.Contains(errOut, "timed out after 3s") {
		t.Fatalf("wait --exit on a pane with --timeout 0: exit %d, stderr %q; want the wait to time out", code, errOut)
	}
	if p := e.pane(id); p.State != "running" {
		t.Fatalf("pane with --timeout 0 under a 1s default: %+v", p)
	}
	defaulted := strings.TrimSpace(e.must("new", "--", "sleep", "60"))
	e.must("wait", defaulted, "--exit", "--timeout", "20s")
	if p := e.pane(defaulted); p.ExitReason != "timeout" && p.ExitReason != "idle-timeout" {
		t.Fatalf("pane without --timeout under a 1s default ended %q", p.ExitReason)
	}
}

// TestE2EExecTimeoutMessageNamesTheRealDuration pins issue 7: a run killed
// by config.toml's default timeout said "timed out after 0s".
func TestE2EExecTimeoutMessageNamesTheRealDuration(t *testing.T) {
	e := newE2E(t)
	e.withConfig("[supervisor]\ntimeout = \"1s\"\n")
	_, errOut, code := e.run("exec", "--", "sleep", "30")
	if code != 124 || !strings.Contains(errOut, "timed out after 1s") {
		t.Fatalf("exec under a 1s default timeout: exit %d, stderr %q", code, errOut)
	}
}

// TestE2ENewMissingCwdNamesTheDirectory pins issue 7: `new --cwd /missing`
// blamed the shell ("fork/exec /bin/sh: no such file or directory").
func TestE2ENewMissingCwdNamesTheDirectory(t *testing.T) {
	e := newE2E(t)
	missing := e.dir + "/no/such/dir"
	_, errOut, code := e.run("new", "--cwd", missing, "--", "sh")
	if code != 1 || !strings.Contains(errOut, "working directory "+missing+" does not exist") || strings.Count(errOut, "\n") != 1 {
		t.Fatalf("new --cwd %s: exit %d, stderr %q", missing, code, errOut)
	}
}

// TestE2EKillRefusesAnUnknownSignal: `kill --signal` was ignored; an
// unknown one is now a usage error naming it, and the pane lives on.
func TestE2EKillRefusesAnUnknownSignal(t *testing.T) {
	e := newE2E(t)
	id := strings.TrimSpace(e.must("new", "--", "sleep", "60"))
	_, errOut, code := e.run("kill", id, "--signal", "BOGUS")
	if code == 0 || !strings.Contains(errOut, `"BOGUS"`) {
		t.Fatalf("kill --signal BOGUS: exit %d, stderr %q", code, errOut)
	}
	if p := e.pane(id); p.State != "running" {
		t.Fatalf("after a refused kill: %+v", p)
	}
	e.must("kill", id, "--signal", "INT", "--grace", "5s")
	if p := e.pane(id); p.State != "exited" || p.ExitSignal != "SIGINT" {
		t.Fatalf("kill --signal INT: %+v; want ended by SIGINT", p)
	}
}
