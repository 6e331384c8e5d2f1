//go:build linux

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"clowder/persist"
)

// fakeClaudeName is the name under which the test binary is a fake Claude
// Code: TestMain runs fakeClaude when it is started as "claude".
const fakeClaudeName = "claude"

// fakeClaudeLogEnv names the file where the fake Claude Code appends one
// JSON line per start: its arguments and its working directory.
const fakeClaudeLogEnv = "CLOWDER_E2E_CLAUDE_LOG"

// claudeStart is one line of the fake Claude Code's log.
type claudeStart struct {
	Args []string `json:"args"`
	Cwd  string   `json:"cwd"`
}

// fakeClaudeNoHupEnv, set, makes the fake Claude Code outlive its
// terminal (it ignores SIGHUP and stays after its input ends), as an
// orphan does.
const fakeClaudeNoHupEnv = "CLOWDER_E2E_CLAUDE_NOHUP"

// fakeClaude records how it was started, says READY, and exits 0 on a
// line "exit" (or at the end of its input, unless fakeClaudeNoHupEnv).
func fakeClaude() int {
	if os.Getenv(fakeClaudeNoHupEnv) != "" {
		signal.Ignore(syscall.SIGHUP)
		defer func() { // outlive the terminal, until killed
			for {
				time.Sleep(time.Hour)
			}
		}()
	}
	wd, _ := os.Getwd()
	line, _ := json.Marshal(claudeStart{Args: os.Args[1:], Cwd: wd})
	f, err := os.OpenFile(os.Getenv(fakeClaudeLogEnv), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		fmt.Println("fake claude:", err)
		return 1
	}
	_, _ = f.Write(append(line, '\n'))
	_ = f.Close()
	fmt.Printf("CLAUDE READY %s\n", strings.Join(os.Args[1:], " "))
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() && sc.Text() != "exit" {
	}
	return 0
}

// withFakeClaude puts the fake Claude Code first on the PATH of e's
// commands (and so of the host they start) and returns its log's path.
func (e *e2eEnv) withFakeClaude() string {
	e.t.Helper()
	self, err := os.Executable()
	if err != nil {
		e.t.Fatal(err)
	}
	bin := filepath.Join(e.dir, "bin")
	if err := os.Mkdir(bin, 0o700); err != nil {
		e.t.Fatal(err)
	}
	if err := os.Symlink(self, filepath.Join(bin, fakeClaudeName)); err != nil {
		e.t.Fatal(err)
	}
	log := filepath.Join(e.dir, "claude.log")
	e.env = append(e.env, "PATH="+bin+":"+os.Getenv("PATH"), fakeClaudeLogEnv+"="+log, "SHELL=/bin/sh")
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
	if len(starts) != 1 || strings.Join(starts[0].Args, " ") != "--resume sess-a1" || starts[0].Cwd != d1 {
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
	if starts := e.claudeStarts(log); len(starts) != 2 || strings.Join(starts[1].Args, " ") != "--resume sess-a2" || starts[1].Cwd != d2 {
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
	e.must("wait", a1, "--text", "CLAUDE READY --continue", "--timeout", "20s")
	if n := len(e.claudeStarts(log)); n != 2 {
		t.Errorf("claude started %d times; want 2 (the first start, the respawn)", n)
	}
}
