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
// cleanup stops it), and returns once the kernel shows it stopped: kill
// returns before every thread has taken the stop.
func stopProcess(t *testing.T, e *e2eEnv, pid int) {
	t.Helper()
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGCONT) })
	status := fmt.Sprintf("/proc/%d/status", pid)
	e.eventually(10*time.Second, "the host stopped", func() bool {
		b, _ := os.ReadFile(status)
		return strings.Contains(string(b), "\nState:\tT")
	})
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
