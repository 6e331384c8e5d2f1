package supervisor

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"testing"
	"time"

	"clowder/persist"
	"clowder/supervisor/internal/testproc"
)

// childPid parses the "CHILD <pid>" line the fake agent prints.
func childPid(t *testing.T, out string) int {
	t.Helper()
	m := regexp.MustCompile(`CHILD (\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no CHILD line in %q", out)
	}
	pid, _ := strconv.Atoi(m[1])
	return pid
}

func escapedPids(rep KillReport) map[int]bool {
	out := map[int]bool{}
	for _, id := range rep.Escaped {
		out[id.PID] = true
	}
	return out
}

func TestKillLadderLeavesNothingAlive(t *testing.T) {
	cases := []struct {
		name       string
		mode       string
		argv       []string // overrides the fake agent
		ready      string
		readies    int // how many ready lines the tree prints; 0 means 1
		wantForced bool
		escapes    bool // a grandchild outside the group must be reported
	}{
		{name: "child ignores SIGTERM", mode: "ignore-term", ready: "READY", wantForced: true},
		// The grandchild prints READY too, and may do so before its parent
		// prints CHILD: wait for both READY lines, so CHILD is in the text.
		{name: "setsid grandchild", mode: "setsid", ready: "READY", readies: 2, wantForced: true, escapes: true},
		{name: "background job", mode: "bg-job", ready: "READY", readies: 2, wantForced: true, escapes: true},
		{name: "sleep spawner", argv: []string{"sh", "-c", "echo READY; while :; do sleep 1 & done"}, ready: "READY"},
	}
	for _, cm := range cgroupModes {
		for _, tc := range cases {
			t.Run(cm.name+"/"+tc.name, func(t *testing.T) {
				o := newOracle(t)
				sp := spawnerFor(t, cm.mode)
				out := testproc.NewSyncBuffer()
				spec := fakeSpec(o, out, tc.mode)
				if tc.argv != nil {
					spec.Argv = tc.argv
				}
				r := start(t, sp, spec)
				text := out.WaitCount(t, tc.ready, max(tc.readies, 1))
				if got := r.Containment().Kind; (got == ContainCgroup) != (cm.mode == persist.CgroupRequired) {
					t.Fatalf("containment %v for mode %v", r.Containment(), cm.mode)
				}
				if n := o.Observe(); n < 1 {
					t.Fatalf("oracle saw %d processes", n)
				}
				e, err := r.Kill(r.Identity(), 0)
				if err != nil {
					t.Fatalf("Kill: %v", err)
				}
				if e.Reason != persist.ExitKilled || len(e.Kill.Survivors) > 0 {
					t.Fatalf("exit %v, survivors %v, err %v", e, e.Kill.Survivors, e.Err)
				}
				if tc.wantForced && !e.Kill.Forced {
					t.Errorf("ladder did not need SIGKILL against a SIGTERM-ignoring tree")
				}
				if tc.escapes && !escapedPids(e.Kill)[childPid(t, text)] {
					t.Errorf("escaped grandchild %d not reported; report %+v", childPid(t, text), e.Kill)
				}
			})
		}
	}
}

// TestNaturalExitKillsLeftoverTree pins the subreaper path: the leader
// exits on its own after its child died, leaving a setsid grandchild that
// ignores SIGTERM and that no scan has seen; finalize must find it
// (re-parented to us, still carrying CLOWDER_PANE_ID) and kill it.
func TestNaturalExitKillsLeftoverTree(t *testing.T) {
	for _, cm := range cgroupModes {
		t.Run(cm.name, func(t *testing.T) {
			o := newOracle(t)
			sp := spawnerFor(t, cm.mode)
			out := testproc.NewSyncBuffer()
			spec := fakeSpec(o, out, "setsid")
			spec.Argv = []string{"sh", "-c", fmt.Sprintf("%s; exit 7", os.Args[0])}
			r := start(t, sp, spec)
			out.WaitContains(t, "READY")
			o.Observe()
			// sh waits for the fake agent; killing only it lets sh exit 7
			// while the setsid grandchild lives on.
			agent := childOf(t, r.Identity().PID)
			if err := SignalProcess(agent, 9); err != nil {
				t.Fatal(err)
			}
			e := waitExit(t, r)
			if e.Reason != persist.ExitFailed || e.Code != 7 || len(e.Kill.Survivors) > 0 {
				t.Fatalf("exit %v code %d, report %+v", e, e.Code, e.Kill)
			}
			if len(e.Kill.Escaped) == 0 {
				t.Errorf("leftover setsid grandchild not reported: %+v", e.Kill)
			}
		})
	}
}

// childOf returns the identity of pid's only child, waiting for it.
func childOf(t *testing.T, pid int) Identity {
	t.Helper()
	var id Identity
	ok := waitUntil(testproc.WaitFor, func() bool {
		procs, err := listProcs()
		if err != nil {
			t.Fatal(err)
		}
		kids := procs.children(pid)
		if len(kids) == 1 {
			id = procs[kids[0]].ID
		}
		return len(kids) == 1
	})
	if !ok {
		t.Fatalf("pid %d never had exactly one child", pid)
	}
	return id
}

func TestTimeoutKillsSleeperTree(t *testing.T) {
	for _, cm := range cgroupModes {
		t.Run(cm.name, func(t *testing.T) {
			o := newOracle(t)
			sp := spawnerFor(t, cm.mode)
			out := testproc.NewSyncBuffer()
			spec := fakeSpec(o, out, "tree")
			spec.Limits.Timeout = 500 * time.Millisecond
			r := start(t, sp, spec)
			out.WaitContains(t, "READY")
			o.Observe()
			e := waitExit(t, r)
			if e.Reason != persist.ExitTimeout || len(e.Kill.Survivors) > 0 {
				t.Fatalf("exit %v, report %+v", e, e.Kill)
			}
		})
	}
}
