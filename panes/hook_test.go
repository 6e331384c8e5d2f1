package panes

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

var testHook = HookCommand{Argv: []string{"/opt/clowder", "hook", "--socket", "/run/c/host.sock"}, SettingsFile: "/run/c/claude-hooks.json"}

// TestLaunchGivesClaudeAFreshSessionAndItsHooks pins issue 11 §2: no
// session id was ever recorded; a new Claude Code conversation now starts
// under an id clowder chose, with the hooks that report the next ones.
func TestLaunchGivesClaudeAFreshSessionAndItsHooks(t *testing.T) {
	a := mustAdapter(t, "claude")
	l, err := a.Launch([]string{"claude", "--model", "opus", "--", "fix it"}, testHook)
	if err != nil {
		t.Fatal(err)
	}
	if !ValidSession(l.Session) || len(l.Session) != 36 {
		t.Fatalf("session %q is not a UUID", l.Session)
	}
	want := []string{"claude", "--session-id", l.Session, "--settings", testHook.SettingsFile, "--model", "opus", "--", "fix it"}
	if !slices.Equal(l.Argv, want) {
		t.Errorf("argv = %q, want %q", l.Argv, want)
	}
	if again, _ := a.Launch([]string{"claude"}, testHook); again.Session == l.Session {
		t.Error("two launches got the same session id")
	}
}

func TestLaunchKeepsTheConversationACommandLineNames(t *testing.T) {
	tests := []struct {
		adapter string
		argv    []string
		session string
		want    []string
	}{
		{"claude", []string{"claude", "--resume", "abc-1"}, "abc-1", []string{"claude", "--settings", testHook.SettingsFile, "--resume", "abc-1"}},
		{"claude", []string{"claude", "--resume=abc-1"}, "abc-1", []string{"claude", "--settings", testHook.SettingsFile, "--resume=abc-1"}},
		{"claude", []string{"claude", "--continue"}, "", []string{"claude", "--settings", testHook.SettingsFile, "--continue"}},
		{"claude", []string{"claude", "--session-id", "u-1"}, "u-1", []string{"claude", "--settings", testHook.SettingsFile, "--session-id", "u-1"}},
		{"claude", []string{"claude", "-r", "--evil"}, "", []string{"claude", "--settings", testHook.SettingsFile, "-r", "--evil"}},
		{"codex", []string{"codex", "resume", "t-9"}, "t-9", []string{"codex", "-c", `notify=['/opt/clowder','hook','--socket','/run/c/host.sock','codex']`, "resume", "t-9"}},
		{"codex", []string{"codex", "resume", "--last"}, "", []string{"codex", "-c", `notify=['/opt/clowder','hook','--socket','/run/c/host.sock','codex']`, "resume", "--last"}},
		{"codex", []string{"codex"}, "", []string{"codex", "-c", `notify=['/opt/clowder','hook','--socket','/run/c/host.sock','codex']`}},
		{"gemini", []string{"gemini", "--resume", "latest"}, "latest", []string{"gemini", "--resume", "latest"}},
		{"aider", []string{"aider"}, "", []string{"aider"}},
		{"claude", []string{"/usr/local/bin/claude"}, "", nil}, // checked below: a path to claude is claude
		{"claude", []string{"npx", "@anthropic-ai/claude-code"}, "", []string{"npx", "@anthropic-ai/claude-code"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.argv, " "), func(t *testing.T) {
			a := mustAdapter(t, tt.adapter)
			l, err := a.Launch(tt.argv, testHook)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == nil {
				if len(l.Argv) < 2 || l.Argv[1] != "--session-id" {
					t.Errorf("Launch(%q) = %q, want a session id", tt.argv, l.Argv)
				}
				return
			}
			if l.Session != tt.session || !slices.Equal(l.Argv, tt.want) {
				t.Errorf("Launch = %q %q, want %q %q", l.Session, l.Argv, tt.session, tt.want)
			}
		})
	}
}

func TestLaunchGivesGeminiASessionID(t *testing.T) {
	g := mustAdapter(t, "gemini")
	l, err := g.Launch([]string{"gemini"}, testHook)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"gemini", "--session-id", l.Session}; !ValidSession(l.Session) || !slices.Equal(l.Argv, want) {
		t.Errorf("argv = %q, want %q", l.Argv, want)
	}
}

// TestClaudeSettingsRunTheHookOnEveryEvent checks the --settings file is
// Claude Code's hooks format and runs `clowder hook claude`, quoted for sh.
func TestClaudeSettingsRunTheHookOnEveryEvent(t *testing.T) {
	var s struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Type, Command string
				Timeout       int
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(ClaudeSettings([]string{"/opt/my clowder", "hook", "--socket", "/run/it's/host.sock"}), &s); err != nil {
		t.Fatal(err)
	}
	for _, ev := range []string{"SessionStart", "Notification", "Stop", "UserPromptSubmit"} {
		m := s.Hooks[ev]
		if len(m) != 1 || len(m[0].Hooks) != 1 {
			t.Fatalf("%s: %+v", ev, m)
		}
		h := m[0].Hooks[0]
		if want := `'/opt/my clowder' 'hook' '--socket' '/run/it'\''s/host.sock' 'claude'`; h.Type != "command" || h.Command != want || h.Timeout <= 0 {
			t.Errorf("%s hook = %+v, want command %s", ev, h, want)
		}
	}
}

func TestHookAttention(t *testing.T) {
	for ev, want := range map[string]Attention{"Stop": NeedsInput, "Notification": NeedsInput, "UserPromptSubmit": Working, "agent-turn-complete": NeedsInput} {
		if got, ok := HookAttention(ev, ""); !ok || got != want {
			t.Errorf("HookAttention(%s) = %s, %v; want %s", ev, got, ok, want)
		}
	}
	if _, ok := HookAttention("SessionStart", "startup"); ok {
		t.Error("SessionStart says nothing about attention")
	}
	if _, ok := HookAttention("Notification", "auth_success"); ok {
		t.Error("a sign-in notification asks nothing of the user")
	}
	if HookFollowsSession("SessionEnd") || !HookFollowsSession("SessionStart") {
		t.Error("SessionEnd carries the old id on /clear; every other event the current one")
	}
}

func TestResumeForSaysWhenItFallsBackToTheLatestConversation(t *testing.T) {
	a := mustAdapter(t, "claude")
	argv, note, ok := a.ResumeFor("abc")
	if !ok || note != "" || !slices.Equal(argv, []string{"claude", "--resume", "abc"}) {
		t.Errorf("ResumeFor(abc) = %q %q %v", argv, note, ok)
	}
	for _, s := range []string{"", "--dangerously-skip-permissions"} {
		argv, note, ok = a.ResumeFor(s)
		if !ok || !strings.Contains(note, "no conversation id") || !slices.Equal(argv, []string{"claude", "--continue"}) {
			t.Errorf("ResumeFor(%q) = %q %q %v", s, argv, note, ok)
		}
	}
}

func TestValidSessionRefusesOptionsAndControls(t *testing.T) {
	for _, s := range []string{"", "-x", "--resume", "a b", "a\x1b", strings.Repeat("a", 200)} {
		if ValidSession(s) {
			t.Errorf("ValidSession(%q) = true", s)
		}
	}
}

func mustAdapter(t *testing.T, name string) Adapter {
	t.Helper()
	a, err := NewAdapters(nil, "").Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
