package host

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// writeScript writes an executable shell script into a test dir.
func writeScript(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fake-clowder")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestUpgradeFormatCheckReadsABoundedAnswer pins a trial-4 bug: the
// host read all a --binary printed for `host --state-format` (a wrong
// binary printing in a loop, such as yes, for the 30 s of the check),
// holding it in the memory of the host every pane depends on, and quoted
// it whole in its error.
func TestUpgradeFormatCheckReadsABoundedAnswer(t *testing.T) {
	bin := writeScript(t, "yes 1 | head -c 10000000")
	err := checkStateFormat(bin)
	if err == nil || len(err.Error()) > 4096 {
		t.Fatalf("a 10 MB answer: error of %d bytes (%.200v); want a short error", len(errText(err)), err)
	}
}

// TestUpgradeFormatCheckDoesNotWaitForAGrandchild pins a trial-4 bug: a
// --binary that answered and left a child holding its stdout kept the
// check (and `host upgrade`) waiting until that child ended, past the
// check's own timeout: the CLI gave up after 60 s saying the host did
// not answer.
func TestUpgradeFormatCheckDoesNotWaitForAGrandchild(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	bin := writeScript(t, "sleep 1000 & echo $! > "+pidFile+"\necho 1")
	t.Cleanup(func() { killPidFile(pidFile) })
	done := make(chan error, 1)
	go func() { done <- checkStateFormat(bin) }()
	select {
	case <-done:
	case <-time.After(2 * formatCheckTimeout): // bounds only a failure
		t.Fatal("the format check still waits for the binary's child")
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// killPidFile kills the process whose pid the file holds.
func killPidFile(path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		return
	}
	if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && pid > 0 {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}
