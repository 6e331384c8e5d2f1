package supervisor

import (
	"errors"
	"os"
	"os/exec"
	"testing"
)

// TestOrphanReaperDoesNotStealPlainChildren pins the "one wait owner"
// rule: a child started elsewhere in the process with os/exec (in our own
// process group) keeps its exit status even when the orphan reaper scans
// while it is a zombie.
func TestOrphanReaperDoesNotStealPlainChildren(t *testing.T) {
	o := newOracle(t)
	cmd := exec.Command("sh", "-c", "exit 3")
	cmd.Env = o.env()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if !waitUntil(waitFor, func() bool { p, err := readProc(cmd.Process.Pid); return err == nil && p.State == 'Z' }) {
		t.Fatal("child never became a zombie")
	}
	children.reapOrphans()
	var ee *exec.ExitError
	if err := cmd.Wait(); !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("Wait = %v; the reaper stole the status", err)
	}
}

// TestOrphanZombiesAreReaped leaves a grandchild that outlives its parent:
// it is re-parented to us, killed by finalize, and its zombie must then be
// reaped by the orphan reaper.
func TestOrphanZombiesAreReaped(t *testing.T) {
	o := newOracle(t)
	out := newSyncBuffer()
	spec := Spec{PaneID: "orphan-" + o.mark, Argv: []string{"sh", "-c", "sleep 1000 & echo CHILD $!"},
		Env: o.env(), Pipe: &PipeArm{Stdout: out}}
	r := start(t, NewSpawner(Options{CgroupMode: CgroupOff}), spec)
	pid := childPid(t, out.waitContains(t, "CHILD"))
	if e := waitExit(t, r); e.Reason != ExitCompleted || len(e.Kill.Survivors) > 0 {
		t.Fatalf("exit %v, report %+v", e, e.Kill)
	}
	if !waitUntil(waitFor, func() bool { p, err := readProc(pid); return err != nil || p.PPID != os.Getpid() }) {
		t.Fatalf("orphan %d is still an unreaped child of ours", pid)
	}
}
