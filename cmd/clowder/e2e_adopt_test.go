//go:build linux

package main

// clowder adopt tmux against a real tmux server on its own -L socket
// (issue 10 §3): output, input, paste, kill, identity changes and dead
// panes. Every server a test starts is killed at its end (startTmuxCmd),
// and every process it ran carries the test's mark, so the e2e cleanup
// proves none survives.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"clowder/supervisor"
	"clowder/supervisor/proto"
)

// tmuxFakeScript is the program the adopted panes run: it says it is
// ready (with a child in the background, part of its tree), asks for
// bracketed paste, and prints every line it reads with
// control characters made visible (cat -v), so a bracketed paste shows
// as ^[[200~...^[[201~.
const tmuxFakeScript = `sleep 3600 &
printf 'TMUXFAKE-READY\n'
printf '\033[?2004h'
while IFS= read -r line; do printf 'GOT:%s\n' "$line" | cat -v; done
`

// startTmuxCmd starts a tmux server of e's world on its own socket with
// one pane running the fake script, and kills the server when the test
// ends.
func startTmuxCmd(t *testing.T, e *e2eEnv, remainOnExit bool) *outerTmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it)")
	}
	script := filepath.Join(e.dir, "fake.sh")
	if err := os.WriteFile(script, []byte(tmuxFakeScript), 0o600); err != nil {
		t.Fatal(err)
	}
	o := &outerTmux{t: t, env: e.env, sock: "clwa-" + e.mark, lastCommand: "exec sh " + shellLine([]string{script})}
	t.Cleanup(o.kill)
	o.run("new-session", "-d", "-s", "work", "-x", "80", "-y", "24", o.lastCommand)
	if remainOnExit {
		o.run("set-option", "-g", "remain-on-exit", "on")
	}
	o.waitScreen("TMUXFAKE-READY")
	return o
}

// adopt runs clowder adopt tmux -L on o's pane and returns the pane id
// once the host's control client (which follows the pane's size) is
// attached: tmux 3.3a's server crashes when a session or window changes
// while a control client is between its first message and its attach
// (control_write on a client with no control state yet), so a test that
// renames or splits right after adopt would kill its own tmux server.
func adopt(t *testing.T, e *e2eEnv, o *outerTmux, args ...string) string {
	t.Helper()
	id := strings.TrimSpace(e.must(append([]string{"adopt", "tmux", "-L", o.sock, "work:0.0"}, args...)...))
	e.eventually(15*time.Second, "the host's tmux control client attached to "+o.sock, func() bool {
		return strings.Contains(o.run("list-clients", "-F", "#{client_control_mode}"), "1")
	})
	return id
}

// TestE2EAdoptTmuxPaneCaptureLogWaitInputPasteKill adopts a tmux pane and
// drives it through clowder only: its seeded screen and new output show
// in capture, log and wait; send-keys and a bracketed paste arrive; ls
// says it is a tmux pane; kill ends its whole tree.
func TestE2EAdoptTmuxPaneCaptureLogWaitInputPasteKill(t *testing.T) {
	e := newE2E(t)
	o := startTmuxCmd(t, e, false)
	leader := o.pid()
	id := adopt(t, e, o, "--name", "fake")
	info := e.pane(id)
	if want := "tmux %0 on server "; !strings.HasPrefix(info.Containment, want) || info.Pid != leader || info.State != "running" || info.Name != "fake" {
		t.Fatalf("adopted pane = %+v, want running, pid %d, containment %q...", info, leader, want)
	}
	if row := e.must("ls"); !regexp.MustCompile(id + `\s+fake\s+tmux\s+running\s`).MatchString(row) {
		t.Errorf("ls does not show the pane as a running tmux pane:\n%s", row)
	}
	if got := e.must("capture", id); !strings.Contains(got, "TMUXFAKE-READY") {
		t.Fatalf("the screen was not seeded from capture-pane:\n%s", got)
	}
	e.must("send-keys", id, "-l", "typed; one")
	e.must("send-keys", id, "Enter")
	e.must("wait", id, "--text", "GOT:typed; one", "--timeout", "20s")
	if got := e.must("log", id); !strings.Contains(got, "GOT:typed; one") {
		t.Errorf("log lacks the new output:\n%s", got)
	}
	e.must("paste", id, "pasted text")
	e.must("send-keys", id, "Enter")
	e.must("wait", id, "--text", `GOT:\^\[\[200~pasted text\^\[\[201~`, "--timeout", "20s")
	child := childOf(t, leader)
	e.must("kill", id)
	for _, pid := range []int{leader, child.PID} {
		if now, err := supervisor.ReadIdentity(pid); err == nil && (pid != child.PID || now == child) {
			t.Errorf("pid %d of the pane's tree survived kill", pid)
		}
	}
	if got := e.pane(id); got.State != "exited" || got.ExitReason != "killed" {
		t.Errorf("after kill: state %s, reason %s; want exited, killed", got.State, got.ExitReason)
	}
}

