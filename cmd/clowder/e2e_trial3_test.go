//go:build linux

package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// suggested finds the clowder command a message tells the user to run,
// written `clowder ARGS` or (clowder ARGS).
var suggested = regexp.MustCompile("(?:`|\\()clowder ([a-z -]+?)(?:`|\\))")

// TestE2ETUIAfterAForcedStopNamesACommandThatStartsAHost pins a trial
// fault: after `host stop --force` the TUI's status line told the user to
// run `clowder host start`, which is a usage error (exit 2); the command
// it names must start a host.
func TestE2ETUIAfterAForcedStopNamesACommandThatStartsAHost(t *testing.T) {
	e, o := tuiEnv(t, 120, 40)
	o.waitScreen("$")
	e.must("host", "stop", "--force")
	screen := o.waitScreen("no pane runs")
	m := suggested.FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("the status line names no clowder command to run; the screen:\n%s", screen)
	}
	if _, stderr, code := e.run(strings.Fields(m[1])...); code != 0 {
		t.Fatalf("the TUI says to run `clowder %s`: exit %d: %s", m[1], code, stderr)
	}
	e.eventually(30*time.Second, "the host the named command started", func() bool { _, up := e.hostInfo(); return up })
}

// TestE2ENoHostPaneCommandWithAnUnreadableRegistrySaysWhy pins a trial
// fault: with no host and an agents.json that cannot be read (corrupt
// here), `clowder log PANE` said "there are no panes; start one with
// clowder new", though the file may record the pane; it must name the
// file and why it cannot be read, and change nothing.
func TestE2ENoHostPaneCommandWithAnUnreadableRegistrySaysWhy(t *testing.T) {
	e := newE2E(t)
	state := filepath.Join(e.dir, "state")
	if err := os.MkdirAll(state, 0o700); err != nil {
		t.Fatal(err)
	}
	corrupt := []byte(`{"schema_version":1,"panes":[{"id":"p1","name":"keep"`)
	path := filepath.Join(state, "agents.json")
	if err := os.WriteFile(path, corrupt, 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := e.run("log", "keep")
	if code == 0 || strings.Contains(stderr, "there are no panes") || !strings.Contains(stderr, "agents.json") {
		t.Errorf("log with an unreadable agents.json: exit %d, %q; want a failure naming agents.json, not \"there are no panes\"", code, stderr)
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != string(corrupt) {
		t.Errorf("agents.json changed: %q, %v", got, err)
	}
	if _, up := e.hostInfo(); up {
		t.Error("a host was started")
	}
}

// TestE2ELsWithTheStateDirHeldByAHostElsewhereSaysSo pins a trial fault
// (and Session 17 fixed it for ls alone):
// with a host running on the same state dir but another runtime dir, ls
// said "no clowder host is running" and listed its running panes as
// stopped, as agents.json last recorded them, with advice (`clowder
// host`) that then failed on the held state lock. It must say that a host
// elsewhere holds the state dir, and start nothing.
func TestE2ELsWithTheStateDirHeldByAHostElsewhereSaysSo(t *testing.T) {
	e := newE2E(t)
	elsewhere := "CLOWDER_RUNTIME_DIR=" + filepath.Join(e.dir, "run2")
	other := func(args ...string) *exec.Cmd {
		cmd := e.command(context.Background(), args...)
		cmd.Env = append(cmd.Env, elsewhere) // the last one wins
		return cmd
	}
	t.Cleanup(func() { _ = other("host", "stop", "--force").Run() }) // before e's own cleanup
	if out, err := other("new", "--name", "busy", "--", "sleep", "600").CombinedOutput(); err != nil {
		t.Fatalf("new in the other runtime dir: %v: %s", err, out)
	}
	stdout, stderr, code := e.run("ls")
	if code == 0 || strings.Contains(stderr, "no clowder host is running") || !strings.Contains(stderr, "runtime dir") {
		t.Errorf("ls with the state dir held elsewhere: exit %d, stdout %q, stderr %q; want a failure saying a host in another runtime dir holds it", code, stdout, stderr)
	}
	// So must a command about a pane, which said to start a host with
	// `clowder host` (that failed on the held state lock) and run it again.
	for _, args := range [][]string{{"capture", "busy"}, {"send-keys", "busy", "Enter"}} {
		_, stderr, code := e.run(args...)
		if code == 0 || strings.Contains(stderr, "no clowder host is running") || !strings.Contains(stderr, "runtime dir") {
			t.Errorf("%v with the state dir held elsewhere: exit %d, stderr %q; want a failure saying a host in another runtime dir holds it", args, code, stderr)
		}
	}
	if _, up := e.hostInfo(); up {
		t.Error("ls or a command about a pane started a host")
	}
}

// TestE2EAHostStartsWithTheRuntimeDirAsItsStateDir pins a trial fault:
// with CLOWDER_RUNTIME_DIR and CLOWDER_STATE_DIR the same dir, the host
// locked host.lock twice (the runtime dir's, then the state dir's: the
// same file), found it held by itself and never started, blaming
// "another clowder host" with its own pid.
func TestE2EAHostStartsWithTheRuntimeDirAsItsStateDir(t *testing.T) {
	e := newE2E(t)
	same := filepath.Join(e.dir, "same")
	e.env = append(e.env, "CLOWDER_RUNTIME_DIR="+same, "CLOWDER_STATE_DIR="+same) // the last ones win
	if _, stderr, code := e.run("new", "--", "sleep", "600"); code != 0 {
		t.Fatalf("new with one dir for runtime and state: exit %d: %s", code, stderr)
	}
}

// TestE2EHostWithAWrongWordNamesEverySubcommand pins a trial fault: `host
// start` (which the TUI used to suggest) was told "no arguments (or the
// subcommand status or stop)", leaving out upgrade.
func TestE2EHostWithAWrongWordNamesEverySubcommand(t *testing.T) {
	e := newE2E(t)
	_, stderr, code := e.run("host", "start")
	for _, sub := range []string{"status", "stop", "upgrade"} {
		if code != 2 || !strings.Contains(stderr, sub) {
			t.Errorf("host start: exit %d, %q; want a usage error (2) naming the subcommand %s", code, stderr, sub)
		}
	}
}
