//go:build linux

package host

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"clowder/supervisor"
	"clowder/supervisor/internal/testproc"
	"clowder/supervisor/proto"
)

const inPidNamespace = "CLOWDER_TEST_IN_PIDNS"

// TestPIDReuseNeverSignalsTheNewProcess is issue 10's PID-reuse fault. In
// a new user and pid namespace, a pane's leader exits and a new process
// is put on its pid through ns_last_pid, in a session of the same number
// and even carrying the same CLOWDER_PANE_ID. Every action that names the
// old identity is refused, the host that finds the old record calls the
// pane lost (no survivor), and the new process is never signalled.
func TestPIDReuseNeverSignalsTheNewProcess(t *testing.T) {
	if os.Getenv(inPidNamespace) == "" {
		runInPidNamespace(t, "TestPIDReuseNeverSignalsTheNewProcess")
		return
	}
	newOracle(t)
	oldID, stranger, out, newID := reusedPid(t)

	// The process handle and the identity-checked signal refuse it.
	var mm *supervisor.MismatchError
	if err := supervisor.SignalProcess(oldID, syscall.SIGTERM); !errors.As(err, &mm) {
		t.Errorf("signal to the old identity: %v; want a mismatch", err)
	}
	// A host that finds the old identity recorded as running.
	reg := `{"schema_version":1,"panes":[{"id":"p1","name":"old","kind":"agent","argv":["x"],"cwd":"/","created":"2026-01-01T00:00:00Z",` +
		fmt.Sprintf(`"pid":%d,"pid_start":%d,"boot_id":%q,"pgid":%d,`, oldID.PID, oldID.Start, oldID.BootID, oldID.PID) +
		`"state":"running","size":{"cols":80,"rows":24},"restart":"never","timeouts":{}}]}`
	c := startHostWithFile(t, reg).dial()
	if in := c.info("p1"); in.State != "lost" || len(in.Survivors) != 0 {
		t.Errorf("the old pane: %s with survivors %v; want lost (its pid is another process's now)", in.State, in.Survivors)
	}
	if e := c.callErr(&proto.KillReq{Pane: "p1", GraceMS: 100}); e.Code != proto.CodeExited {
		t.Errorf("kill of the old pane: %+v; want not running", e)
	}
	if e := c.callErr(&proto.SignalReq{Pane: "p1", Signal: "TERM", Pid: oldID.PID, PidStart: oldID.Start, BootID: oldID.BootID}); e.Code != proto.CodeExited {
		t.Errorf("signal naming the old identity: %+v; want refused", e)
	}
	// Survived, untouched: the new process got no signal at all.
	if now, err := supervisor.ReadIdentity(newID.PID); err != nil || now != newID || strings.Contains(out.String(), "GOT") {
		t.Errorf("the new process on the old pid: %v %v, output %q; want alive and never signalled", now, err, out)
	}
	_ = stranger.Process.Kill()
	_ = stranger.Wait()
}

// runInPidNamespace reruns test in a new user, pid and mount namespace
// (unshare -Urpfm --mount-proc), or skips saying why it cannot.
func runInPidNamespace(t *testing.T, test string) {
	t.Helper()
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("PID reuse is tested in a new pid namespace, and unshare(1) is not installed")
	}
	cmd := exec.Command(unshare, "-Urpfm", "--mount-proc", os.Args[0], "-test.run=^"+test+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), inPidNamespace+"=1")
	out, err := cmd.CombinedOutput()
	if !strings.Contains(string(out), "=== RUN   "+test) {
		t.Skipf("PID reuse is tested in a new user and pid namespace, which this system refuses (unshare -Urpfm: %v):\n%s", err, out)
	}
	if err != nil || !strings.Contains(string(out), "--- PASS: "+test) {
		t.Fatalf("in a new pid namespace: %v\n%s", err, out)
	}
	t.Logf("in a new pid namespace:\n%s", out)
}

// startSetsid starts the fake agent in mode in its own session, with the
// CLOWDER_PANE_ID of pane p1, its output kept.
func startSetsid(t *testing.T, mode string) (*exec.Cmd, *testproc.SyncBuffer) {
	t.Helper()
	out := testproc.NewSyncBuffer()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), testproc.FakeAgentEnv+"="+mode, "CLOWDER_PANE_ID=p1")
	cmd.Stdout, cmd.SysProcAttr = out, &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, out
}

// reusedPid starts a process, ends it, and puts the "signals" fake on its
// pid. A pid taken meanwhile by one of this test binary's own new threads
// (threads draw from the same pid space) can never be had again, so then
// it starts over with another process: that made the test fail 1 run in
// about 20 under load ("could not put a new process on pid 7").
func reusedPid(t *testing.T) (old supervisor.Identity, stranger *exec.Cmd, out *testproc.SyncBuffer, id supervisor.Identity) {
	t.Helper()
	for attempt := 0; attempt < 10; attempt++ {
		cmd, _ := startSetsid(t, "sleep")
		old = mustIdentity(t, cmd.Process.Pid)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if stranger, out, id, ok := startOnPid(t, old); ok {
			return old, stranger, out, id
		}
	}
	t.Fatal("could not put a new process on an ended process's pid in 10 attempts")
	return
}

// startOnPid starts the "signals" fake on old's pid (ns_last_pid), in a
// later clock tick than old, so only the start time tells them apart; ok
// is false if that pid cannot be had.
func startOnPid(t *testing.T, old supervisor.Identity) (*exec.Cmd, *testproc.SyncBuffer, supervisor.Identity, bool) {
	t.Helper()
	for try := 0; try < 20; try++ {
		if err := os.WriteFile("/proc/sys/kernel/ns_last_pid", []byte(strconv.Itoa(old.PID-1)), 0); err != nil {
			t.Fatalf("write ns_last_pid: %v", err)
		}
		cmd, out := startSetsid(t, "signals")
		out.WaitContains(t, "READY")
		id := mustIdentity(t, cmd.Process.Pid)
		if id.PID == old.PID && id.Start != old.Start {
			return cmd, out, id, true
		}
		_ = cmd.Process.Kill() // another pid, or the same clock tick: try again
		_ = cmd.Wait()
	}
	t.Logf("could not put a new process on pid %d in a later clock tick", old.PID)
	return nil, nil, supervisor.Identity{}, false
}