// childOf is a child of pid (the fake's cat -v or read loop), waiting
// for one to exist.
func childOf(t *testing.T, pid int) supervisor.Identity {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + strconv.Itoa(pid) + "/children")
		for _, f := range strings.Fields(string(b)) {
			n, _ := strconv.Atoi(f)
			if id, err := supervisor.ReadIdentity(n); err == nil {
				return id
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("pid %d never had a child", pid)
		}
		time.Sleep(20 * time.Millisecond) // polling a condition with a deadline
	}
}

// TestE2EAdoptTmuxRefusesRespawnedPane: once tmux runs another process in
// the adopted pane (respawn-pane -k), input and kill are refused, naming
// what changed, and the new process gets nothing.
func TestE2EAdoptTmuxRefusesRespawnedPane(t *testing.T) {
	e := newE2E(t)
	o := startTmuxCmd(t, e, false)
	id := adopt(t, e, o)
	o.run("respawn-pane", "-k", "-t", "work:0.0", o.lastCommand)
	o.waitScreen("TMUXFAKE-READY")
	replacement := o.pid()
	for _, args := range [][]string{{"send-keys", id, "-l", "stranger"}, {"kill", id}, {"paste", id, "stranger"}} {
		_, errOut, code := e.run(args...)
		if code == 0 || !strings.Contains(errOut, "refusing identity-unverified handoff") || !strings.Contains(errOut, "pane process") {
			t.Errorf("clowder %v on a respawned tmux pane: exit %d, %q; want a refusal naming the pane process", args, code, errOut)
		}
	}
	if _, err := supervisor.ReadIdentity(replacement); err != nil {
		t.Errorf("the replacement process %d was harmed: %v", replacement, err)
	}
	if s := o.screen(); strings.Contains(s, "stranger") {
		t.Errorf("input reached the replacement process:\n%s", s)
	}
}

// TestE2EAdoptTmuxDeadPane: a pane whose process exits is reported
// exited (with the status tmux kept, remain-on-exit), its input is
// refused as not running, and a dead pane cannot be adopted.
func TestE2EAdoptTmuxDeadPane(t *testing.T) {
	e := newE2E(t)
	o := startTmuxCmd(t, e, true)
	id := adopt(t, e, o)
	o.keys("C-d") // the read loop ends, and the script with it
	e.must("wait", id, "--exit", "--timeout", "20s")
	if got := e.pane(id); got.State != "exited" {
		t.Fatalf("pane after its process exited: %+v", got)
	}
	if _, errOut, code := e.run("send-keys", id, "x"); code == 0 || !strings.Contains(errOut, "not running") {
		t.Errorf("send-keys to a dead tmux pane: exit %d, %q; want not running", code, errOut)
	}
	_, errOut, code := e.run("adopt", "tmux", "-L", o.sock, "work:0.0")
	if code == 0 || !strings.Contains(errOut, "is dead") {
		t.Errorf("adopting a dead pane: exit %d, %q; want it refused as dead", code, errOut)
	}
}

