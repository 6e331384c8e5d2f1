// How many processors the host's goroutines run on. One, while at most one
// pane floods and a client watches it: a watched flood read on one
// processor and parsed on the other crossed threads for every chunk and
// every frame, and each crossing (a parse goroutine started on an idle
// processor, a reader woken by the poller on the other, a subscriber's
// writer woken for a frame) woke a sleeping thread and had the spare one
// poll the network in a loop. On the 2-core machine of issue 12 that was
// 11-14 ms of host and TUI CPU a MB against 8.5-9 on one processor, for
// the same rate.
//
// A flood nobody watches raises it to every processor: the reader reads
// the PTY on one while the parse goroutine parses on the other, and the
// kernel refills the PTY meanwhile. On one processor the three took turns,
// and the program writing waited for each: 57-66 MB/s against 112-122 on
// two, for the same CPU per MB (session 22, bench/profiles/procs.md).
//
// Two panes flooding at once raise it too, with one processor kept from
// parsing (parseSlots): on one processor nothing polls the network while
// parse goroutines run but the runtime's monitor, every 10 ms, so a key
// typed beside seven floods showed after 9 ms instead of 4.5. A second
// without such floods lowers it again. Nothing ticks: the timer is armed
// only when a flood ends on a raised host.

package host

import (
	"sync"
	"time"
)

// procsLowerAfter is how long the host stays on every processor once no
// two panes flood at once and no unwatched one does.
const procsLowerAfter = time.Second

// procGovernor sets the runtime's processors from the panes parsing. The
// zero procGovernor does nothing (tests and benchmarks that run a host in
// their own process, where the processors are not the host's to set).
type procGovernor struct {
	set     func(int) int // runtime.GOMAXPROCS; nil: leave it alone
	all     int           // the processors the host may use: GOMAXPROCS at start
	mu      sync.Mutex
	parsing int         // panes with a parse goroutine
	alone   int         // of those, panes no client watched as it started
	raised  bool        // running on all
	lower   *time.Timer // armed while raised and at most one pane parses
	stopped bool        // stop ran: the processors stay the runtime's
}

// manage makes g set the runtime's processors: one from now on, all while
// two panes or more parse at once or one that nobody watches does. After
// stop it does nothing.
func (g *procGovernor) manage(set func(int) int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stopped {
		return
	}
	g.set, g.all = set, set(0)
	switch {
	case g.all < 2:
	case g.busy():
		g.raised = true // floods began before: stay on all until they calm
	default:
		g.set(1)
	}
}

// busy reports that the floods want every processor; g.mu is held.
func (g *procGovernor) busy() bool { return g.parsing > 1 || g.alone > 0 }

// started counts a pane's parse goroutine in; watched tells that a client
// watches the pane's screen. ended must be given the same.
func (g *procGovernor) started(watched bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.parsing++
	if !watched {
		g.alone++
	}
	if g.set == nil || !g.busy() || g.all < 2 {
		return
	}
	if g.lower != nil {
		g.lower.Stop()
	}
	if !g.raised {
		g.raised = true
		g.set(g.all)
	}
}

// ended counts a pane's parse goroutine out.
func (g *procGovernor) ended(watched bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.parsing--
	if !watched {
		g.alone--
	}
	if !g.raised || g.busy() {
		return
	}
	if g.lower == nil {
		g.lower = time.AfterFunc(procsLowerAfter, g.lowerIfCalm)
		return
	}
	g.lower.Reset(procsLowerAfter)
}

// lowerIfCalm goes back to one processor unless floods want all again.
func (g *procGovernor) lowerIfCalm() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.set != nil && g.raised && !g.busy() {
		g.raised = false
		g.set(1)
	}
}

// stop disarms the timer and gives the runtime back all its processors.
func (g *procGovernor) stop() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.lower != nil {
		g.lower.Stop()
	}
	if g.set != nil && g.all > 1 {
		g.set(g.all)
	}
	g.set, g.raised, g.stopped = nil, false, true
}
