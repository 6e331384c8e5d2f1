//go:build linux

package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestE2EPaneLifecycle(t *testing.T) {
	e := newE2E(t)
	id := strings.TrimSpace(e.must("new", "--name", "hello", "--", "sh", "-c", "echo hi; sleep 30"))
	if n := len(markedProcs(e.mark)); n < 2 {
		t.Errorf("the no-orphan oracle sees %d processes; want at least the host and the pane", n)
	}
	p := e.pane(id)
	if p.Name != "hello" || p.Kind != "run" || p.State != "running" || p.Pid == 0 || p.PidStart == 0 ||
		strings.Join(p.Argv, " ") != "sh -c echo hi; sleep 30" || p.Cols != 80 || p.Rows != 24 {
		t.Errorf("ls --json row %+v", p)
	}
	e.must("wait", "hello", "--text", "^hi", "--timeout", "10s")
	if got := e.must("capture", id); !strings.HasPrefix(got, "hi\n") {
		t.Errorf("capture = %q, want hi on the first line", got)
	}
	e.must("kill", id)
	if p := e.pane(id); p.State != "exited" || p.ExitReason != "killed" {
		t.Errorf("after kill: state %s reason %s", p.State, p.ExitReason)
	}
	e.must("rm", id)
	if len(e.panes()) != 0 {
		t.Errorf("after rm: %+v", e.panes())
	}
	_, errOut, code := e.run("capture", id)
	if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "clowder: ") {
		t.Errorf("capture of a removed pane: exit %d, stderr %q; want 1 and one line", code, errOut)
	}
}

func TestE2ESendKeysAndWait(t *testing.T) {
	e := newE2E(t)
	id := strings.TrimSpace(e.must("new", "--", "sh"))
	e.must("send-keys", id, "-l", "echo $((6*7))")
	e.must("send-keys", id, "Enter")
	out := e.must("wait", id, "--text", "(?m)^42$", "--timeout", "10s")
	if !strings.Contains(out, "text") {
		t.Errorf("wait printed %q", out)
	}
	_, errOut, code := e.run("wait", id, "--text", "never-shown", "--timeout", "300ms")
	if code != 1 || !strings.Contains(errOut, "timed out after 300ms") {
		t.Errorf("wait timeout: exit %d, stderr %q", code, errOut)
	}
	_, errOut, code = e.run("send-keys", id, "NoSuchKey")
	if code != 2 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "NoSuchKey") { // a usage error
		t.Errorf("unknown key: exit %d, stderr %q", code, errOut)
	}
	e.must("submit", id, "exit 0")
	e.must("wait", id, "--exit", "--timeout", "10s")
}

func TestE2ELogAndPoll(t *testing.T) {
	e := newE2E(t)
	id := strings.TrimSpace(e.must("new", "--", "sh", "-c", "printf 'one\\n\\033[31mtwo\\033[0m\\n'; sleep 30"))
	e.must("wait", id, "--text", "two", "--timeout", "10s")
	if got := e.must("log", id); got != "one\ntwo\n" {
		t.Errorf("log = %q", got)
	}
	if got := e.must("log", id, "--raw"); !strings.Contains(got, "\x1b[31mtwo") {
		t.Errorf("log --raw = %q", got)
	}
	if got := e.must("log", id, "--tail", "1"); got != "two\n" {
		t.Errorf("log --tail 1 = %q", got)
	}
	first := e.must("poll", id)
	if !strings.HasPrefix(first, id+" running") || !strings.HasSuffix(first, "one\ntwo\n") {
		t.Errorf("first poll = %q", first)
	}
	start := time.Now()
	second := e.must("poll", id, "--wait", "200ms")
	if strings.Contains(second, "one") || strings.Count(second, "\n") != 1 || time.Since(start) < 200*time.Millisecond {
		t.Errorf("second poll = %q after %s; want the state line only, after waiting", second, time.Since(start))
	}
}

func TestE2EExecExitsWithTheChildsCode(t *testing.T) {
	e := newE2E(t)
	out, _, code := e.run("exec", "--", "sh", "-c", "echo out; exit 3")
	if code != 3 || out != "out\n" {
		t.Errorf("exec: exit %d, stdout %q; want 3 and \"out\\n\"", code, out)
	}
	if len(e.panes()) != 0 {
		t.Errorf("a finished exec stays listed: %+v", e.panes())
	}
}

func TestE2EExecTimeoutKillsTheTreeWith124(t *testing.T) {
	e := newE2E(t)
	start := time.Now()
	_, errOut, code := e.run("exec", "--timeout", "1s", "--", "sh", "-c", "sleep 5 & sleep 5")
	if code != 124 || !strings.Contains(errOut, "timed out") {
		t.Errorf("exec --timeout: exit %d, stderr %q; want 124", code, errOut)
	}
	if took := time.Since(start); took > 4*time.Second {
		t.Errorf("exec --timeout 1s took %s", took)
	}
}

func TestE2EExecIdleTimeout(t *testing.T) {
	e := newE2E(t)
	_, _, code := e.run("exec", "--idle-timeout", "500ms", "--", "sh", "-c", "echo x; sleep 10")
	if code != 124 {
		t.Errorf("exec --idle-timeout on silence: exit %d, want 124", code)
	}
	out, _, code := e.run("exec", "--idle-timeout", "700ms", "--", "sh", "-c",
		"for i in 1 2 3 4 5 6; do echo $i; sleep 0.2; done")
	if code != 0 || !strings.HasSuffix(out, "6\n") {
		t.Errorf("exec --idle-timeout while output flows: exit %d, out %q; want 0", code, out)
	}
}

