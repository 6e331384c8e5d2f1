// The no-orphan oracle. Every process a test starts carries a marker
// variable unique to the test in its environment (inherited by everything
// it forks); the oracle records the identities of marked processes while
// the tree is up and, when the test ends, proves by identity that none of
// them, and no marked process at all, is still alive. Zombies count as
// dead. It reads the process table itself, so it does not trust the code
// it judges.

package testproc

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const oracleEnv = "CLOWDER_TEST_ORACLE"

var oracleSeq atomic.Uint64

// procID is a process's identity: its pid and its start time in clock
// ticks since boot, so a reused pid is a different process.
type procID struct {
	pid   int
	start uint64
}

func (id procID) String() string { return fmt.Sprintf("pid %d (start %d)", id.pid, id.start) }

// Oracle is one test's no-orphan check.
type Oracle struct {
	// Mark is unique to the test; it names the test's panes and cgroups.
	Mark string
	t    *testing.T
	mu   sync.Mutex
	seen map[procID]bool
}

// NewOracle registers the no-orphan check to run when t ends (after the
// test's own cleanups, which run later-registered-first). The caller makes
// the test process a child subreaper first, so orphans stay observable.
func NewOracle(t *testing.T) *Oracle {
	t.Helper()
	o := &Oracle{t: t, Mark: fmt.Sprintf("%d-%d", os.Getpid(), oracleSeq.Add(1)), seen: map[procID]bool{}}
	t.Cleanup(o.check)
	return o
}

// Env returns this process's environment plus the marker and extra. The
// race runtime sleeps a second at exit unless told not to, which would make
// every natural exit of a -race fake agent slow.
func (o *Oracle) Env(extra ...string) []string {
	base := append(os.Environ(), oracleEnv+"="+o.Mark, "GORACE=atexit_sleep_ms=0")
	return append(base, extra...)
}

// Observe records every live marked process and returns how many there are.
func (o *Oracle) Observe() int {
	live, err := markedLive(oracleEnv + "=" + o.Mark)
	if err != nil {
		o.t.Fatalf("oracle: %v", err)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, id := range live {
		o.seen[id] = true
	}
	return len(live)
}

// exitGrace is how long check waits for processes that are still ending.
const exitGrace = 5 * time.Second

// check fails the test if any observed identity or any marked process is
// alive, then SIGKILLs them so one failure does not leak into other tests.
func (o *Oracle) check() {
	left := o.leftovers()
	// A process killed just before the check may still be exiting (its
	// memory gone, not yet a zombie): give the kernel a moment, polling.
	for deadline := time.Now().Add(exitGrace); len(left) > 0 && time.Now().Before(deadline); left = o.leftovers() {
		time.Sleep(10 * time.Millisecond) // polling a condition with a deadline
	}
	for _, id := range left {
		o.t.Errorf("no-orphan oracle: %s is still alive", id)
		killIfSame(id) // best effort: cleanup after a failure
	}
}

// leftovers lists the observed or marked processes still alive.
func (o *Oracle) leftovers() []procID {
	o.Observe() // also catches processes the test never observed
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []procID
	for id := range o.seen {
		if stillAlive(id) {
			out = append(out, id)
		}
	}
	return out
}
