package panes

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"clowder/persist"
)

// newWorktree makes a repository and a worktree "api" of it.
func newWorktree(t *testing.T) persist.Worktree {
	t.Helper()
	gitEnv(t)
	repo := newRepo(t)
	wt, err := CreateWorktree(context.Background(), WorktreeRequest{Dir: repo, Name: "api", Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return wt
}

// branchExists reports whether repo has the branch.
func branchExists(repo, branch string) bool {
	return exec.Command("git", "-C", repo, "show-ref", "--verify", "--quiet", "refs/heads/"+branch).Run() == nil
}

// listed reports whether git still lists path as a worktree of repo.
func listed(t *testing.T, repo, path string) bool {
	return strings.Contains(run(t, repo, "git", "worktree", "list", "--porcelain"), "worktree "+path+"\n")
}

func TestWorktreeCwdIsTheSameSubdirectory(t *testing.T) {
	gitEnv(t)
	repo := newRepo(t)
	writeFile(t, filepath.Join(repo, "README"), "hello\n")
	if err := os.MkdirAll(filepath.Join(repo, "svc", "api"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(repo, "svc", "api", "main.go"), "package main\n")
	run(t, repo, "git", "add", ".")
	run(t, repo, "git", "commit", "-q", "-m", "svc")
	if err := os.Mkdir(filepath.Join(repo, "untracked"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, dir, want string }{
		{"root", "", ""},
		{"tracked subdirectory", "svc/api", "svc/api"},
		{"untracked subdirectory", "untracked", "untracked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(repo, tt.dir)
			wt, err := CreateWorktree(context.Background(), WorktreeRequest{Dir: dir, Name: "w" + strings.ReplaceAll(tt.want, "/", "-"), Root: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			got, err := WorktreeCwd(context.Background(), dir, wt)
			if want := filepath.Join(wt.Path, tt.want); err != nil || got != want {
				t.Fatalf("WorktreeCwd(%s) = %q, %v; want %q", tt.dir, got, err, want)
			}
			if st, err := os.Stat(got); err != nil || !st.IsDir() {
				t.Errorf("%s is not a directory: %v", got, err)
			}
		})
	}
}

func TestLandCommitsEverythingRemovesWorktreeKeepsBranch(t *testing.T) {
	wt := newWorktree(t)
	writeFile(t, filepath.Join(wt.Path, "README"), "changed\n")
	writeFile(t, filepath.Join(wt.Path, "NEW"), "new\n")
	committed, err := LandWorktree(context.Background(), wt, "api")
	if err != nil || !committed {
		t.Fatalf("LandWorktree = %v, %v; want a commit", committed, err)
	}
	if !gone(wt.Path) || listed(t, wt.Repo, wt.Path) {
		t.Errorf("worktree %s still there", wt.Path)
	}
	if got := run(t, wt.Repo, "git", "log", "-1", "--format=%s", wt.Branch); got != "clowder: api" {
		t.Errorf("branch tip message %q, want %q", got, "clowder: api")
	}
	if got := run(t, wt.Repo, "git", "show", wt.Branch+":NEW"); got != "new" {
		t.Errorf("NEW on the branch = %q", got)
	}
	if got := run(t, wt.Repo, "git", "show", wt.Branch+":README"); got != "changed" {
		t.Errorf("README on the branch = %q", got)
	}
}

func TestLandCleanWorktreeMakesNoCommit(t *testing.T) {
	wt := newWorktree(t)
	committed, err := LandWorktree(context.Background(), wt, "api")
	if err != nil || committed {
		t.Fatalf("LandWorktree = %v, %v; want no commit and no error", committed, err)
	}
	if tip := run(t, wt.Repo, "git", "rev-parse", wt.Branch); tip != wt.Base {
		t.Errorf("branch moved to %s from %s", tip, wt.Base)
	}
	if !gone(wt.Path) || !branchExists(wt.Repo, wt.Branch) {
		t.Error("want the worktree removed and the branch kept")
	}
}

func TestLandFailedCommitKeepsWorktreeAndChanges(t *testing.T) {
	wt := newWorktree(t)
	hook := filepath.Join(wt.Repo, ".git", "hooks", "pre-commit")
	writeFile(t, hook, "#!/bin/sh\necho no commits today >&2\nexit 1\n")
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(wt.Path, "NEW"), "new\n")
	_, err := LandWorktree(context.Background(), wt, "api")
	if err == nil || !strings.Contains(err.Error(), "no commits today") || !strings.Contains(err.Error(), "kept") {
		t.Fatalf("error = %v, want the hook's message and that the worktree is kept", err)
	}
	if b, err := os.ReadFile(filepath.Join(wt.Path, "NEW")); err != nil || string(b) != "new\n" {
		t.Errorf("the change is lost: %q, %v", b, err)
	}
}

func TestRemoveWorktreeRefusesUncommittedChanges(t *testing.T) {
	wt := newWorktree(t)
	writeFile(t, filepath.Join(wt.Path, "NEW"), "new\n")
	err := RemoveWorktree(context.Background(), wt)
	if !errors.Is(err, ErrDirtyWorktree) || !strings.Contains(err.Error(), "NEW") {
		t.Fatalf("error = %v, want ErrDirtyWorktree naming NEW", err)
	}
	if _, err := os.Stat(filepath.Join(wt.Path, "NEW")); err != nil {
		t.Fatalf("the change is lost: %v", err)
	}
	run(t, wt.Path, "git", "add", "NEW")
	run(t, wt.Path, "git", "commit", "-q", "-m", "new")
	if err := RemoveWorktree(context.Background(), wt); err != nil {
		t.Fatal(err)
	}
	if !gone(wt.Path) || !branchExists(wt.Repo, wt.Branch) {
		t.Error("want the worktree removed and the branch kept")
	}
}

func TestDiscardRemovesWorktreeAndBranch(t *testing.T) {
	wt := newWorktree(t)
	writeFile(t, filepath.Join(wt.Path, "NEW"), "new\n")
	if err := DiscardWorktree(context.Background(), wt); err != nil {
		t.Fatal(err)
	}
	if !gone(wt.Path) || branchExists(wt.Repo, wt.Branch) || listed(t, wt.Repo, wt.Path) {
		t.Error("want the worktree and the branch gone")
	}
}

func TestDiscardRefusesABranchClowderDidNotMake(t *testing.T) {
	wt := newWorktree(t)
	wt.Branch = "main"
	if err := DiscardWorktree(context.Background(), wt); err == nil || !strings.Contains(err.Error(), "not one clowder made") {
		t.Fatalf("error = %v", err)
	}
	if gone(wt.Path) || !branchExists(wt.Repo, "main") {
		t.Error("discard touched what it refused")
	}
}

func TestEndingAWorktreeWhoseDirectoryIsGonePrunesIt(t *testing.T) {
	for _, tt := range []struct {
		name       string
		end        func(persist.Worktree) error
		keepBranch bool
	}{
		{"land", func(wt persist.Worktree) error { _, err := LandWorktree(context.Background(), wt, "api"); return err }, true},
		{"remove", func(wt persist.Worktree) error { return RemoveWorktree(context.Background(), wt) }, true},
		{"discard", func(wt persist.Worktree) error { return DiscardWorktree(context.Background(), wt) }, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wt := newWorktree(t)
			if err := os.RemoveAll(wt.Path); err != nil {
				t.Fatal(err)
			}
			if err := tt.end(wt); err != nil {
				t.Fatal(err)
			}
			if listed(t, wt.Repo, wt.Path) || branchExists(wt.Repo, wt.Branch) != tt.keepBranch {
				t.Errorf("listed %v, branch kept %v (want %v)", listed(t, wt.Repo, wt.Path), !tt.keepBranch, tt.keepBranch)
			}
		})
	}
}

// Regression: the hint for a branch that already exists was `git branch
// -D clowder/NAME`, which git refuses while a worktree has the branch
// checked out. The hint given now works as written.
func TestCreateWorktreeHintForATakenBranchWorks(t *testing.T) {
	wt := newWorktree(t)
	req := WorktreeRequest{Dir: wt.Repo, Name: "api", Root: filepath.Dir(filepath.Dir(wt.Path))}
	_, err := CreateWorktree(context.Background(), req)
	if err == nil {
		t.Fatal("a second worktree on clowder/api was made")
	}
	_, hint, ok := strings.Cut(err.Error(), "`")
	hint, _, _ = strings.Cut(hint, "`")
	if !ok || !strings.Contains(hint, "worktree remove") {
		t.Fatalf("error %v has no `worktree remove` hint", err)
	}
	run(t, "", "sh", "-c", hint)
	if _, err := CreateWorktree(context.Background(), req); err != nil {
		t.Fatalf("after the hint: %v", err)
	}
}
