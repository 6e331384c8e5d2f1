// How many processors the host's goroutines run on. One, while at most one
// pane floods: a flood read on one processor and parsed on the other
// crossed threads for every chunk, and each crossing (a parse goroutine
// started on an idle processor, a reader woken by the poller on the other)
// woke a sleeping thread and had the spare one poll the network in a loop.
// On the 2-core machine of issue 12 that was half the host's CPU in a
// flood: 14-15 ms a MB against 7-8 on one processor, which moved more (59
// against 53 MB/s alone, 68 against 54 with the TUI attached). Two panes
// flooding at once raise it to every processor the host had, with one of
// them kept from parsing (parseSlots): on one processor nothing polls the
// network while parse goroutines run but the runtime's monitor, every
// 10 ms, so a key typed beside seven floods showed after 9 ms instead of
// 4.5. A second without two floods lowers it again. Nothing ticks: the
// timer is armed only when a flood ends on a raised host.

package host

import (
	"sync"
	"time"
)

// procsLowerAfter is how long the host stays on every processor once no
// two panes flood at once.
const procsLowerAfter = time.Second

// procGovernor sets the runtime's processors from the panes parsing. The
// zero procGovernor does nothing (tests and benchmarks that run a host in
// their own process, where the processors are not the host's to set).
type procGovernor struct {
	set     func(int) int // runtime.GOMAXPROCS; nil: leave it alone
	all     int           // the processors the host may use: GOMAXPROCS at start
	mu      sync.Mutex
	parsing int         // panes with a parse goroutine
	raised  bool        // running on all
	lower   *time.Timer // armed while raised and at most one pane parses
	stopped bool        // stop ran: the processors stay the runtime's
}

// manage makes g set the runtime's processors: one from now on, all while
// two panes or more parse at once. After stop it does nothing.
func (g *procGovernor) manage(set func(int) int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stopped {
		return
	}
	g.set, g.all = set, set(0)
	switch {
	case g.all < 2:
	case g.parsing > 1:
		g.raised = true // floods began before: stay on all until they calm
	default:
		g.set(1)
	}
}

// started counts a pane's parse goroutine in.
func (g *procGovernor) started() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.parsing++
	if g.set == nil || g.parsing < 2 || g.all < 2 {
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
func (g *procGovernor) ended() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.parsing--
	if !g.raised || g.parsing > 1 {
		return
	}
	if g.lower == nil {
		g.lower = time.AfterFunc(procsLowerAfter, g.lowerIfCalm)
		return
	}
	g.lower.Reset(procsLowerAfter)
}

// lowerIfCalm goes back to one processor unless two panes parse again.
func (g *procGovernor) lowerIfCalm() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.set != nil && g.raised && g.parsing <= 1 {
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
