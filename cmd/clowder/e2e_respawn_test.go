//go:build linux

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"clowder/persist"
)

// withFakeClaude puts the fake Claude Code (e2e_fakeclaude_test.go) first
// on the PATH of e's commands (and so of the host they start), with
// SHELL=/bin/sh, and returns the path of its log of starts.
func (e *e2eEnv) withFakeClaude() string {
	e.t.Helper()
	withFakeClaude(e.t, e)
	log := filepath.Join(e.dir, "claude.log")
	e.env = append(e.env, fakeClaudeLogEnv+"="+log, "SHELL=/bin/sh")
	return log
}

// claudeStarts reads the fake Claude Code's log.
func (e *e2eEnv) claudeStarts(log string) []claudeStart {
	e.t.Helper()
	b, err := os.ReadFile(log)
	if err != nil && !os.IsNotExist(err) {
		e.t.Fatal(err)
	}
	var out []claudeStart
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var s claudeStart
		if l != "" && json.Unmarshal([]byte(l), &s) == nil {
			out = append(out, s)
		}
	}
	return out
}

// resumes reports whether a start resumes the conversation id, with
// clowder's hooks installed.
func resumes(s claudeStart, id string) bool {
	args := strings.Join(s.Args, " ")
	return strings.Contains(args, "--resume "+id) && strings.Contains(args, "--settings ") && !strings.Contains(args, "--session-id")
}

// killEverything SIGKILLs the host and every pane of e: a simulated
// reboot (nothing gets to save or clean up).
func (e *e2eEnv) killEverything() {
	e.t.Helper()
	for _, id := range markedProcs(e.mark) {
		_ = syscall.Kill(id.PID, syscall.SIGKILL) // one may have ended by itself
	}
	e.eventually(20*time.Second, "every process of the host to end", func() bool { return len(markedProcs(e.mark)) == 0 })
}

// registry edits agents.json while no host runs.
func (e *e2eEnv) editRegistry(edit func(*persist.PaneRecord)) {
	e.t.Helper()
	path := filepath.Join(e.dir, "state", persist.AgentsFileName)
	reg, err := persist.LoadRegistry(path)
	if err != nil {
		e.t.Fatal(err)
	}
	for i := range reg.Panes {
		edit(&reg.Panes[i])
	}
	if err := reg.Save(path); err != nil {
		e.t.Fatal(err)
	}
}