// startExec starts `clowder exec` in the background and waits for its
// first line of output.
func startExec(t *testing.T, e *e2eEnv, args ...string) (*execRun, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	cmd := e.command(ctx, append([]string{"exec", "--"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 1)
	go func() { // ends when exec's stdout closes
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		lines <- line
	}()
	r := &execRun{cmd: cmd, cancel: cancel}
	t.Cleanup(r.stop)
	select {
	case line := <-lines:
		return r, line
	case <-time.After(10 * time.Second):
		t.Fatal("exec printed nothing within 10s")
	}
	return r, ""
}

// execRun is a background `clowder exec`.
type execRun struct {
	cmd    *exec.Cmd
	cancel context.CancelFunc
}

func (r *execRun) stop() { r.cancel(); _ = r.cmd.Wait() }

func TestE2EExecInterruptKillsTheRunAndExits130(t *testing.T) {
	e := newE2E(t)
	r, line := startExec(t, e, "sh", "-c", "echo started; sleep 30")
	if line != "started\n" {
		t.Fatalf("first line %q", line)
	}
	_ = r.cmd.Process.Signal(syscall.SIGINT)
	_ = r.cmd.Wait()
	if code := r.cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("exec after SIGINT: exit %d, want 130", code)
	}
	if len(e.panes()) != 0 {
		t.Errorf("interrupted run still listed: %+v", e.panes())
	}
}

func TestE2EExecClientSIGKILLedKillsTheRun(t *testing.T) {
	e := newE2E(t)
	r, _ := startExec(t, e, "sh", "-c", "echo started; sleep 30 & sleep 30")
	list := e.panes()
	if len(list) != 1 || list[0].State != "running" {
		t.Fatalf("panes %+v", list)
	}
	_ = r.cmd.Process.Kill()
	_ = r.cmd.Wait()
	e.eventually(10*time.Second, "the run killed after its client died", func() bool {
		p := e.pane(list[0].ID)
		return p.State == "exited"
	})
}

func TestE2EHostStopRefusesWhilePanesRun(t *testing.T) {
	e := newE2E(t)
	e.must("new", "--", "sleep", "30")
	_, errOut, code := e.run("host", "stop")
	if code != 1 || !strings.Contains(errOut, "--force") {
		t.Errorf("host stop with a pane running: exit %d, stderr %q", code, errOut)
	}
	out := e.must("host", "status")
	if !strings.Contains(out, "panes:") || !strings.Contains(out, "pid:") {
		t.Errorf("host status = %q", out)
	}
	// cleanup runs host stop --force and proves everything is gone
}

// TestE2EUntrustedTextIsEscapedForTheTerminal pins issue 7 §5: a cwd and
// an argv[0] holding ESC and newline made `clowder ls` print raw escape
// sequences (title changes, screen clears) and break its rows; the socket
// path in `host status` and pane names quoted in errors are as untrusted.
func TestE2EUntrustedTextIsEscapedForTheTerminal(t *testing.T) {
	e := newE2E(t)
	e.env = append(e.env, "CLOWDER_RUNTIME_DIR="+e.dir+"/run\x1b]0;rt\x07")
	cwd := filepath.Join(e.dir, "cwd\x1b]0;pwned\x07\nsecond")
	if err := os.Mkdir(cwd, 0o700); err != nil {
		t.Fatal(err)
	}
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Fatal(err)
	}
	argv0 := filepath.Join(e.dir, "sl\x1b[2Jeep\n")
	if err := os.Symlink(sleep, argv0); err != nil {
		t.Fatal(err)
	}
	e.must("new", "--cwd", cwd, "--", argv0, "30")
	for _, args := range [][]string{{"ls"}, {"host", "status"}} {
		out := e.must(args...)
		if bad := strings.IndexFunc(out, func(r rune) bool { return r < 0x20 && r != '\n' }); bad >= 0 {
			t.Errorf("clowder %v printed a control character at %d:\n%q", args, bad, out)
		}
	}
	if n := strings.Count(e.must("ls"), "\n"); n != 2 {
		t.Errorf("ls printed %d lines for one pane, want 2 (a header and one row)", n)
	}
	_, errOut, _ := e.run("capture", "p\x1b[2J")
	if strings.ContainsRune(errOut, 0x1b) {
		t.Errorf("an error quoting a pane name printed ESC: %q", errOut)
	}
}

// TestE2EMakeBuildStampsTheVersion pins issue 8 §1: `make build` left the
// version at "dev", so neither `clowder --version` nor `host status` said
// which build runs. The binary go test builds (unstamped) says "dev".
func TestE2EMakeBuildStampsTheVersion(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	e := newE2E(t)
	if out := e.must("--version"); !strings.Contains(out, "version dev") {
		t.Errorf("the unstamped binary's --version = %q, want it to say dev", out)
	}
	const stamp = "v9.9.9-e2e-stamp"
	bin := filepath.Join(e.dir, "stamped")
	mk := exec.Command("make", "-C", "../..", "build", "BIN="+bin, "VERSION="+stamp)
	if out, err := mk.CombinedOutput(); err != nil {
		t.Fatalf("make build: %v\n%s", err, out)
	}
	e.bin = bin
	if out := e.must("--version"); !strings.Contains(out, stamp) {
		t.Errorf("--version = %q, want %s", out, stamp)
	}
	e.must("host")
	if out := e.must("host", "status"); !strings.Contains(out, "build:       "+stamp) {
		t.Errorf("host status = %q, want build %s", out, stamp)
	}
}
