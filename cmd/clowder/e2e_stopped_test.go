//go:build linux

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

// stoppedHost starts e's host, SIGSTOPs it and resumes it when the test
// ends (before e's cleanup stops it); it returns the host's socket.
func stoppedHost(t *testing.T, e *e2eEnv) {
	t.Helper()
	e.must("host")
	c, err := client.Dial(context.Background(), filepath.Join(e.dir, "run", "host.sock"))
	if err != nil {
		t.Fatal(err)
	}
	info, err := c.HostStatus(context.Background())
	_ = c.Close()
	if err != nil {
		t.Fatal(err)
	}
	stopProcess(t, e, info.Pid)
}

// stopProcess SIGSTOPs pid, resumes it when the test ends (before e's
// cleanup stops it) if it is still the same process, and returns once
// every thread of it is stopped. Regression: kill(2) returns before the
// stop is taken: the kernel wakes one thread to take it, and on a loaded
// machine that thread may wait for a CPU while the process's other
// threads run on; a host "stopped" that way answered the clients a test
// started next, which then never waited on a stopped host (1 run in 8 of
// TestE2EHostKilledUnderARequestAnswersAfterARestart failed so).
func stopProcess(t *testing.T, e *e2eEnv, pid int) {
	t.Helper()
	start := procStart(pid)
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if start != "" && procStart(pid) == start { // not a pid reused meanwhile
			_ = syscall.Kill(pid, syscall.SIGCONT)
		}
	})
	e.eventually(60*time.Second, fmt.Sprintf("every thread of pid %d stopped", pid), func() bool { return allStopped(pid) })
}

// allStopped reports whether every thread of pid is stopped (state T):
// only then is the stop SIGSTOP asks for complete.
func allStopped(pid int) bool {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil || len(tasks) == 0 {
		return false
	}
	for _, task := range tasks {
		if f := statFields(fmt.Sprintf("/proc/%d/task/%s/stat", pid, task.Name())); len(f) == 0 || f[0] != "T" {
			return false
		}
	}
	return true
}

// procStart is pid's start time (field 22 of /proc/PID/stat), which with
// the pid names a process; "" if it is gone.
func procStart(pid int) string {
	if f := statFields(fmt.Sprintf("/proc/%d/stat", pid)); len(f) > 19 {
		return f[19]
	}
	return ""
}

// statFields are the fields of a /proc stat file after the command name
// (the state first), nil if it cannot be read.
func statFields(path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
}

// TestE2ELsSaysWhenTheHostDoesNotAnswer pins issue 7 §3: `clowder ls`
// against a stopped (SIGSTOPped) host hung forever. The handshake now has
// a deadline, and the error says the host does not answer.
func TestE2ELsSaysWhenTheHostDoesNotAnswer(t *testing.T) {
	e := newE2E(t)
	stoppedHost(t, e)
	_, errOut, code := e.run("ls")
	if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "did not answer") {
		t.Errorf("ls against a stopped host: exit %d, stderr %q; want 1 and one line saying it did not answer", code, errOut)
	}
}

// TestCLICallsHaveADeadline pins issue 7 §3 for a host that stops after
// the handshake: a CLI request gets its deadline and fails with
// NotAnsweringError instead of waiting forever.
func TestCLICallsHaveADeadline(t *testing.T) {
	e := newE2E(t)
	e.must("host")
	a := &app{lookup: func(k string) (string, bool) {
		return map[string]string{"CLOWDER_RUNTIME_DIR": e.dir + "/run", "CLOWDER_STATE_DIR": e.dir + "/state",
			"CLOWDER_CONFIG": e.dir + "/config.toml"}[k], true
	}, callTimeout: func(proto.Message) time.Duration { return 500 * time.Millisecond }}
	c, err := a.dial(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	info, err := c.HostStatus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	stopProcess(t, e, info.Pid)
	_, err = c.List(context.Background())
	var na *client.NotAnsweringError
	if !errors.As(err, &na) || !strings.Contains(err.Error(), info.Socket) {
		t.Errorf("List from a stopped host = %v; want a NotAnsweringError naming %s", err, info.Socket)
	}
}
