package tui

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"clowder/panes"
	"clowder/persist"
	"clowder/supervisor/proto"
)

// gitWorktree makes a repository with one commit and a worktree "api" of
// it on clowder/api, with git isolated from the user's configuration.
func gitWorktree(t *testing.T) persist.Worktree {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	for k, v := range map[string]string{
		"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME": "clowder test", "GIT_AUTHOR_EMAIL": "test@example.invalid",
		"GIT_COMMITTER_NAME": "clowder test", "GIT_COMMITTER_EMAIL": "test@example.invalid",
	} {
		t.Setenv(k, v)
	}
	repo := filepath.Join(t.TempDir(), "app")
	gitOut(t, "", "init", "-q", "-b", "main", repo)
	gitOut(t, repo, "commit", "-q", "--allow-empty", "-m", "first")
	wt, err := panes.CreateWorktree(context.Background(), panes.WorktreeRequest{Dir: repo, Name: "api", Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return wt
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	if dir != "" {
		args = append([]string{"-C", dir}, args...)
	}
	out, err := exec.Command("git", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// worktreeModel is a model with a shell p1 and an agent p2 in wt, focused.
func worktreeModel(t *testing.T, wt persist.Worktree, state string) (*Model, *fakeHost) {
	t.Helper()
	agent := running("p2", "api")
	agent.Worktree, agent.Cwd = &wt, wt.Path
	m, h := newTestModel(t, []proto.PaneInfo{running("p1", "left"), agent}, nil)
	if err := m.tree.SetFocus("p2"); err != nil {
		t.Fatal(err)
	}
	if state == "exited" {
		agent.State, agent.ExitReason = "exited", "completed"
		_, cmd := m.Update(mailMsg{events: []proto.PaneEvent{{Kind: proto.EventExited, Pane: "p2", Info: &agent}}})
		settle(t, m, cmd)
	}
	return m, h
}

func TestLandAsksThenKillsCommitsAndClosesThePane(t *testing.T) {
	wt := gitWorktree(t)
	if err := os.WriteFile(filepath.Join(wt.Path, "NEW"), []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m, h := worktreeModel(t, wt, "running")
	prefix(t, m)
	typeText(t, m, "W")
	if m.prompt == nil || m.prompt.kind != promptConfirm || !strings.Contains(m.prompt.label, "kill") {
		t.Fatalf("land did not ask, or did not say the pane is killed: %+v", m.prompt)
	}
	typeText(t, m, "y")
	if !slices.Equal(h.killed, []string{"p2"}) || !slices.Equal(h.removed, []string{"p2"}) || m.tree.Has("p2") {
		t.Fatalf("killed %v removed %v, tree %s; want p2 killed, removed and gone (status %q)", h.killed, h.removed, m.tree, m.status)
	}
	if _, err := os.Stat(wt.Path); !os.IsNotExist(err) {
		t.Errorf("the worktree is still there: %v", err)
	}
	if msg := gitOut(t, wt.Repo, "log", "-1", "--format=%s", wt.Branch); msg != "clowder: api" {
		t.Errorf("branch tip %q", msg)
	}
}

func TestDiscardAsksFirstThenRemovesWorktreeAndBranch(t *testing.T) {
	wt := gitWorktree(t)
	m, h := worktreeModel(t, wt, "exited")
	prefix(t, m)
	typeText(t, m, "D")
	typeText(t, m, "n")
	if _, err := os.Stat(wt.Path); err != nil || len(h.removed) != 0 || !m.tree.Has("p2") {
		t.Fatalf("n discarded something: %v, removed %v", err, h.removed)
	}
	prefix(t, m)
	typeText(t, m, "D")
	if m.prompt == nil || !strings.Contains(m.prompt.label, "every change") {
		t.Fatalf("discard did not warn: %+v", m.prompt)
	}
	typeText(t, m, "y")
	if len(h.killed) != 0 || !slices.Equal(h.removed, []string{"p2"}) || m.tree.Has("p2") {
		t.Fatalf("killed %v removed %v (status %q)", h.killed, h.removed, m.status)
	}
	if _, err := os.Stat(wt.Path); !os.IsNotExist(err) {
		t.Errorf("the worktree is still there: %v", err)
	}
	if out, _ := exec.Command("git", "-C", wt.Repo, "branch", "--list", wt.Branch).Output(); len(out) != 0 {
		t.Errorf("branch %s is still there", wt.Branch)
	}
}

func TestLandFailureKeepsThePaneAndSaysWhy(t *testing.T) {
	wt := gitWorktree(t)
	hook := filepath.Join(wt.Repo, ".git", "hooks", "pre-commit")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\necho hook says no >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(wt.Path, "NEW"), []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m, h := worktreeModel(t, wt, "exited")
	prefix(t, m)
	typeText(t, m, "Wy")
	if len(h.removed) != 0 || !m.tree.Has("p2") || !m.statusErr || !strings.Contains(m.status, "hook says no") {
		t.Fatalf("removed %v, status %q; want the pane kept and the hook's message", h.removed, m.status)
	}
	if _, err := os.Stat(filepath.Join(wt.Path, "NEW")); err != nil {
		t.Errorf("the change is lost: %v", err)
	}
}

func TestLandOfAPaneWithoutAWorktreeSaysSo(t *testing.T) {
	m, h := twoPanes(t)
	prefix(t, m)
	typeText(t, m, "W")
	if m.prompt != nil || !strings.Contains(m.status, "no worktree") || len(h.removed) != 0 {
		t.Errorf("prompt %+v, status %q", m.prompt, m.status)
	}
}

// Regression (issue 11): answering n to the new-agent prompt's worktree
// question cancelled the agent silently.
func TestNewAgentWorktreeQuestionNoStartsTheAgentWithoutOne(t *testing.T) {
	m, h := newTestModel(t, []proto.PaneInfo{running("p1", "left")}, func(c *persist.Config) {
		c.Agents["fake"] = persist.AgentConfig{Command: []string{"sh"}}
	})
	prefix(t, m)
	typeText(t, m, "a")
	m.prompt.text, m.prompt.pos = "fake", 4
	press(t, m, tea.Key{Code: tea.KeyEnter})
	typeText(t, m, "bob")
	press(t, m, tea.Key{Code: tea.KeyEnter})
	typeText(t, m, "n")
	if len(h.spawned) != 1 || h.spawned[0].Name != "bob" || h.spawned[0].Worktree != nil {
		t.Fatalf("spawned %+v, want bob without a worktree", h.spawned)
	}
}

// newAgentInWorktree answers the new-agent prompt: adapter fake, name
// bob, in a worktree, beside a pane in dir.
func newAgentInWorktree(t *testing.T, dir string, spawnErr error) *fakeHost {
	t.Helper()
	left := running("p1", "left")
	left.Cwd = dir
	h := &fakeHost{infos: []proto.PaneInfo{left}, next: 100, t: t, spawnErr: spawnErr}
	m := newTestModelOn(t, h, func(c *persist.Config) {
		c.Agents["fake"] = persist.AgentConfig{Command: []string{"sh"}}
		c.Worktrees.Base = t.TempDir()
	})
	prefix(t, m)
	typeText(t, m, "a")
	m.prompt.text, m.prompt.pos = "fake", 4
	press(t, m, tea.Key{Code: tea.KeyEnter})
	typeText(t, m, "bob")
	press(t, m, tea.Key{Code: tea.KeyEnter})
	typeText(t, m, "y")
	return h
}

// Regression (issue 11): the TUI's agent in a worktree started at the
// worktree's root, not in the subdirectory it was asked from.
func TestNewAgentInWorktreeStartsInTheSameSubdirectory(t *testing.T) {
	wt := gitWorktree(t)
	sub := filepath.Join(wt.Repo, "svc")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	h := newAgentInWorktree(t, sub, nil)
	if len(h.spawned) != 1 || h.spawned[0].Worktree == nil || h.spawned[0].Cwd != filepath.Join(h.spawned[0].Worktree.Path, "svc") {
		t.Fatalf("spawned %+v, want bob in <worktree>/svc", h.spawned)
	}
}

// Regression (issue 11): a spawn that failed left its new worktree and
// branch behind.
func TestNewAgentInWorktreeThatFailsToStartRemovesIt(t *testing.T) {
	wt := gitWorktree(t)
	newAgentInWorktree(t, wt.Repo, errors.New("spawn refused"))
	if out := gitOut(t, wt.Repo, "branch", "--list", "clowder/bob"); out != "" {
		t.Errorf("branch clowder/bob is left: %q", out)
	}
	if list := gitOut(t, wt.Repo, "worktree", "list"); strings.Contains(list, "bob") {
		t.Errorf("worktree bob is left:\n%s", list)
	}
}

// answerAgentPrompt opens the new-agent prompt and answers adapter and
// name, leaving the worktree question (if any) open.
func answerAgentPrompt(t *testing.T, m *Model, adapter, name string) {
	t.Helper()
	prefix(t, m)
	typeText(t, m, "a")
	m.prompt.text, m.prompt.pos = adapter, len(adapter)
	press(t, m, tea.Key{Code: tea.KeyEnter})
	if m.prompt == nil {
		return
	}
	typeText(t, m, name)
	press(t, m, tea.Key{Code: tea.KeyEnter})
}

func TestNewAgentPromptReportsAnAdapterThatIsNotInstalled(t *testing.T) {
	m, h := newTestModel(t, []proto.PaneInfo{running("p1", "left")}, func(c *persist.Config) {
		c.Agents["ghost"] = persist.AgentConfig{Command: []string{"/nonexistent/ghost-agent"}}
	})
	answerAgentPrompt(t, m, "ghost", "")
	if m.prompt != nil || !m.statusErr || !strings.Contains(m.status, `"/nonexistent/ghost-agent"`) || len(h.spawned) != 0 {
		t.Errorf("status %q, spawned %v; want the missing command named and nothing spawned", m.status, h.spawned)
	}
}

// Regression (issue 11): with the default adapter not installed, the first
// start quietly opened a shell instead.
func TestFirstStartSaysTheDefaultAdapterIsNotInstalled(t *testing.T) {
	m, h := newTestModel(t, nil, func(c *persist.Config) {
		c.TUI.DefaultAdapter = "ghost"
		c.Agents["ghost"] = persist.AgentConfig{Command: []string{"/nonexistent/ghost-agent"}}
	})
	if len(h.spawned) != 2 || h.spawned[0].Kind != "shell" {
		t.Fatalf("spawned %+v, want the shell fallback", h.spawned)
	}
	if !strings.Contains(m.status, `"/nonexistent/ghost-agent"`) || !strings.Contains(m.status, "shell instead") {
		t.Errorf("status %q does not say the agent is missing and a shell started instead", m.status)
	}
}

func TestNewAgentFromAProfileExpandsItsTemplates(t *testing.T) {
	wt := gitWorktree(t)
	left := running("p1", "left")
	left.Cwd = wt.Repo
	h := &fakeHost{infos: []proto.PaneInfo{left}, next: 100, t: t}
	m := newTestModelOn(t, h, func(c *persist.Config) {
		c.Agents["fake"] = persist.AgentConfig{Command: []string{"sh"}}
		c.Profiles = map[string]persist.ProfileConfig{"review": {Agent: "fake", Args: []string{"-c", "{{name}}@{{project}}:{{branch}}"}}}
		c.Worktrees.Base = t.TempDir()
	})
	answerAgentPrompt(t, m, "review", "bob")
	typeText(t, m, "y")
	if len(h.spawned) != 1 || h.spawned[0].Adapter != "review" || !slices.Equal(h.spawned[0].Argv, []string{"sh", "-c", "bob@app:clowder/bob"}) {
		t.Fatalf("spawned %+v, want review with its templates expanded (status %q)", h.spawned, m.status)
	}
}

// A command's own argv is never read as templates: respawning `echo {{x}}`
// must run it as it was.
func TestSpawnRequestLeavesACommandsBracesAlone(t *testing.T) {
	s := spawnSpec{kind: persist.KindRun, argv: []string{"echo", "{{x}}"}, cwd: t.TempDir()}
	req, err := spawnRequest(context.Background(), s, nil, panes.NewAdapters(nil, "/bin/sh"), t.TempDir())
	if err != nil || !slices.Equal(req.Argv, s.argv) {
		t.Errorf("spawnRequest = %v, %v; want the argv untouched", req.Argv, err)
	}
}
