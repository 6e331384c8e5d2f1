package supervisor

import (
	"os"
	"strings"
	"testing"

	"clowder/persist"
	"clowder/supervisor/internal/testproc"
)

// TestWaitingForExitsHoldsNoThreadPerRun pins issue 12 (host RSS): each
// Run's waiter sat in a blocking waitid, which holds an OS thread for as
// long as the process lives, so a host with 10 idle shells had 10 threads
// more than it needed (each with its stack and runtime structures). The
// waiter now sleeps in the runtime's poller on a pidfd until the leader
// has exited, and only then calls waitid.
func TestWaitingForExitsHoldsNoThreadPerRun(t *testing.T) {
	o := newOracle(t)
	own := testproc.LabelGoroutines(t)
	const n = 16
	sp := NewSpawner(Options{CgroupMode: persist.CgroupOff})
	before := threads(t)
	for i := range n {
		spec := Spec{PaneID: "idle-" + o.Mark + "-" + string(rune('a'+i)), Argv: []string{"sleep", "1000"},
			Env: o.Env(), Pipe: &PipeArm{Stdout: testproc.NewSyncBuffer()}}
		start(t, sp, spec)
	}
	if !waitUntil(testproc.WaitFor, func() bool { return waitersParked(own) >= n }) {
		t.Fatalf("only %d of %d waiters reached their wait", waitersParked(own), n)
	}
	if after := threads(t); after-before >= n/2 {
		t.Fatalf("%d threads before %d idle runs, %d with them: a thread per waiter", before, n, after)
	}
}

// TestWatchingAdoptedRunsHoldsNoThreadPerRun is the same for runs adopted
// from escrow (not our children): their watcher sat in a blocking poll on
// the pidfd, a thread each.
func TestWatchingAdoptedRunsHoldsNoThreadPerRun(t *testing.T) {
	o := newOracle(t)
	own := testproc.LabelGoroutines(t)
	const n = 8
	sp := NewSpawner(Options{CgroupMode: persist.CgroupOff})
	var origs []*Run
	for i := range n {
		spec := Spec{PaneID: "orig-" + o.Mark + "-" + string(rune('a'+i)), Argv: []string{"sleep", "1000"},
			Env: o.Env(), PTY: &PTYArm{Size: Size{Cols: 80, Rows: 24}, Output: testproc.NewSyncBuffer()}}
		origs = append(origs, start(t, sp, spec))
	}
	if !waitUntil(testproc.WaitFor, func() bool { return waitersParked(own) >= n }) {
		t.Fatalf("only %d of %d waiters reached their wait", waitersParked(own), n)
	}
	before := threads(t)
	for i, r := range origs {
		master, err := r.DupMaster()
		if err != nil {
			t.Fatal(err)
		}
		a, err := sp.Adopt(AdoptSpec{PaneID: "adopted-" + string(rune('a'+i)), Identity: r.Identity(), Master: master})
		if err != nil {
			t.Fatal(err)
		}
		a.StartAdopted()
	}
	if !waitUntil(testproc.WaitFor, func() bool { return watchersParked(own) >= n }) {
		t.Fatalf("only %d of %d adopted watchers reached their wait", watchersParked(own), n)
	}
	if after := threads(t); after-before >= n/2 {
		t.Fatalf("%d threads before adopting %d runs, %d after: a thread per watcher", before, n, after)
	}
}

// threads is this process's OS thread count.
func threads(t *testing.T) int {
	t.Helper()
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	return len(tasks)
}

// waitersParked counts the goroutines labelled own inside waitExited.
func waitersParked(own string) int { return inStacks(own, "supervisor.waitExited(") }

// watchersParked counts the goroutines labelled own inside waitGoneHandle.
func watchersParked(own string) int { return inStacks(own, "supervisor.waitGoneHandle(") }

// inStacks counts the goroutines labelled own (this test's, see
// testproc.LabelGoroutines) whose stack has fn: an earlier test's runs,
// still ending, are not this test's waiters.
func inStacks(own, fn string) int {
	count := 0
	for _, g := range testproc.OwnGoroutines(own) {
		if strings.Contains(g, fn) {
			count++
		}
	}
	return count
}
