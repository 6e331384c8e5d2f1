// Helpers for process tests: a fake-agent spec, a synchronized output
// buffer with deadline-bounded waits, and spawning with cleanup.

package supervisor

import (
	"context"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"clowder/persist"
	"clowder/supervisor/internal/testproc"
)

// The test binary re-executed as a fake agent runs it instead of the tests.
func init() { testproc.RunIfFake(map[string]func() int{"slow-reader": fakeSlowReader}) }

func mustSubreaper(t *testing.T) {
	t.Helper()
	if err := StartSubreaper(); err != nil {
		t.Fatalf("StartSubreaper: %v", err)
	}
}

// newOracle registers the no-orphan check for t (testproc.Oracle), with
// this process a subreaper so orphans stay observable.
func newOracle(t *testing.T) *testproc.Oracle {
	t.Helper()
	mustSubreaper(t)
	return testproc.NewOracle(t)
}

// exitCounter counts OnExit calls.
type exitCounter struct {
	n    atomic.Int32
	last atomic.Value
}

func (c *exitCounter) onExit(e Exit) {
	c.n.Add(1)
	c.last.Store(e)
}

// fakeSpec is a PTY spec running the fake agent in mode, marked for o.
func fakeSpec(o *testproc.Oracle, out *testproc.SyncBuffer, mode string, env ...string) Spec {
	return Spec{
		PaneID: "p-" + mode + "-" + o.Mark,
		Argv:   []string{os.Args[0]},
		Env:    o.Env(append(env, testproc.FakeAgentEnv+"="+mode)...),
		PTY:    &PTYArm{Size: Size{Cols: 100, Rows: 30}, Output: out},
		Limits: Limits{Grace: 300 * time.Millisecond, DrainTimeout: time.Second},
	}
}

// start starts spec and registers a kill at cleanup (before the oracle).
func start(t *testing.T, sp *Spawner, spec Spec) *Run {
	t.Helper()
	r, err := sp.Start(context.Background(), spec)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { _, _ = r.Kill(r.Identity(), -1) })
	return r
}

// waitExit waits for the run's final record.
func waitExit(t *testing.T, r *Run) Exit {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testproc.WaitFor)
	defer cancel()
	e, err := r.Wait(ctx)
	if err != nil {
		t.Fatalf("Wait: %v", err)
	}
	return e
}

// cgroupModes are the containment variants a process test runs under; the
// cgroup variant is skipped, with the reason, where cgroup2 is not writable.
var cgroupModes = []struct {
	name string
	mode persist.CgroupMode
}{{"pgroup", persist.CgroupOff}, {"cgroup", persist.CgroupRequired}}

// spawnerFor returns a Spawner for mode, skipping when the machine cannot.
func spawnerFor(t *testing.T, mode persist.CgroupMode) *Spawner {
	t.Helper()
	sp := NewSpawner(Options{CgroupMode: mode})
	if mode == persist.CgroupRequired {
		leaf, err := sp.newLeaf("probe")
		if err != nil {
			t.Skipf("no writable cgroup2 here: %v", err)
		}
		_ = leaf.remove()
	}
	return sp
}
