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

// gitEnv isolates git from the user's configuration.
func gitEnv(t *testing.T) {
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
}

// newRepo makes a repository with one commit and returns its path.
func newRepo(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "app")
	run(t, "", "git", "init", "-q", "-b", "main", dir)
	writeFile(t, filepath.Join(dir, "README"), "hello\n")
	run(t, dir, "git", "add", "README")
	run(t, dir, "git", "commit", "-q", "-m", "first")
	return dir
}

func run(t *testing.T, dir string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCreateWorktreeMakesBranchUnderBase(t *testing.T) {
	gitEnv(t)
	repo := newRepo(t)
	root := t.TempDir()
	sub := filepath.Join(repo, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	wt, err := CreateWorktree(context.Background(), WorktreeRequest{Dir: sub, Name: "api-fix", Root: root})
	if err != nil {
		t.Fatal(err)
	}
	head := run(t, repo, "git", "rev-parse", "HEAD")
	want := persist.Worktree{Repo: repo, Path: WorktreePath(root, repo, "api-fix"), Branch: "clowder/api-fix", Base: head}
	if wt != want {
		t.Errorf("CreateWorktree = %+v, want %+v", wt, want)
	}
	if !strings.HasPrefix(wt.Path, filepath.Join(root, "app-")) || filepath.Base(wt.Path) != "api-fix" {
		t.Errorf("path %s is not <root>/app-<hash>/api-fix", wt.Path)
	}
	if got := run(t, wt.Path, "git", "branch", "--show-current"); got != "clowder/api-fix" {
		t.Errorf("worktree is on %q", got)
	}
	if _, err := os.Stat(filepath.Join(wt.Path, "README")); err != nil {
		t.Errorf("worktree has no checkout: %v", err)
	}
}

func TestCreateWorktreeFromAnotherWorktreeUsesTheMainRepo(t *testing.T) {
	gitEnv(t)
	repo := newRepo(t)
	root := t.TempDir()
	first, err := CreateWorktree(context.Background(), WorktreeRequest{Dir: repo, Name: "one", Root: root})
	if err != nil {
		t.Fatal(err)
	}
	second, err := CreateWorktree(context.Background(), WorktreeRequest{Dir: first.Path, Name: "two", Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if second.Repo != repo || filepath.Dir(second.Path) != filepath.Dir(first.Path) {
		t.Errorf("second worktree %+v is not beside the first %+v", second, first)
	}
}

func TestCreateWorktreeRefuses(t *testing.T) {
	gitEnv(t)
	repo := newRepo(t)
	run(t, repo, "git", "branch", "clowder/taken")
	empty := filepath.Join(t.TempDir(), "empty")
	run(t, "", "git", "init", "-q", empty)
	notRepo := t.TempDir()
	tests := []struct {
		name string
		req  WorktreeRequest
		want string
	}{
		{"not a repository", WorktreeRequest{Dir: notRepo, Name: "x"}, "not inside a git repository"},
		{"branch exists", WorktreeRequest{Dir: repo, Name: "taken"}, "branch clowder/taken already exists"},
		{"no commits", WorktreeRequest{Dir: empty, Name: "x"}, "has no commits yet"},
		{"unknown base", WorktreeRequest{Dir: repo, Name: "x", Base: "nope"}, `base "nope" is not a commit`},
		{"bad name", WorktreeRequest{Dir: repo, Name: "has space"}, "use only letters"},
		{"relative root", WorktreeRequest{Dir: repo, Name: "x", Root: "rel"}, "not an absolute path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.req.Root == "" {
				tt.req.Root = t.TempDir()
			}
			_, err := CreateWorktree(context.Background(), tt.req)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want one containing %q", err, tt.want)
			}
		})
	}
	_, err := CreateWorktree(context.Background(), WorktreeRequest{Dir: notRepo, Name: "x", Root: t.TempDir()})
	if !errors.Is(err, ErrNotGitRepo) {
		t.Errorf("error %v does not wrap ErrNotGitRepo", err)
	}
}

func TestCreateWorktreeFromNamedBase(t *testing.T) {
	gitEnv(t)
	repo := newRepo(t)
	run(t, repo, "git", "checkout", "-q", "-b", "feature")
	writeFile(t, filepath.Join(repo, "F"), "f\n")
	run(t, repo, "git", "add", "F")
	run(t, repo, "git", "commit", "-q", "-m", "feature")
	run(t, repo, "git", "checkout", "-q", "main")
	wt, err := CreateWorktree(context.Background(), WorktreeRequest{Dir: repo, Name: "f", Base: "feature", Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if wt.Base != run(t, repo, "git", "rev-parse", "feature") {
		t.Errorf("base %s is not feature's commit", wt.Base)
	}
	if _, err := os.Stat(filepath.Join(wt.Path, "F")); err != nil {
		t.Error("worktree does not have the feature branch's file")
	}
}
