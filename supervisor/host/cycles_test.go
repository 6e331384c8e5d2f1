package host

import (
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"clowder/persist"
	"clowder/supervisor/proto"
)

// faultRounds is how many times a fault-injection test repeats: fast in
// `make test`, full under `make faults` (CLOWDER_FAULTS=full).
func faultRounds(fast, full int) int {
	if os.Getenv("CLOWDER_FAULTS") == "full" {
		return full
	}
	return fast
}

// Issue 10 §5, "1,000 spawn/kill cycles": after many panes are spawned
// and killed, the host's fds and live heap are back at their baseline
// (taken once the exited panes it keeps, host.keep_exited, are as many as
// they will be), and no child is left a zombie.
func TestSpawnKillCyclesLeakNothing(t *testing.T) {
	const keep = 5
	// A small ring, so that the heap's slack for a pane held a little
	// longer (one ring) stays far below what a leak of every cycle adds.
	th := startHost(t, func(c *persist.Config) { c.Host.KeepExited, c.Host.RingBytes = keep, 64<<10 })
	c := th.dial()
	cycle := func(i int) {
		req := &proto.SpawnReq{Nonce: "cycle-" + strconv.Itoa(i), Argv: []string{"sleep", "1000"}, Kind: "run", Env: th.o.Env()}
		p := c.call(req).(*proto.SpawnedReply).Pane
		c.call(&proto.KillReq{Pane: p.ID})
	}
	// Zombies another test left (its own waiter gone) are not the cycles'.
	zombies0 := zombieChildren(t)
	for i := range 2 * keep {
		cycle(i)
	}
	fds0, heap0, rss0, g0 := openFds(t), liveHeap(), residentBytes(t), runtime.NumGoroutine()
	n := faultRounds(100, 1000)
	for i := range n {
		cycle(2*keep + i)
	}
	// Exits finish in the background (reaping, the registry save): wait
	// for each figure to come back, for a minute at most.
	eventually(t, "no zombie children", func() bool { return len(newZombies(zombieChildren(t), zombies0)) == 0 })
	eventually(t, "goroutines back at their baseline of "+strconv.Itoa(g0), func() bool { return runtime.NumGoroutine() <= g0 })
	eventually(t, "fds back at their baseline of "+strconv.Itoa(fds0), func() bool { return openFds(t) <= fds0 })
	// A cycle that kept its pane (a ring, two screens of cells, 100 KiB
	// at 80x24) or a fifth of it would grow the heap by more than this.
	eventually(t, "the live heap back at its baseline", func() bool { return liveHeap() <= heap0+1<<20 })
	t.Logf("after %d spawn/kill cycles: %d fds (baseline %d), live heap %.1f MiB (baseline %.1f), RSS %.1f MiB (baseline %.1f)",
		n, openFds(t), fds0, mib(liveHeap()), mib(heap0), mib(residentBytes(t)), mib(rss0))
	if l := c.call(&proto.ListReq{}).(*proto.PaneListReply); len(l.Panes) != keep {
		t.Errorf("the host keeps %d panes, want host.keep_exited = %d", len(l.Panes), keep)
	}
}

// openFds counts this process's open fds (the host runs in it).
func openFds(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

// mib is n bytes in MiB.
func mib(n int64) float64 { return float64(n) / (1 << 20) }

// newZombies is the zombies in now that were not zombies already (a
// zombie's pid is not reused until it is reaped).
func newZombies(now, before []int) []int {
	var out []int
	for _, pid := range now {
		if !slices.Contains(before, pid) {
			out = append(out, pid)
		}
	}
	return out
}

// zombieChildren lists this process's children that are zombies (exited,
// never waited for).
func zombieChildren(t *testing.T) []int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	me := strconv.Itoa(os.Getpid())
	for _, e := range ents {
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so split after ')'.
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(f) > 1 && f[0] == "Z" && f[1] == me {
			pid, _ := strconv.Atoi(e.Name())
			out = append(out, pid)
		}
	}
	return out
}
