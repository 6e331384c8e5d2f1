package supervisor

import (
	"errors"
	"os"
	"os/exec"
	"testing"
	"time"

	"clowder/persist"
	"clowder/supervisor/internal/testproc"
)

// TestOrphanReaperDoesNotStealPlainChildren pins the "one wait owner"
// rule: a child started elsewhere in the process with os/exec (in our own
// process group) keeps its exit status even when the orphan reaper scans
// while it is a zombie.
func TestOrphanReaperDoesNotStealPlainChildren(t *testing.T) {
	o := newOracle(t)
	cmd := exec.Command("sh", "-c", "exit 3")
	cmd.Env = o.Env()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if !waitUntil(testproc.WaitFor, func() bool { p, err := readProc(cmd.Process.Pid); return err == nil && p.State == 'Z' }) {
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
	out := testproc.NewSyncBuffer()
	spec := Spec{PaneID: "orphan-" + o.Mark, Argv: []string{"sh", "-c", "sleep 1000 & echo CHILD $!"},
		Env: o.Env(), Pipe: &PipeArm{Stdout: out}}
	r := start(t, NewSpawner(Options{CgroupMode: persist.CgroupOff}), spec)
	pid := childPid(t, out.WaitContains(t, "CHILD"))
	if e := waitExit(t, r); e.Reason != persist.ExitCompleted || len(e.Kill.Survivors) > 0 {
		t.Fatalf("exit %v, report %+v", e, e.Kill)
	}
	if !waitUntil(testproc.WaitFor, func() bool { p, err := readProc(pid); return err != nil || p.PPID != os.Getpid() }) {
		t.Fatalf("orphan %d is still an unreaped child of ours", pid)
	}
}

// TestOrphanReaperIsQuietWhenIdle pins issue 7: the orphan reaper woke
// every 2 s and read every process's stat in /proc with the child table
// locked, so an idle host's cost grew with the machine's process count.
// It now runs only on SIGCHLD: over an idle window it makes no pass that
// a SIGCHLD did not prompt (and an idle process gets none). Both counts
// are read under the table lock, where the reaper counts a SIGCHLD with
// its pass: read apart, a SIGCHLD of an earlier test's child counted
// before the first reading and passed after it showed as a pass without
// one.
func TestOrphanReaperIsQuietWhenIdle(t *testing.T) {
	mustSubreaper(t)
	counts := func() (passes, wakes int64) {
		children.mu.Lock()
		defer children.mu.Unlock()
		return children.passes.Load(), children.wakes.Load()
	}
	passes, wakes := counts()
	<-time.After(5 * time.Second) // the idle window observed, not a wait for a condition
	p, w := counts()
	p, w = p-passes, w-wakes
	t.Logf("in 5 idle seconds: %d reaper passes, %d SIGCHLDs", p, w)
	if p > w {
		t.Fatalf("the orphan reaper made %d passes with only %d SIGCHLDs; want none unprompted", p, w)
	}
}

// TestOrphanReaperReadsOnlyOurChildren: a pass after a SIGCHLD reads this
// process's children list, never the whole of /proc, and still reaps an
// escaped orphan.
func TestOrphanReaperReadsOnlyOurChildren(t *testing.T) {
	mustSubreaper(t)
	o := newOracle(t)
	before := children.fullScans.Load()
	passes := children.passes.Load()
	out := testproc.NewSyncBuffer()
	spec := Spec{PaneID: "orphan-" + o.Mark, Argv: []string{"sh", "-c", "sleep 1000 & echo CHILD $!"},
		Env: o.Env(), Pipe: &PipeArm{Stdout: out}}
	r := start(t, NewSpawner(Options{CgroupMode: persist.CgroupOff}), spec)
	pid := childPid(t, out.WaitContains(t, "CHILD"))
	waitExit(t, r)
	if !waitUntil(testproc.WaitFor, func() bool { p, err := readProc(pid); return err != nil || p.PPID != os.Getpid() }) {
		t.Fatalf("orphan %d is still an unreaped child of ours", pid)
	}
	if children.passes.Load() == passes {
		t.Fatal("no reaper pass ran after the orphan's SIGCHLD")
	}
	if n := children.fullScans.Load() - before; n != 0 {
		t.Fatalf("the orphan reaper scanned all of /proc %d times", n)
	}
}

// TestLeftoverChildrenOfAnEarlierImageAreReaped: after an upgrade's exec
// the new image inherits the old one's children. Those started with
// os/exec (a tmux pane's control client) sit in our own process group,
// where the reaper leaves zombies to their waiter, and the waiter died
// with the old image: each upgrade left one zombie per adopted tmux pane.
// Marked as leftovers, they are reaped; a child to keep is not touched.
func TestLeftoverChildrenOfAnEarlierImageAreReaped(t *testing.T) {
	mustSubreaper(t)
	o := newOracle(t)
	left := exec.Command("sleep", "1000") // "the old image's" child: nobody will Wait
	kept := exec.Command("sh", "-c", "exit 3")
	for _, c := range []*exec.Cmd{left, kept} {
		c.Env = o.Env()
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	MarkLeftoverChildren([]int{kept.Process.Pid})
	_ = left.Process.Kill()
	if !waitUntil(testproc.WaitFor, func() bool { p, err := readProc(left.Process.Pid); return err != nil || p.PPID != os.Getpid() }) {
		t.Fatalf("leftover %d is still an unreaped child of ours", left.Process.Pid)
	}
	var ee *exec.ExitError
	if err := kept.Wait(); !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("Wait of the kept child = %v; the reaper stole its status", err)
	}
}

// Issue 12 (cold start): childPids globbed /proc/self/task/*/children,
// and a glob lists every directory on its way: each thread's whole
// /proc/self/task/TID/ (some 50 entries, each looked up by the kernel),
// at every SIGCHLD and, since the ladders look for re-parented children,
// at every look of a ladder (a fifth of the host's CPU for a cold `new --
// true`). It lists /proc/self/task alone and reads each thread's file.
func TestChildPidsListsOnlyTheTaskDirectory(t *testing.T) {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := children.childPids(); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(20, func() {
		if _, err := children.childPids(); err != nil {
			t.Fatal(err)
		}
	})
	// A read of one small file is a few allocations; a directory's
	// listing of 50 names is at least 50.
	if limit := 8 + 8*float64(len(tasks)); allocs > limit {
		t.Fatalf("childPids makes %.0f allocations with %d threads; at most %.0f", allocs, len(tasks), limit)
	}
}
