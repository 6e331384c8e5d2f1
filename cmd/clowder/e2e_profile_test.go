//go:build linux

package main

// End-to-end tests of adapters and profiles (issue 11 §6): a profile's
// templates, env and base adapter reach the pane; a missing program is
// reported with the command looked for.

import (
	"slices"
	"strings"
	"testing"
)

const profileConfig = `
[agents.fake]
command = ["sh"]

[agents.ghost]
command = ["/nonexistent/ghost-agent"]

[profiles.echo]
agent = "fake"
args = ["-c", "echo \"$PROFILE_X {{name}} {{project}} {{branch}}\"; exec sleep 300"]
env = { PROFILE_X = "from-profile" }
`

func TestE2ENewAgentProfileExpandsItsTemplates(t *testing.T) {
	e := newE2E(t)
	repo := e.gitRepo()
	e.withConfig(profileConfig)
	id := strings.TrimSpace(e.must("new", "--agent", "echo", "--name", "bob", "--worktree", "--cwd", repo))
	e.must("wait", id, "--text", "from-profile bob proj clowder/bob", "--timeout", "20s")
	p := e.pane(id)
	want := []string{"sh", "-c", `echo "$PROFILE_X bob proj clowder/bob"; exec sleep 300`}
	if p.Adapter != "echo" || p.Kind != "agent" || !slices.Equal(p.Argv, want) {
		t.Errorf("pane adapter %q kind %q argv %q; want echo, agent, %q", p.Adapter, p.Kind, p.Argv, want)
	}
}

func TestE2ENewAgentProfileWithoutATemplatesValueMakesNothing(t *testing.T) {
	e := newE2E(t)
	repo := e.gitRepo()
	e.withConfig(profileConfig)
	_, errOut, code := e.run("new", "--agent", "echo", "--name", "bob", "--cwd", repo)
	if code != 2 || !strings.Contains(errOut, "{{branch}} has no value") || !strings.Contains(errOut, "--worktree") {
		t.Fatalf("exit %d, stderr %q; want 2 and that {{branch}} needs --worktree", code, errOut)
	}
	if e.hasBranch(repo, "clowder/bob") || len(e.panes()) != 0 {
		t.Error("the refused new made a branch or a pane")
	}
}

func TestE2EUnknownTemplateInAProfileIsAnErrorNamingIt(t *testing.T) {
	e := newE2E(t)
	e.withConfig("[profiles.typo]\nagent = \"claude\"\nargs = [\"{{nmae}}\"]\n")
	_, errOut, code := e.run("new", "--agent", "typo", "--name", "x")
	if code == 0 || !strings.Contains(errOut, "{{nmae}}") || !strings.Contains(errOut, "profiles.typo.args[0]") {
		t.Fatalf("exit %d, stderr %q; want an error naming {{nmae}} and its key", code, errOut)
	}
}

// Regression (issue 11): an adapter whose program is not installed was
// only found out by the spawn, without the command clowder looked for.
func TestE2ENewReportsAnAgentThatIsNotInstalled(t *testing.T) {
	e := newE2E(t)
	e.withConfig(profileConfig)
	_, errOut, code := e.run("new", "--agent", "ghost")
	if code != 1 || !strings.Contains(errOut, `"/nonexistent/ghost-agent"`) || !strings.Contains(errOut, "not installed") {
		t.Fatalf("exit %d, stderr %q; want 1 naming the missing command", code, errOut)
	}
}

func TestE2EAgentFlagCompletesAdaptersAndProfiles(t *testing.T) {
	e := newE2E(t)
	e.withConfig(profileConfig)
	out := e.must("__complete", "new", "--agent", "")
	var words []string
	for _, line := range strings.Split(out, "\n") {
		if w, _, _ := strings.Cut(line, "\t"); w != "" && !strings.HasPrefix(w, ":") {
			words = append(words, w)
		}
	}
	for _, want := range []string{"claude", "codex", "gemini", "aider", "fake", "echo"} {
		if !slices.Contains(words, want) {
			t.Errorf("--agent completions %q lack %s", words, want)
		}
	}
	if slices.Contains(words, "command") || slices.Contains(words, "shell") {
		t.Errorf("--agent completions %q offer a non-agent adapter", words)
	}
}
