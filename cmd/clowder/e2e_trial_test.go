//go:build linux

package main

// Failing tests for bugs found by trying clowder as a new user and as an
// adversary (the trial of 2026-12-01). Each is skipped with "bug: ..." so
// the suite stays green; remove the t.Skip line once the bug is fixed.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startConnected starts clowder args in the background and waits until
// the host counts its connection (host status itself is one more client).
func startConnected(t *testing.T, e *e2eEnv, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	cmd := e.command(ctx, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	e.eventually(30*time.Second, "clowder "+strings.Join(args, " ")+" connected", func() bool {
		var st struct {
			Clients int `json:"clients"`
		}
		o, _, c := e.run("host", "status", "--json")
		return c == 0 && json.Unmarshal([]byte(o), &st) == nil && st.Clients >= 2
	})
	return cmd, &out, &errb
}

// trialExitCode waits for cmd and returns its exit code.
func trialExitCode(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	err := cmd.Wait()
	if cmd.ProcessState == nil {
		t.Fatalf("wait %v: %v", cmd.Args, err)
	}
	return cmd.ProcessState.ExitCode()
}

// TestE2ETrialWaitSurvivesHostUpgrade pins a bug: a `clowder wait` that
// is blocked while `clowder host upgrade` runs exits 1 with "connection to
// the host lost: the host closed the connection", so a script waiting for
// an agent breaks on every upgrade, although docs/cli.md says clients
// connect again by themselves. (`submit --wait` fails the same way.)
func TestE2ETrialWaitSurvivesHostUpgrade(t *testing.T) {
	e := newE2E(t)
	id := strings.TrimSpace(e.must("new", "--", "sleep", "1000"))
	cmd, out, errb := startConnected(t, e, "wait", id, "--exit")
	e.must("host", "upgrade")
	e.must("kill", id)
	if code := trialExitCode(t, cmd); code != 0 {
		t.Fatalf("wait across an upgrade: exit %d, stdout %q, stderr %q; want 0 once the pane exits", code, out, errb)
	}
}

// TestE2ETrialHostStopWithSocketGone pinned a bug: when the host's socket
// is deleted (a /tmp cleaner, an rm -r of the runtime dir's contents) the
// host ran on with its panes, holding host.lock, but `clowder host stop`
// said "no host is running" and exited 0, `host status` said no host ran,
// and `clowder new` failed on the lock: the panes were unreachable and
// the only way out (kill the pid) killed them. Now a client that finds
// the lock held and no socket asks the host (SIGUSR1) to listen again.
func TestE2ETrialHostStopWithSocketGone(t *testing.T) {
	e := newE2E(t)
	id := strings.TrimSpace(e.must("new", "--", "sleep", "1000"))
	var st struct {
		Pid    int    `json:"pid"`
		Socket string `json:"socket"`
	}
	if err := json.Unmarshal([]byte(e.must("host", "status", "--json")), &st); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(st.Socket); err != nil {
		t.Fatal(err)
	}
	if p := e.pane(id); p.State != "running" {
		t.Fatalf("after the socket was removed the pane is %s; want it reached, running", p.State)
	}
	_, stderr, code := e.run("host", "stop")
	if code == 0 || syscall.Kill(st.Pid, 0) != nil {
		t.Fatalf("host stop with a running pane: exit %d (%q), host alive: %v; want it refused and the host serving", code, stderr, syscall.Kill(st.Pid, 0) == nil)
	}
	if now, _ := e.hostInfo(); now.Pid != st.Pid {
		t.Fatalf("host status names pid %d; want the same host %d listening again", now.Pid, st.Pid)
	}
}

// TestE2ETrialCaptureOfLongColouredHistory pins a bug: `clowder capture
// --ansi --scrollback 10000` of a pane whose history is coloured cell by
// cell (6,000 lines of 200 columns here, about 36 MB of SGR text) makes a
// reply over the 16 MiB frame limit; the host logs "frame exceeds the
// maximum frame size" and drops the connection, so the command fails with
// "connection to the host lost: the host closed the connection", which
// says nothing of the cause. Each such capture also costs the host
// ~150 MB; 300 of them pipelined on one connection that never reads grew
// the host past 23 GB until the OOM killer ended it and every pane, even
// after that client had gone (see the trial report).
func TestE2ETrialCaptureOfLongColouredHistory(t *testing.T) {
	e := newE2E(t)
	script := `BEGIN { for (i = 0; i < 6000; i++) { l = ""; for (j = 0; j < 200; j++) l = l sprintf("\033[38;5;%dm%d", j % 256, j % 10); print l } }`
	id := strings.TrimSpace(e.must("new", "--size", "200x50", "--", "awk", script))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	done := e.command(ctx, "wait", id, "--exit")
	if out, err := done.CombinedOutput(); err != nil {
		t.Fatalf("wait %s: %v: %s", id, err, out)
	}
	out, stderr, code := e.run("capture", id, "--ansi", "--scrollback", "10000")
	if code != 0 && strings.Contains(stderr, "connection to the host lost") {
		t.Fatalf("capture --ansi --scrollback 10000: exit %d: %s (want the history, or an error naming its size)", code, strings.TrimSpace(stderr))
	}
	if code == 0 && strings.Count(out, "\n") < 6000 {
		t.Fatalf("capture printed %d lines, want the 6000 of history", strings.Count(out, "\n"))
	}
}

// TestE2ETrialTUIKeysTypedAcrossHostUpgrade pinned a bug (requests the
// upgrading host did not run are now sent again: h-reconnect): keys typed into
// the TUI while `clowder host upgrade` replaces the host are dropped (the
// status bar says "input to pN: connection to the host lost: the host
// closed the connection") instead of being sent once the TUI has
// connected again. A command typed across the upgrade reaches the pane
// with a hole in it, which may turn it into another command.
func TestE2ETrialTUIKeysTypedAcrossHostUpgrade(t *testing.T) {
	e, o := tuiEnv(t, 160, 48)
	o.waitScreen("$")
	word := "abcdefghijklmnopqrstuvwxyz0123456789"
	upgraded := make(chan string, 1)
	go func() {
		out, errOut, code := e.run("host", "upgrade")
		upgraded <- fmt.Sprintf("exit %d: %s%s", code, out, errOut)
	}()
	o.keys("-l", "echo ")
	for _, r := range word { // one key at a time, while the host upgrades
		o.keys("-l", string(r))
	}
	t.Log("host upgrade: ", <-upgraded)
	o.keys("-l", "_end")
	o.keys("Enter")
	o.waitCount(word+"_end", 2) // the typed command and its output
}

// TestE2ETrialSecondHostOnSameStateDirKeepsOffFirstsPanes pins a bug: two
// hosts with different runtime dirs but one state dir (XDG_RUNTIME_DIR set
// in a desktop session, unset over ssh or in cron, while ~/.local/state is
// the same) both start. The second reads the first's live panes from
// agents.json as orphans of a dead host, and its `clowder rm` kills them;
// the two also overwrite each other's agents.json (a pane of each is lost
// from disk, and both hand out the same ids). Expected: the second host
// refuses to start on a state dir another live host holds, or leaves that
// host's panes alone.
func TestE2ETrialSecondHostOnSameStateDirKeepsOffFirstsPanes(t *testing.T) {
	e := newE2E(t)
	id := strings.TrimSpace(e.must("new", "--", "sleep", "1000"))
	pid := e.pane(id).Pid
	b := *e
	b.env = append(append([]string(nil), e.env...), "CLOWDER_RUNTIME_DIR="+filepath.Join(e.dir, "runB"))
	t.Cleanup(func() { _ = b.command(context.Background(), "host", "stop", "--force").Run() })
	_, stderr, code := b.run("new", "--", "sleep", "1000")
	if code == 0 || !strings.Contains(stderr, "another clowder host keeps its panes in") {
		t.Errorf("a second host on the same state dir: new exit %d: %s; want it refused, naming the state dir", code, stderr)
	}
	_, _, _ = b.run("rm", id)
	if syscall.Kill(pid, 0) != nil {
		t.Fatalf("host A's live pane %s (pid %d) was killed by host B's rm", id, pid)
	}
}
