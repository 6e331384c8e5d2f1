package supervisor

import (
	"os"
	"testing"
)

// maxReadProcAllocs bounds the allocations of one /proc/PID/stat read.
const maxReadProcAllocs = 6

// TestReadProcIsLean pins issue 12 (cold start, host CPU): the kill
// ladder's scans read every process's stat (two to three scans of all of
// /proc per exit), each through os.ReadFile, which costs an *os.File with
// its cleanup, a poller registration attempt and about nine syscalls:
// 40% of the host's CPU for a `new -- true` and its exit. A read is now
// open, read, close on a stack buffer.
func TestReadProcIsLean(t *testing.T) {
	pid := os.Getpid()
	if _, err := readProc(pid); err != nil {
		t.Fatal(err)
	}
	// AllocsPerRun counts the whole process's allocations, and the
	// package's other tests leave goroutines behind (the orphan reaper
	// makes a pass at each SIGCHLD): the fewest of five rounds is
	// readProc's own.
	allocs := float64(1 << 30)
	for range 5 {
		allocs = min(allocs, testing.AllocsPerRun(50, func() {
			if _, err := readProc(pid); err != nil {
				t.Fatal(err)
			}
		}))
	}
	if allocs > maxReadProcAllocs {
		t.Fatalf("readProc makes %.0f allocations; at most %d", allocs, maxReadProcAllocs)
	}
	if _, err := readProc(1 << 30); err == nil {
		t.Fatal("readProc of a pid that cannot exist succeeded")
	}
}