// TestE2EAgentsComeBackAfterASimulatedReboot is issue 11 §2's test: with
// the host and every pane SIGKILLed, the next start brings back the agent
// that ran with `--resume <its id>` in its directory, under the same id;
// the agent that had exited stays exited; the shell comes back afresh.
func TestE2EAgentsComeBackAfterASimulatedReboot(t *testing.T) {
	e := newE2E(t)
	log := e.withFakeClaude()
	d1, d2 := filepath.Join(e.dir, "one"), filepath.Join(e.dir, "two")
	for _, d := range []string{d1, d2} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	a1 := strings.TrimSpace(e.must("new", "--agent", "claude", "--name", "a1", "--cwd", d1))
	a2 := strings.TrimSpace(e.must("new", "--agent", "claude", "--name", "a2", "--cwd", d2))
	sh := strings.TrimSpace(e.must("new", "--shell", "--name", "sh1", "--cwd", d1))
	e.must("wait", a1, "--text", "CLAUDE READY", "--timeout", "20s")
	e.must("wait", a2, "--text", "CLAUDE READY", "--timeout", "20s")
	e.must("send-keys", a2, "-l", "exit")
	e.must("send-keys", a2, "Enter")
	e.must("wait", a2, "--exit", "--timeout", "20s")
	e.eventually(20*time.Second, "a2's exit in agents.json", func() bool {
		reg, err := persist.LoadRegistry(filepath.Join(e.dir, "state", persist.AgentsFileName))
		rec, _ := reg.Get(a2)
		return err == nil && rec.State == persist.StateExited
	})
	e.killEverything()
	e.editRegistry(func(r *persist.PaneRecord) { r.Session = "sess-" + r.Name })
	if err := os.Remove(log); err != nil {
		t.Fatal(err)
	}

	e.must("host") // the next host resumes before it serves (ls starts none)
	got := map[string]string{}
	for _, p := range e.panes() {
		got[p.ID] = p.Name + " " + p.State
	}
	want := map[string]string{a1: "a1 running", a2: "a2 exited", sh: "sh1 running"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		hl, _ := os.ReadFile(filepath.Join(e.dir, "run", "host.log"))
		t.Fatalf("after the reboot: %v; want %v\nhost.log:\n%s", got, want, hl)
	}
	e.must("wait", a1, "--text", "CLAUDE READY", "--timeout", "20s")
	starts := e.claudeStarts(log)
	if len(starts) != 1 || !resumes(starts[0], "sess-a1") || starts[0].Cwd != d1 {
		t.Fatalf("claude started %+v; want once, --resume sess-a1 in %s", starts, d1)
	}
	if p := e.pane(sh); p.Cwd != d1 || p.Argv[0] != "/bin/sh" {
		t.Errorf("the shell came back as %+v; want /bin/sh in %s", p, d1)
	}

	// The exited agent comes back on request, in its own directory; the
	// host that held its environment is gone, so the note says whose it
	// runs with.
	out, errOut, code := e.run("respawn", "a2")
	if code != 0 || strings.TrimSpace(out) != a2 || !strings.Contains(errOut, "note:") || !strings.Contains(errOut, "environment") {
		t.Fatalf("respawn a2: exit %d, stdout %q, stderr %q; want %s and a note on the environment", code, out, errOut, a2)
	}
	e.must("wait", a2, "--text", "CLAUDE READY", "--timeout", "20s")
	if starts := e.claudeStarts(log); len(starts) != 2 || !resumes(starts[1], "sess-a2") || starts[1].Cwd != d2 {
		t.Fatalf("claude started %+v; want a2's --resume sess-a2 in %s", starts, d2)
	}
	if n := len(e.panes()); n != 3 {
		t.Errorf("%d panes after the respawn; want the same 3", n)
	}
}

// TestE2ERespawnRefusesALiveOrphanNamingKill: with only the host killed,
// its panes run on as orphans of the next host; a respawn would start a
// second copy, so it is refused with the command that ends the orphan,
// and works once it has.
func TestE2ERespawnRefusesALiveOrphanNamingKill(t *testing.T) {
	e := newE2E(t)
	log := e.withFakeClaude()
	e.env = append(e.env, fakeClaudeNoHupEnv+"=1")
	a1 := strings.TrimSpace(e.must("new", "--agent", "claude", "--name", "a1"))
	e.must("wait", a1, "--text", "CLAUDE READY", "--timeout", "20s")
	if _, errOut, code := e.run("respawn", a1); code != 1 || !strings.Contains(errOut, "clowder kill") {
		t.Fatalf("respawn of a running pane: exit %d, stderr %q; want 1 naming clowder kill", code, errOut)
	}
	st := e.must("host", "status", "--json")
	var info struct{ Pid int }
	if err := json.Unmarshal([]byte(st), &info); err != nil || info.Pid == 0 {
		t.Fatalf("host status: %q (%v)", st, err)
	}
	if err := syscall.Kill(info.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	e.eventually(20*time.Second, "the host to end", func() bool { return syscall.Kill(info.Pid, 0) != nil })
	e.must("host")
	if p := e.pane(a1); p.State != "orphaned" {
		t.Fatalf("after the host was killed: %+v; want an orphan", p)
	}
	_, errOut, code := e.run("respawn", "a1")
	if code != 1 || !strings.Contains(errOut, "orphan") || !strings.Contains(errOut, "clowder kill "+a1) {
		t.Fatalf("respawn of a live orphan: exit %d, stderr %q; want 1 naming clowder kill %s", code, errOut, a1)
	}
	e.must("kill", a1)
	e.must("respawn", a1)
	e.must("wait", a1, "--text", "CLAUDE READY .*--resume", "--timeout", "20s")
	if starts := e.claudeStarts(log); len(starts) != 2 || !strings.Contains(strings.Join(starts[1].Args, " "), "--resume "+starts[0].Session()) {
		t.Errorf("claude started %+v; want the first start, then the respawn resuming its session", starts)
	}
}
