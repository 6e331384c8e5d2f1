//go:build linux

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"clowder/persist"
)

// withFakeClaude puts the fake claude first on the PATH of e's commands
// (and so of their panes).
func withFakeClaude(t *testing.T, e *e2eEnv) { withFakeAgent(t, e, fakeClaudeName) }

// withFakeAgent puts a symlink named name to the test binary first on the
// PATH of e's commands, and gives them a CODEX_HOME of their own.
func withFakeAgent(t *testing.T, e *e2eEnv, name string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(e.dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(self, filepath.Join(bin, name)); err != nil {
		t.Fatal(err)
	}
	for i, kv := range e.env {
		if strings.HasPrefix(kv, "PATH=") {
			e.env[i] = "PATH=" + bin + ":" + kv[len("PATH="):]
		}
	}
	e.env = append(e.env, "CODEX_HOME="+filepath.Join(e.dir, "codex"))
}

// shownSession is the newest session id the fake claude printed.
func shownSession(t *testing.T, e *e2eEnv, id string) string {
	t.Helper()
	m := regexp.MustCompile(`FAKE-CLAUDE session=(\S+)`).FindAllStringSubmatch(e.must("capture", id), -1)
	if len(m) == 0 {
		t.Fatal("the fake claude shows no session")
	}
	return m[len(m)-1][1]
}

// TestE2EClaudeHooksFollowTheConversation pins issue 11 §2 and §4 through
// the real binary: no session id was ever recorded (resume_argv null in
// every record), and attention came from the screen alone. A claude pane
// now starts under an id clowder chose, its --settings hooks run `clowder
// hook`, the registry follows a /clear to the new id, and the Stop hook
// makes the pane need input although its screen shows no prompt.
func TestE2EClaudeHooksFollowTheConversation(t *testing.T) {
	e := newE2E(t)
	withFakeClaude(t, e)
	id := strings.TrimSpace(e.must("new", "--agent", "claude", "--name", "c1"))
	e.must("wait", id, "--text", "FAKE-CLAUDE session=", "--timeout", "30s")
	first := e.pane(id)
	if first.Session == "" || first.Session != shownSession(t, e, id) {
		t.Fatalf("ls session %q, the agent's %q", first.Session, shownSession(t, e, id))
	}
	if !slices.Contains(first.Argv, "--settings") {
		t.Fatalf("claude launched without clowder's hooks: %q", first.Argv)
	}

	e.must("send-keys", id, "-l", "hello")
	e.must("send-keys", id, "Enter")
	e.must("wait", id, "--needs-input", "--timeout", "60s") // only the Stop hook says so: no prompt on screen
	if !strings.Contains(e.must("capture", id), "ANSWER hello") || strings.Contains(e.must("capture", id), "HOOK") {
		t.Fatalf("screen after the prompt:\n%s", e.must("capture", id))
	}

	e.must("send-keys", id, "-l", "/clear")
	e.must("send-keys", id, "Enter")
	var now string
	e.eventually(30*time.Second, "the registry follows /clear", func() bool {
		now = e.pane(id).Session
		return now != first.Session && now != ""
	})
	// The fake runs the SessionStart hook before it prints the new id:
	// under load the registry can follow first, so wait for the screen.
	if _, _, code := e.run("wait", id, "--text", "FAKE-CLAUDE session="+now, "--timeout", "30s"); code != 0 {
		t.Fatalf("ls session %q after /clear, the agent's %q", now, shownSession(t, e, id))
	}
	reg, err := persist.LoadRegistry(filepath.Join(e.dir, "state", persist.AgentsFileName))
	if err != nil {
		t.Fatal(err)
	}
	rec, _ := reg.Get(id)
	if rec.Session != now || !slices.Equal(rec.ResumeArgv, []string{"claude", "--resume", now}) {
		t.Errorf("agents.json: session %q resume_argv %q, want %s", rec.Session, rec.ResumeArgv, now)
	}
}

// TestE2EHookNeverFailsTheAgent: clowder hook exits 0 with a line on
// stderr whatever goes wrong, so an agent's hook never breaks its turn.
func TestE2EHookNeverFailsTheAgent(t *testing.T) {
	e := newE2E(t)
	cases := []struct {
		name  string
		env   string
		stdin string
		args  []string
		want  string
	}{
		{"outside a pane", "", `{"hook_event_name":"Stop","session_id":"a"}`, []string{"hook", "claude"}, "CLOWDER_PANE_ID"},
		{"not JSON", "CLOWDER_PANE_ID=p1", "garbage", []string{"hook", "claude"}, "not JSON"},
		{"no host", "CLOWDER_PANE_ID=p1", `{"hook_event_name":"Stop","session_id":"a"}`, []string{"hook", "--socket", e.dir + "/none.sock", "claude"}, "no"},
		// A thread without a session file is a side thread of Codex's: nothing to report.
		{"codex side thread", "CLOWDER_PANE_ID=p1", "", []string{"hook", "--socket", e.dir + "/none.sock", "codex", `{"type":"agent-turn-complete","thread-id":"t1"}`}, ""},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			saved := e.env
			if tt.env != "" {
				e.env = append(slices.Clone(saved), tt.env)
			}
			_, errOut, code := e.runStdin([]byte(tt.stdin), tt.args...)
			e.env = saved
			if code != 0 || !strings.Contains(errOut, tt.want) || (tt.want == "") != (errOut == "") {
				t.Errorf("exit %d, stderr %q; want 0 and a line naming %q", code, errOut, tt.want)
			}
		})
	}
}

// TestE2ECodexNotifyFollowsTheConversation pins issue 11 §2 for Codex: its
// notify program reports each turn's thread, and the registry follows the
// conversation's thread, not the side thread Codex ends after a first
// prompt (its task title, with no session file; it reached the registry
// last and won).
func TestE2ECodexNotifyFollowsTheConversation(t *testing.T) {
	e := newE2E(t)
	withFakeAgent(t, e, fakeCodexName)
	id := strings.TrimSpace(e.must("new", "--agent", "codex", "--name", "cx"))
	e.must("wait", id, "--text", "FAKE-CODEX thread=", "--timeout", "30s")
	if s := e.pane(id).Session; s != "" {
		t.Fatalf("codex takes no id at launch, yet ls shows %q", s)
	}
	e.must("send-keys", id, "-l", "hello")
	e.must("send-keys", id, "Enter")
	e.must("wait", id, "--text", "ANSWER hello(.|\\n)*FAKE-CODEX", "--timeout", "30s")
	thread := regexp.MustCompile(`FAKE-CODEX thread=(\S+)`).FindStringSubmatch(e.must("capture", id))[1]
	if got := e.pane(id).Session; got != thread || strings.Contains(e.must("capture", id), "NOTIFY") {
		t.Fatalf("ls session %q, the conversation's thread %q; screen:\n%s", got, thread, e.must("capture", id))
	}
	reg, err := persist.LoadRegistry(filepath.Join(e.dir, "state", persist.AgentsFileName))
	if err != nil {
		t.Fatal(err)
	}
	if rec, _ := reg.Get(id); !slices.Equal(rec.ResumeArgv, []string{"codex", "resume", thread}) {
		t.Errorf("agents.json resume_argv %q, want codex resume %s", rec.ResumeArgv, thread)
	}
}
