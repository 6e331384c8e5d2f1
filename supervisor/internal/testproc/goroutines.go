package testproc

// Goroutines of one test. A test that counts or inspects goroutines by
// scanning every goroutine of the process also sees other tests' (one
// still ending its reader when the next test looks), and fails or proves
// nothing. A profiler label set on the test's goroutine is inherited by
// every goroutine it starts, and by theirs in turn, and with GODEBUG
// tracebacklabels=1 (Go 1.26) runtime.Stack prints it in each goroutine's
// header: the test sees only what it started.

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// goroutineLabel is the profiler label key naming a test's goroutines.
const goroutineLabel = "clowder-test"

var labelSeq atomic.Uint64

// LabelGoroutines labels t's goroutine, and so every goroutine it starts
// from now on, with a value unique to this call (a test run twice by
// -count gets two), turns on the labels in stack dumps for the test's
// duration, and returns the value for OwnGoroutines. t must not be
// parallel (it sets GODEBUG).
func LabelGoroutines(t testing.TB) string {
	t.Helper()
	t.Setenv("GODEBUG", strings.TrimPrefix(os.Getenv("GODEBUG")+",tracebacklabels=1", ","))
	value := fmt.Sprintf("%s#%d", t.Name(), labelSeq.Add(1))
	pprof.SetGoroutineLabels(pprof.WithLabels(context.Background(), pprof.Labels(goroutineLabel, value)))
	return value
}

// OwnGoroutines is every goroutine labelled value, each as runtime.Stack
// prints it: the header "goroutine N [state labels:{...}]:", then its
// stack. The goroutines of other tests are left out.
func OwnGoroutines(value string) []string {
	want := " labels:{" // the runtime sorts the keys; ours is the only one
	want += strconv.Quote(goroutineLabel) + ": " + strconv.Quote(value) + "}]:"
	var own []string
	for _, g := range strings.Split(AllStacks(), "\n\n") {
		if head, _, _ := strings.Cut(g, "\n"); strings.HasSuffix(head, want) {
			own = append(own, g)
		}
	}
	return own
}

// AllStacks is every goroutine's stack, as runtime.Stack prints them.
func AllStacks() string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return string(buf[:n])
		}
		buf = make([]byte, 2*len(buf))
	}
}

// GoroutineState is the scheduler state in a goroutine's header, as
// runtime.Stack prints it: "IO wait", "running", "syscall".
func GoroutineState(g string) string {
	head, _, _ := strings.Cut(g, "\n")
	_, state, _ := strings.Cut(head, "[")
	state, _, _ = strings.Cut(state, "]")
	state, _, _ = strings.Cut(state, ",")        // "IO wait, 2 minutes"
	state, _, _ = strings.Cut(state, " labels:") // "IO wait labels:{...}"
	return state
}
