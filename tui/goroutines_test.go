package tui

// Goroutines of one test. A test that inspects goroutines by scanning
// every goroutine of the process also sees other tests' (a reader still
// ending when the next test looks). A profiler label set on the test's
// goroutine is inherited by every goroutine it starts, and by theirs in
// turn, and with GODEBUG tracebacklabels=1 (Go 1.26) runtime.Stack prints
// it in each goroutine's header. (supervisor/internal/testproc has the
// same for the supervisor packages; tui may not import it.)

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync/atomic"
	"testing"
)

// goroutineLabel is the profiler label key naming a test's goroutines.
const goroutineLabel = "clowder-test"

var labelSeq atomic.Uint64

// labelGoroutines labels t's goroutine, and so every goroutine it starts
// from now on, with a value unique to this call, and turns on Go 1.26's
// labels in stack dumps (GODEBUG tracebacklabels) for the test: stacks
// then tell this test's goroutines from another test's still ending.
// It returns the value. t must not be parallel (it sets GODEBUG).
func labelGoroutines(t *testing.T) string {
	t.Setenv("GODEBUG", strings.TrimPrefix(os.Getenv("GODEBUG")+",tracebacklabels=1", ","))
	value := fmt.Sprintf("%s#%d", t.Name(), labelSeq.Add(1))
	pprof.SetGoroutineLabels(pprof.WithLabels(context.Background(), pprof.Labels(goroutineLabel, value)))
	return value
}

// allStacks is every goroutine's stack, as runtime.Stack prints them.
func allStacks() string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return string(buf[:n])
		}
		buf = make([]byte, 2*len(buf))
	}
}

// ownGoroutines is every goroutine labelled own, each as runtime.Stack
// prints it (its header, then its stack); the test's own goroutine is
// one of them.
func ownGoroutines(own string) []string {
	want := fmt.Sprintf(" labels:{%q: %q}]:", goroutineLabel, own)
	var gs []string
	for _, g := range strings.Split(allStacks(), "\n\n") {
		if head, _, _ := strings.Cut(g, "\n"); strings.HasSuffix(head, want) {
			gs = append(gs, g)
		}
	}
	return gs
}
