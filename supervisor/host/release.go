// Memory back to the system after a flood. While a pane floods, the Go
// runtime lets the heap grow to twice what is live before it collects,
// and what a collection frees it returns to the system only slowly: a
// pane that printed 10,000 lines left the host 4-5 MB more resident for
// 1.7 MB of scrollback and ring (issue 12, memory per history line). Once
// 256 KiB have been parsed and the panes have then been quiet for a
// second, the host collects and returns every free page at once (a
// forced collection: 1-2 ms of CPU for a heap of a few MB, after output
// that cost more to parse), after packing the panes' rings (ring.go).
// Nothing
// ticks while idle: the timer is armed only by output, and re-armed only
// while output goes on.

package host

import (
	"runtime/debug"
	"sync/atomic"
	"time"
)

// releaseAfter is how much output, parsed since the last release, arms
// the next one.
const releaseAfter = 256 << 10

// releaseQuiet is how long the panes must have been quiet.
const releaseQuiet = time.Second

// memRelease returns free memory to the system once a flood has ended.
type memRelease struct {
	free   func()        // (*Server).releaseMemory; nil: release nothing
	quiet  time.Duration // releaseQuiet (tests shorten it)
	since  atomic.Int64  // bytes parsed since the last release
	last   atomic.Int64  // when output was last parsed, in Unix ns
	armed  atomic.Bool   // a timer will release
	frees  atomic.Int64  // releases done, for tests
	timers atomic.Int64  // timers started, for tests
}

// parsed counts n bytes of output parsed at now: two atomic operations
// a chunk, and a timer once releaseAfter bytes have come.
func (m *memRelease) parsed(n int, now time.Time) {
	if m.free == nil {
		return
	}
	m.last.Store(now.UnixNano())
	if m.since.Add(int64(n)) >= releaseAfter && m.armed.CompareAndSwap(false, true) {
		m.arm(m.quiet)
	}
}

func (m *memRelease) arm(d time.Duration) {
	m.timers.Add(1)
	time.AfterFunc(d, m.fire)
}

// fire releases once the panes have been quiet for m.quiet, or waits for
// that.
func (m *memRelease) fire() {
	if wait := time.Until(time.Unix(0, m.last.Load()).Add(m.quiet)); wait > 0 {
		m.arm(wait) // output came meanwhile
		return
	}
	m.since.Store(0)
	m.armed.Store(false)
	m.frees.Add(1)
	m.free()
}

// releaseMemory packs every pane's ring, then collects and returns every
// free page to the system.
func (h *Server) releaseMemory() {
	var pk packer
	for _, p := range h.allPanes() {
		p.ring.pack(&pk)
	}
	debug.FreeOSMemory()
}
