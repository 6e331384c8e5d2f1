// The no-orphan oracle. Every process a test starts carries a marker
// variable unique to the test in its environment (inherited by everything
// it forks); the oracle records the identities of marked processes while
// the tree is up and, when the test ends, proves by identity that none of
// them, and no marked process at all, is still alive. Zombies count as
// dead.

package supervisor

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
)

const oracleEnv = "CLOWDER_TEST_ORACLE"

var oracleSeq atomic.Uint64

type oracle struct {
	t    *testing.T
	mark string
	mu   sync.Mutex
	seen map[Identity]bool
}

// newOracle registers the no-orphan check to run when t ends (after the
// test's own cleanups, which run later-registered-first).
func newOracle(t *testing.T) *oracle {
	t.Helper()
	mustSubreaper(t)
	o := &oracle{t: t, mark: fmt.Sprintf("%d-%d", os.Getpid(), oracleSeq.Add(1)), seen: map[Identity]bool{}}
	t.Cleanup(o.check)
	return o
}

// env returns this process's environment plus the marker and extra. The
// race runtime sleeps a second at exit unless told not to, which would make
// every natural exit of a -race fake agent slow.
func (o *oracle) env(extra ...string) []string {
	base := append(os.Environ(), oracleEnv+"="+o.mark, "GORACE=atexit_sleep_ms=0")
	return append(base, extra...)
}

// observe records every live marked process and returns how many there are.
func (o *oracle) observe() int {
	live := o.live()
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, id := range live {
		o.seen[id] = true
	}
	return len(live)
}

// live scans /proc for live processes carrying the marker.
func (o *oracle) live() []Identity {
	procs, err := listProcs()
	if err != nil {
		o.t.Fatalf("oracle: %v", err)
	}
	want := []byte(oracleEnv + "=" + o.mark + "\x00")
	var out []Identity
	for pid, p := range procs {
		env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
		if err == nil && p.alive() && bytes.Contains(env, want) {
			out = append(out, p.ID)
		}
	}
	return out
}

// check fails the test if any observed identity or any marked process is
// alive, then SIGKILLs them so one failure does not leak into other tests.
func (o *oracle) check() {
	o.observe() // also catches processes the test never observed
	o.mu.Lock()
	defer o.mu.Unlock()
	for id := range o.seen {
		if actualIdentity(id.PID) == id {
			o.t.Errorf("no-orphan oracle: %s is still alive", id)
			_ = SignalProcess(id, syscall.SIGKILL) // best effort: cleanup after a failure
		}
	}
}
