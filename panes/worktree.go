package panes

// This file gives agents their own git worktrees (docs/state.md): created
// with real git under <base>/<project>-<hash>/<name> on a new branch
// clowder/<name>, listed, and removed (refusing to lose uncommitted
// work). git is the only program panes runs; every call is short-lived,
// bounded by the caller's context, and never prompts (GIT_TERMINAL_PROMPT=0).

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"clowder/persist"
)

// BranchPrefix starts the name of every branch clowder creates.
const BranchPrefix = "clowder/"

// WorktreeRequest asks for a worktree for one agent.
type WorktreeRequest struct {
	Dir  string // any directory inside the repository (the spawn's cwd)
	Name string // the pane name: the worktree's directory and branch clowder/<Name>
	Base string // commit-ish to start from; "" means HEAD
	Root string // the worktrees base (persist.Config.WorktreesBase)
}

// ErrNotGitRepo is returned (wrapped) when a directory is not in a git
// repository.
var ErrNotGitRepo = errors.New("not inside a git repository")

// CreateWorktree runs `git worktree add -b clowder/<name> <path> <base>` and
// returns the record for agents.json. Base is recorded as the commit it
// resolved to, so a later look at the record is exact.
func CreateWorktree(ctx context.Context, req WorktreeRequest) (persist.Worktree, error) {
	if err := ValidateName(req.Name); err != nil {
		return persist.Worktree{}, fmt.Errorf("create worktree: %w", err)
	}
	if !filepath.IsAbs(req.Root) {
		return persist.Worktree{}, fmt.Errorf("create worktree: worktrees base %q is not an absolute path; set worktrees.base in config.toml", req.Root)
	}
	repo, err := mainRepo(ctx, req.Dir)
	if err != nil {
		return persist.Worktree{}, err
	}
	base, err := resolveBase(ctx, repo, req.Base)
	if err != nil {
		return persist.Worktree{}, err
	}
	branch := BranchPrefix + req.Name
	if err := refuseExistingBranch(ctx, repo, branch); err != nil {
		return persist.Worktree{}, err
	}
	path := WorktreePath(req.Root, repo, req.Name)
	if _, err := os.Lstat(path); err == nil {
		return persist.Worktree{}, fmt.Errorf("create worktree: %s already exists; pick another name or remove that directory", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return persist.Worktree{}, fmt.Errorf("create worktree: %w", err)
	}
	if _, err := git(ctx, repo, "worktree", "add", "-b", branch, path, base); err != nil {
		return persist.Worktree{}, fmt.Errorf("create worktree %s: %w", path, err)
	}
	return persist.Worktree{Repo: repo, Path: path, Branch: branch, Base: base}, nil
}

// WorktreePath is <root>/<project>-<hash>/<name>: project is the main
// repository's directory name and hash the first 8 hex digits of the
// SHA-256 of its path, so two checkouts named alike do not collide.
func WorktreePath(root, repo, name string) string {
	sum := sha256.Sum256([]byte(repo))
	return filepath.Join(root, filepath.Base(repo)+"-"+hex.EncodeToString(sum[:4]), name)
}

// mainRepo is the main working tree of the repository containing dir
// (for a dir inside a linked worktree, the repository it belongs to).
func mainRepo(ctx context.Context, dir string) (string, error) {
	out, err := git(ctx, dir, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return "", fmt.Errorf("create worktree: %s is %w; run without --worktree, or `git init` there first", dir, ErrNotGitRepo)
	}
	common := strings.TrimSpace(out)
	if filepath.Base(common) != ".git" {
		return "", fmt.Errorf("create worktree: %s is in a bare repository (%s); clone it to a working tree first", dir, common)
	}
	return filepath.Dir(common), nil
}

// resolveBase turns a commit-ish ("" = HEAD) into a commit id.
func resolveBase(ctx context.Context, repo, base string) (string, error) {
	if base == "" {
		base = "HEAD"
	}
	out, err := git(ctx, repo, "rev-parse", "--verify", "--quiet", base+"^{commit}")
	if err != nil {
		if base == "HEAD" {
			return "", fmt.Errorf("create worktree: %s has no commits yet; commit something first", repo)
		}
		return "", fmt.Errorf("create worktree: base %q is not a commit in %s; give a branch, tag or commit that exists", base, repo)
	}
	return strings.TrimSpace(out), nil
}

// refuseExistingBranch fails when the branch exists: reusing it would put
// a second agent on another's work.
func refuseExistingBranch(ctx context.Context, repo, branch string) error {
	if _, err := git(ctx, repo, "check-ref-format", "--branch", branch); err != nil {
		return fmt.Errorf("create worktree: %q is not a valid branch name; pick a simpler pane name", branch)
	}
	if _, err := git(ctx, repo, "show-ref", "--verify", "--quiet", "refs/heads/"+branch); err != nil {
		return nil
	}
	if path := worktreeOf(ctx, repo, branch); path != "" {
		// git branch -D refuses a branch checked out in a worktree.
		return fmt.Errorf("create worktree: branch %s already exists in %s, checked out at %s; pick another name, or remove both with `git -C %s worktree remove --force %s && git -C %s branch -D %s`",
			branch, repo, path, repo, path, repo, branch)
	}
	return fmt.Errorf("create worktree: branch %s already exists in %s; pick another name, or delete it with `git -C %s branch -D %s`", branch, repo, repo, branch)
}

// worktreeOf is the path of the worktree of repo that has branch checked
// out, or "".
func worktreeOf(ctx context.Context, repo, branch string) string {
	out, err := git(ctx, repo, "worktree", "list", "--porcelain")
	if err != nil {
		return ""
	}
	path := ""
	for _, line := range strings.Split(out, "\n") {
		if p, ok := strings.CutPrefix(line, "worktree "); ok {
			path = p
		} else if line == "branch refs/heads/"+branch {
			return path
		}
	}
	return ""
}

// git runs git in dir and returns its stdout; a failure carries git's own
// message.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// A hook's background job (post-checkout: `job &`) keeps git's
	// output pipes open after git exits: once it has, wait no longer
	// (git succeeded: ErrWaitDelay).
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil && !errors.Is(err, exec.ErrWaitDelay) {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			return "", fmt.Errorf("git %s: %w", args[0], err)
		}
		return "", fmt.Errorf("git %s: %s", args[0], msg)
	}
	return stdout.String(), nil
}
