package panes

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCreateWorktreeDoesNotWaitForAHooksBackgroundJob pins a trial-4 bug:
// a post-checkout hook that started a job in the background (and left it
// the hook's stdout, as `job &` does) kept `clowder new --worktree`
// waiting until the job ended, though git had finished: the pipe git's
// output went to was still open.
func TestCreateWorktreeDoesNotWaitForAHooksBackgroundJob(t *testing.T) {
	gitEnv(t)
	repo := newRepo(t)
	pidFile := filepath.Join(t.TempDir(), "pid")
	hook := "#!/bin/sh\nsleep 1000 &\necho $! > " + pidFile + "\n"
	if err := os.WriteFile(filepath.Join(repo, ".git", "hooks", "post-checkout"), []byte(hook), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { killPidIn(pidFile) })
	done := make(chan error, 1)
	go func() {
		_, err := CreateWorktree(context.Background(), WorktreeRequest{Dir: repo, Name: "hooked", Root: t.TempDir()})
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("CreateWorktree with a hook's background job: %v", err)
		}
	case <-time.After(60 * time.Second): // bounds only a failure
		t.Fatal("CreateWorktree still waits for the hook's background job")
	}
}

// killPidIn kills the process whose pid the file holds.
func killPidIn(path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		return
	}
	if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && pid > 0 {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}
