// Helpers for process tests: a fake-agent spec, a synchronized output
// buffer with deadline-bounded waits, and spawning with cleanup.

package supervisor

import (
	"bytes"
	"context"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// waitFor bounds every wait in these tests.
const waitFor = 10 * time.Second

func mustSubreaper(t *testing.T) {
	t.Helper()
	if err := StartSubreaper(); err != nil {
		t.Fatalf("StartSubreaper: %v", err)
	}
}

// syncBuffer collects output and wakes waiters on every write.
type syncBuffer struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	wake chan struct{}
}

func newSyncBuffer() *syncBuffer { return &syncBuffer{wake: make(chan struct{}, 1)} }

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Write(p)
	select {
	case b.wake <- struct{}{}:
	default:
	}
	return len(p), nil
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitContains waits until the output contains s, failing after waitFor.
func (b *syncBuffer) waitContains(t *testing.T, s string) string {
	t.Helper()
	return b.waitCount(t, s, 1)
}

// waitCount waits until the output contains s at least n times, failing
// after waitFor.
func (b *syncBuffer) waitCount(t *testing.T, s string, n int) string {
	t.Helper()
	deadline := time.NewTimer(waitFor)
	defer deadline.Stop()
	for {
		if out := b.String(); strings.Count(out, s) >= n {
			return out
		}
		select {
		case <-b.wake:
		case <-deadline.C:
			t.Fatalf("output never contained %q %d times; got %q", s, n, b.String())
		}
	}
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
func fakeSpec(o *oracle, out *syncBuffer, mode string, env ...string) Spec {
	return Spec{
		PaneID: "p-" + mode + "-" + o.mark,
		Argv:   []string{os.Args[0]},
		Env:    o.env(append(env, fakeAgentEnv+"="+mode)...),
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
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
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
	mode CgroupMode
}{{"pgroup", CgroupOff}, {"cgroup", CgroupRequired}}

// spawnerFor returns a Spawner for mode, skipping when the machine cannot.
func spawnerFor(t *testing.T, mode CgroupMode) *Spawner {
	t.Helper()
	sp := NewSpawner(Options{CgroupMode: mode})
	if mode == CgroupRequired {
		leaf, err := sp.newLeaf("probe")
		if err != nil {
			t.Skipf("no writable cgroup2 here: %v", err)
		}
		_ = leaf.remove()
	}
	return sp
}
