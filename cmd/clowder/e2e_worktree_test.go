//go:build linux

package main

// End-to-end tests of a pane's git worktree from start to end (issue 11
// §5), with real git: new --worktree, land, discard and rm --worktree.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"clowder/persist"
)

// gitRepo makes a repository with one commit (README and sub/FILE) under
// e's directory, isolates git from the user's configuration for e's
// commands, and returns the repository's path.
func (e *e2eEnv) gitRepo() string {
	e.t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		e.t.Skip("git not installed")
	}
	e.env = append(e.env, "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=clowder test", "GIT_AUTHOR_EMAIL=test@example.invalid",
		"GIT_COMMITTER_NAME=clowder test", "GIT_COMMITTER_EMAIL=test@example.invalid")
	repo := filepath.Join(e.dir, "proj")
	if err := os.MkdirAll(filepath.Join(repo, "sub"), 0o755); err != nil {
		e.t.Fatal(err)
	}
	e.writeFile(filepath.Join(repo, "README"), "hello\n")
	e.writeFile(filepath.Join(repo, "sub", "FILE"), "file\n")
	e.git(repo, "init", "-q", "-b", "main")
	e.git(repo, "add", ".")
	e.git(repo, "commit", "-q", "-m", "first")
	return repo
}

// git runs git in dir with e's environment and returns its trimmed output.
func (e *e2eEnv) git(dir string, args ...string) string {
	e.t.Helper()
	out, err := e.gitErr(dir, args...)
	if err != nil {
		e.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return out
}

// gitErr runs git in dir with e's environment.
func (e *e2eEnv) gitErr(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = e.env
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

func (e *e2eEnv) writeFile(path, text string) {
	e.t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

// hasBranch reports whether repo has the branch.
func (e *e2eEnv) hasBranch(repo, branch string) bool {
	_, err := e.gitErr(repo, "show-ref", "--verify", "--quiet", "refs/heads/"+branch)
	return err == nil
}

// worktreePane starts a pane named name in a new worktree of repo running
// script, and waits for it to print "ready".
func (e *e2eEnv) worktreePane(repo, name, script string) (string, persist.Worktree) {
	e.t.Helper()
	id := strings.TrimSpace(e.must("new", "--name", name, "--worktree", "--cwd", repo, "--", "sh", "-c", script+"; echo ready; exec sleep 300"))
	e.must("wait", id, "--text", "ready", "--timeout", "20s")
	p := e.pane(id)
	if p.Worktree == nil {
		e.t.Fatalf("pane %s has no worktree: %+v", id, p)
	}
	return id, *p.Worktree
}

func exists(path string) bool { _, err := os.Lstat(path); return err == nil }

// Regression (issue 11): `new --worktree --cwd proj/sub` started the agent
// at the worktree's root instead of in sub.
func TestE2ENewWorktreeStartsInTheSameSubdirectory(t *testing.T) {
	e := newE2E(t)
	repo := e.gitRepo()
	id := strings.TrimSpace(e.must("new", "--name", "deep", "--worktree", "--cwd", filepath.Join(repo, "sub"), "--", "sh", "-c", "pwd; exec sleep 300"))
	p := e.pane(id)
	if p.Worktree == nil || p.Cwd != filepath.Join(p.Worktree.Path, "sub") {
		t.Fatalf("pane cwd %q, worktree %+v; want <worktree>/sub", p.Cwd, p.Worktree)
	}
	e.must("wait", id, "--text", "(?m)/deep/sub$", "--timeout", "20s")
}

// Regression (issue 11): a failed `new --worktree` left its worktree and
// branch behind, and the hint to delete the branch failed.
func TestE2EFailedNewWorktreeRemovesItsWorktreeAndBranch(t *testing.T) {
	e := newE2E(t)
	repo := e.gitRepo()
	_, errOut, code := e.run("new", "--name", "broken", "--worktree", "--cwd", repo, "--", "/nonexistent/agent")
	if code != 1 || !strings.Contains(errOut, "are removed") {
		t.Fatalf("new with a missing program: exit %d, stderr %q; want 1 and that the worktree is removed", code, errOut)
	}
	if e.hasBranch(repo, "clowder/broken") || strings.Contains(e.git(repo, "worktree", "list"), "broken") {
		t.Fatalf("the failed new left its branch or worktree:\n%s", e.git(repo, "worktree", "list"))
	}
	e.must("new", "--name", "broken", "--worktree", "--cwd", repo, "--", "sleep", "300")
}

func TestE2ELandRefusesARunningPaneThenCommitsAndKeepsTheBranch(t *testing.T) {
	e := newE2E(t)
	repo := e.gitRepo()
	id, wt := e.worktreePane(repo, "api", "echo new > NEW")
	_, errOut, code := e.run("land", "api")
	if code != 1 || !strings.Contains(errOut, "running") || !strings.Contains(errOut, "--kill") {
		t.Fatalf("land of a running pane: exit %d, stderr %q; want a refusal naming --kill", code, errOut)
	}
	if p := e.pane(id); p.State != "running" || !exists(filepath.Join(wt.Path, "NEW")) {
		t.Fatalf("the refused land changed something: state %s", p.State)
	}
	// A failing commit keeps the pane and the worktree, and says why.
	hook := filepath.Join(repo, ".git", "hooks", "pre-commit")
	e.writeFile(hook, "#!/bin/sh\necho hook says no >&2\nexit 1\n")
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = e.run("land", "api", "--kill")
	if code != 1 || !strings.Contains(errOut, "hook says no") || !strings.Contains(errOut, "pane is kept") {
		t.Fatalf("land with a failing commit: exit %d, stderr %q", code, errOut)
	}
	if e.pane(id); !exists(filepath.Join(wt.Path, "NEW")) {
		t.Fatal("the failed land lost the change")
	}
	if err := os.Remove(hook); err != nil {
		t.Fatal(err)
	}
	if out := e.must("land", "api"); strings.TrimSpace(out) != "clowder/api" {
		t.Errorf("land printed %q, want the branch", out)
	}
	if len(e.panes()) != 0 || exists(wt.Path) {
		t.Errorf("after land: panes %+v, worktree there %v", e.panes(), exists(wt.Path))
	}
	if msg := e.git(repo, "log", "-1", "--format=%s", "clowder/api"); msg != "clowder: api" {
		t.Errorf("commit message %q", msg)
	}
	if got := e.git(repo, "show", "clowder/api:NEW"); got != "new" {
		t.Errorf("NEW on the branch: %q", got)
	}
}

func TestE2EDiscardRemovesPaneWorktreeAndBranch(t *testing.T) {
	e := newE2E(t)
	repo := e.gitRepo()
	id, wt := e.worktreePane(repo, "junk", "echo junk > JUNK")
	if _, errOut, code := e.run("discard", id); code != 1 || !strings.Contains(errOut, "running") {
		t.Fatalf("discard of a running pane: exit %d, stderr %q", code, errOut)
	}
	e.must("discard", id, "--kill")
	if len(e.panes()) != 0 || exists(wt.Path) || e.hasBranch(repo, wt.Branch) {
		t.Errorf("after discard: panes %+v, worktree there %v, branch there %v", e.panes(), exists(wt.Path), e.hasBranch(repo, wt.Branch))
	}
}

func TestE2ERmWorktreeRefusesUncommittedChanges(t *testing.T) {
	e := newE2E(t)
	repo := e.gitRepo()
	id, wt := e.worktreePane(repo, "wip", "echo wip > WIP")
	_, errOut, code := e.run("rm", "--worktree", id)
	if code != 1 || !strings.Contains(errOut, "uncommitted changes") || !strings.Contains(errOut, "clowder land") {
		t.Fatalf("rm --worktree of a dirty worktree: exit %d, stderr %q", code, errOut)
	}
	if p := e.pane(id); p.State != "running" || !exists(filepath.Join(wt.Path, "WIP")) {
		t.Fatalf("the refused rm changed something: state %s", p.State)
	}
	e.git(wt.Path, "add", "WIP")
	e.git(wt.Path, "commit", "-q", "-m", "wip")
	e.must("rm", "--worktree", id)
	if len(e.panes()) != 0 || exists(wt.Path) || !e.hasBranch(repo, wt.Branch) {
		t.Errorf("after rm --worktree: panes %+v, worktree there %v, branch kept %v", e.panes(), exists(wt.Path), e.hasBranch(repo, wt.Branch))
	}
}

func TestE2ELandWithoutAWorktreeSaysSo(t *testing.T) {
	e := newE2E(t)
	id := strings.TrimSpace(e.must("new", "--", "sleep", "300"))
	for _, verb := range []string{"land", "discard"} {
		if _, errOut, code := e.run(verb, id); code != 1 || !strings.Contains(errOut, "no worktree") {
			t.Errorf("%s of a pane without a worktree: exit %d, stderr %q", verb, code, errOut)
		}
	}
	e.pane(id)
}

// A land --kill run from inside the pane it lands would kill itself before
// its git work; it is refused instead.
func TestE2ELandFromInsideThePaneIsRefused(t *testing.T) {
	e := newE2E(t)
	repo := e.gitRepo()
	id, wt := e.worktreePane(repo, "self", "echo x > X")
	e.env = append(e.env, "CLOWDER_PANE_ID="+id)
	_, errOut, code := e.run("land", id, "--kill")
	if code != 1 || !strings.Contains(errOut, "inside that pane") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if p := e.pane(id); p.State != "running" || !exists(wt.Path) {
		t.Errorf("the refused land changed something: %s", p.State)
	}
}
