package panes

// This file ends a pane's worktree (docs/cli.md, land and discard): land
// commits what is left and removes the worktree, keeping its branch;
// discard removes it and deletes the branch; remove keeps the branch and
// refuses to lose uncommitted work. Each one changes nothing when it
// fails before its last step, and every failure says what is kept where.
// A worktree whose directory is already gone is pruned from git's list
// instead of removed. Only branches clowder made (BranchPrefix) are ever
// deleted.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"clowder/persist"
)

// ErrDirtyWorktree is returned (wrapped) when a worktree has changes that
// are not committed.
var ErrDirtyWorktree = errors.New("has uncommitted changes")

// WorktreeCwd is the directory in wt that matches dir's place in its own
// checkout: for dir = <checkout>/sub it is <wt.Path>/sub. The directory is
// created when git does not track it (an empty or untracked directory is
// not checked out), so the agent starts where it was asked to.
func WorktreeCwd(ctx context.Context, dir string, wt persist.Worktree) (string, error) {
	out, err := git(ctx, dir, "rev-parse", "--show-prefix")
	if err != nil {
		return "", fmt.Errorf("find %s in its repository: %w", dir, err)
	}
	prefix := strings.TrimSpace(out)
	if prefix == "" {
		return wt.Path, nil
	}
	sub := filepath.Join(wt.Path, filepath.FromSlash(prefix))
	if err := os.MkdirAll(sub, 0o755); err != nil {
		return "", fmt.Errorf("make %s in the worktree: %w", prefix, err)
	}
	return sub, nil
}

// Changes lists the worktree's uncommitted changes as `git status
// --porcelain` prints them (untracked files included, ignored ones not);
// none means it is clean.
func Changes(ctx context.Context, path string) ([]string, error) {
	out, err := git(ctx, path, "status", "--porcelain", "--untracked-files=all")
	if err != nil {
		return nil, fmt.Errorf("check worktree %s for changes: %w", path, err)
	}
	if out = strings.TrimRight(out, "\n"); out == "" {
		return nil, nil
	}
	return strings.Split(out, "\n"), nil
}

// LandWorktree commits every change in wt (untracked files too) as
// "clowder: <name>", then removes the worktree; the branch stays, with the
// work on it. committed says whether there was anything to commit. When
// the commit fails (a hook, no identity) the worktree is left as it was.
func LandWorktree(ctx context.Context, wt persist.Worktree, name string) (committed bool, err error) {
	if gone(wt.Path) {
		return false, pruneWorktrees(ctx, wt)
	}
	changes, err := Changes(ctx, wt.Path)
	if err != nil {
		return false, err
	}
	if len(changes) > 0 {
		if err := commitAll(ctx, wt.Path, "clowder: "+name); err != nil {
			return false, err
		}
	}
	return len(changes) > 0, removeWorktree(ctx, wt, false)
}

// commitAll stages everything in path and commits it with msg.
func commitAll(ctx context.Context, path, msg string) error {
	if _, err := git(ctx, path, "add", "-A"); err != nil {
		return fmt.Errorf("land %s: stage changes: %w; the worktree is kept as it was", path, err)
	}
	if _, err := git(ctx, path, "commit", "-q", "-m", msg); err != nil {
		return fmt.Errorf("land %s: commit: %w; the worktree is kept, its changes staged", path, err)
	}
	return nil
}

// RemoveWorktree removes wt and keeps its branch. It refuses, changing
// nothing, when the worktree has uncommitted changes (ErrDirtyWorktree).
func RemoveWorktree(ctx context.Context, wt persist.Worktree) error {
	if gone(wt.Path) {
		return pruneWorktrees(ctx, wt)
	}
	if err := refuseDirty(ctx, wt); err != nil {
		return err
	}
	return removeWorktree(ctx, wt, false)
}

// refuseDirty fails with ErrDirtyWorktree, naming the first changes, when
// wt has uncommitted changes.
func refuseDirty(ctx context.Context, wt persist.Worktree) error {
	changes, err := Changes(ctx, wt.Path)
	if err != nil || len(changes) == 0 {
		return err
	}
	shown := changes[:min(3, len(changes))]
	if len(changes) > len(shown) {
		shown = append(shown, fmt.Sprintf("and %d more", len(changes)-len(shown)))
	}
	return fmt.Errorf("worktree %s %w (%s)", wt.Path, ErrDirtyWorktree, strings.Join(shown, "; "))
}

// DiscardWorktree removes wt with whatever changes it has and deletes its
// branch with its commits. It refuses a branch clowder did not make.
func DiscardWorktree(ctx context.Context, wt persist.Worktree) error {
	if !strings.HasPrefix(wt.Branch, BranchPrefix) {
		return fmt.Errorf("discard %s: branch %q is not one clowder made (%s...); delete it yourself", wt.Path, wt.Branch, BranchPrefix)
	}
	if gone(wt.Path) {
		if err := pruneWorktrees(ctx, wt); err != nil {
			return err
		}
	} else if err := removeWorktree(ctx, wt, true); err != nil {
		return err
	}
	if _, err := git(ctx, wt.Repo, "branch", "-D", wt.Branch); err != nil {
		return fmt.Errorf("discard: delete branch %s in %s: %w; the worktree is removed", wt.Branch, wt.Repo, err)
	}
	return nil
}

// removeWorktree runs `git worktree remove` (with --force, even when
// dirty); git refuses a path that is not one of the repository's worktrees.
func removeWorktree(ctx context.Context, wt persist.Worktree, force bool) error {
	args := []string{"worktree", "remove"}
	if force {
		args = append(args, "--force")
	}
	if _, err := git(ctx, wt.Repo, append(args, wt.Path)...); err != nil {
		return fmt.Errorf("remove worktree %s: %w", wt.Path, err)
	}
	dropEmptyProjectDir(wt.Path)
	return nil
}

// pruneWorktrees drops worktrees whose directory is gone from the list of
// wt's repository.
func pruneWorktrees(ctx context.Context, wt persist.Worktree) error {
	if _, err := git(ctx, wt.Repo, "worktree", "prune"); err != nil {
		return fmt.Errorf("prune the missing worktree %s from %s: %w", wt.Path, wt.Repo, err)
	}
	dropEmptyProjectDir(wt.Path)
	return nil
}

// projectDirName is how WorktreePath names a project's directory:
// <project>-<8 hex digits>. Compiled on first use, not at init, which
// every process of the binary (each CLI command) ran (bench/profiles/cli.md).
var projectDirName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`.-[0-9a-f]{8}$`) })

// dropEmptyProjectDir removes the directory a worktree was made in
// (<base>/<project>-<hash>: WorktreePath) once it holds nothing: the
// removal of an empty directory fails, harmlessly, while anything is in
// it (another pane's worktree). A directory of another name, or a
// symlink, is never touched.
func dropEmptyProjectDir(worktree string) {
	dir := filepath.Dir(worktree)
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() || !projectDirName().MatchString(filepath.Base(dir)) {
		return
	}
	_ = os.Remove(dir) // best effort: refused unless empty
}

// gone reports whether path no longer exists.
func gone(path string) bool {
	_, err := os.Lstat(path)
	return errors.Is(err, os.ErrNotExist)
}
