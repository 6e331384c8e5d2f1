package supervisor

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"clowder/persist"
	"clowder/supervisor/internal/testproc"
)

// TestAnIdleRunHoldsNoReadBuffer: each run's reader allocated its read
// buffer (8 KiB, 32 KiB before that) for the run's whole life, a fifth of
// an idle shell pane's heap (issue 12). A reader now takes a buffer only
// once its file is readable and gives it back after the chunk: runs
// waiting for output hold none. The heap profile's in-use bytes allocated
// under readLoop are counted with every run idle.
func TestAnIdleRunHoldsNoReadBuffer(t *testing.T) {
	o := newOracle(t)
	defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
	runtime.MemProfileRate = 1
	sp := NewSpawner(Options{CgroupMode: persist.CgroupOff})
	const runs = 10
	for i := range runs {
		out := testproc.NewSyncBuffer()
		spec := fakeSpec(o, out, "lines")
		spec.PaneID += "-" + string(rune('a'+i))
		start(t, sp, spec)
		out.WaitContains(t, "READY")
	}
	// READY reached the sink before its reader gave the buffer back: wait
	// for every reader to be back in the poller (regression: under load,
	// the profile caught one reader between the two, 9920 bytes held).
	waitReadersParked(t, runs)
	if held := inUseUnder("supervisor.(*Run).readLoop"); held >= readChunk {
		t.Fatalf("%d idle runs hold %d bytes allocated by their readers (a read buffer is %d)", runs, held, readChunk)
	}
}

// waitReadersParked waits until n goroutines run readLoop and every one
// of them waits in the poller ("IO wait"): the runs are idle. It looks at
// every reader of the process, not this test's only: the heap profile
// inUseUnder reads counts them all, so another test's reader still ending
// is waited for, not counted.
func waitReadersParked(t *testing.T, n int) {
	t.Helper()
	var readers, parked int
	if !waitUntil(time.Minute, func() bool { // generous: it only bounds a failure
		readers, parked = goroutineStates("clowder/supervisor.(*Run).readLoop", "[IO wait")
		return readers >= n && parked == readers
	}) {
		t.Fatalf("%d of %d readers waiting in the poller after a minute", parked, readers)
	}
}

// goroutineStates counts the goroutines with fn on their stack, and those
// of them whose state starts with state.
func goroutineStates(fn, state string) (with, in int) {
	for _, g := range strings.Split(testproc.AllStacks(), "\n\n") {
		if strings.Contains(g, "\n"+fn+"(") {
			with++
			if strings.Contains(strings.SplitN(g, "\n", 2)[0], state) {
				in++
			}
		}
	}
	return with, in
}

// inUseUnder is the heap in use, as of a fresh GC, allocated with fn on
// the stack.
func inUseUnder(fn string) int64 {
	for range 3 { // the profile is as of the last GC but one; the first also empties sync.Pools' victim caches
		runtime.GC()
	}
	var recs []runtime.MemProfileRecord
	n, _ := runtime.MemProfile(nil, true)
	for {
		recs = make([]runtime.MemProfileRecord, n+50)
		var ok bool
		if n, ok = runtime.MemProfile(recs, true); ok {
			recs = recs[:n]
			break
		}
	}
	var held int64
	for _, r := range recs {
		frames := runtime.CallersFrames(r.Stack())
		for f, more := frames.Next(); ; f, more = frames.Next() {
			if strings.HasSuffix(f.Function, fn) {
				held += r.InUseBytes()
				break
			}
			if !more {
				break
			}
		}
	}
	return held
}

// TestAnIdleRunHoldsTwoGoroutines: a run's reader and its exit waiter.
// A third goroutine per run only waited for the readers to return to
// close drained (a stack per pane, issue 12); the last reader closes it.
// Only this test's goroutines are counted: counting the whole process's
// also counted the runs of an earlier test still ending.
func TestAnIdleRunHoldsTwoGoroutines(t *testing.T) {
	o := newOracle(t)
	own := testproc.LabelGoroutines(t) // the runs' goroutines inherit it
	sp := NewSpawner(Options{CgroupMode: persist.CgroupOff})
	const runs = 10
	for i := range runs {
		out := testproc.NewSyncBuffer()
		spec := fakeSpec(o, out, "lines")
		spec.PaneID += "-" + string(rune('a'+i))
		start(t, sp, spec)
		out.WaitContains(t, "READY")
	}
	if n := goroutinesIn(own, "clowder/supervisor.(*Run)."); n > 2*runs {
		t.Fatalf("%d idle runs hold %d goroutines in their Run", runs, n)
	}
}

// goroutinesIn counts the goroutines labelled own with a function whose
// name starts with prefix on their stack.
func goroutinesIn(own, prefix string) int {
	count := 0
	for _, g := range testproc.OwnGoroutines(own) {
		if strings.Contains(g, "\n"+prefix) {
			count++
		}
	}
	return count
}