// TestE2EAdoptTmuxBadTargets: a missing server or pane, and a pane adopted
// already, are refused in one line naming what to do.
func TestE2EAdoptTmuxBadTargets(t *testing.T) {
	e := newE2E(t)
	o := startTmuxCmd(t, e, false)
	adopt(t, e, o)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"adopt", "tmux", "-L", o.sock, "work:0.0"}, "already pane"},
		{[]string{"adopt", "tmux", "-L", o.sock, "nosuch:3.1"}, "no tmux pane"},
		{[]string{"adopt", "tmux", "-L", o.sock + "-none", "%0"}, "no tmux server"},
		{[]string{"adopt", "tmux", "-L", "x", "-S", "/tmp/y", "%0"}, "not both"},
	} {
		_, errOut, code := e.run(c.args...)
		if code == 0 || !strings.Contains(errOut, c.want) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("clowder %v: exit %d, %q; want one line with %q", c.args, code, errOut, c.want)
		}
	}
	var list []proto.PaneInfo
	if err := json.Unmarshal([]byte(e.must("ls", "--json")), &list); err != nil || len(list) != 1 {
		t.Errorf("ls after refused adoptions: %v %+v; want the one adopted pane", err, list)
	}
}

// TestE2EAdoptTmuxZombiePane: with its tmux server stopped, the pane's
// process dies and stays a zombie (nobody reaps it); clowder reports the
// pane exited all the same. It pins a hang: a tmux client talking to a
// stopped server was killed at its deadline, but the host waited for ever
// for the end of its output, whose pipe the client had passed to the
// server (TmuxServer.Command's WaitDelay).
func TestE2EAdoptTmuxZombiePane(t *testing.T) {
	e := newE2E(t)
	o := startTmuxCmd(t, e, false)
	id := adopt(t, e, o)
	server, _ := strconv.Atoi(strings.TrimSpace(o.run("display-message", "-p", "-t", "work", "#{pid}")))
	leader := o.pid()
	stopProcess(t, e, server) // resumed before the server is killed
	if err := syscall.Kill(leader, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	e.must("wait", id, "--exit", "--timeout", "30s")
	if state := procState(leader); state != "Z" {
		t.Fatalf("pid %d is %q, not a zombie: the test proves nothing", leader, state)
	}
	if got := e.pane(id); got.State != "exited" {
		t.Errorf("a pane whose process is a zombie: %+v", got)
	}
}

// procState is the state letter of pid in /proc/PID/stat, "" if gone.
func procState(pid int) string {
	if f := statFields("/proc/" + strconv.Itoa(pid) + "/stat"); len(f) > 0 {
		return f[0]
	}
	return ""
}

// TestE2EAdoptTmuxRenamedSessionRefusedThenLetGo: a renamed session is a
// change of identity: input is refused naming the session target; rm
// then forgets the pane without killing its process, which tmux still
// runs.
func TestE2EAdoptTmuxRenamedSessionRefusedThenLetGo(t *testing.T) {
	e := newE2E(t)
	o := startTmuxCmd(t, e, false)
	id := adopt(t, e, o)
	leader, err := supervisor.ReadIdentity(o.pid())
	if err != nil {
		t.Fatal(err)
	}
	o.run("rename-session", "-t", "work", "moved")
	if _, errOut, code := e.run("send-keys", id, "-l", "x"); code == 0 || !strings.Contains(errOut, "refusing identity-unverified handoff") || !strings.Contains(errOut, "session target work:0.0 → moved:0.0") {
		t.Errorf("send-keys after rename-session: exit %d, %q; want a refusal naming the session target", code, errOut)
	}
	e.must("rm", id)
	if now, err := supervisor.ReadIdentity(leader.PID); err != nil || now != leader {
		t.Errorf("rm of a pane let go killed its process: %v", err)
	}
	if list := e.panes(); len(list) != 0 {
		t.Errorf("rm left %+v", list)
	}
	if piped := strings.TrimSpace(o.run("display-message", "-p", "-t", "moved", "#{pane_pipe}")); piped != "0" {
		t.Errorf("the pane is still piped to clowder after rm (pane_pipe %s)", piped)
	}
}
