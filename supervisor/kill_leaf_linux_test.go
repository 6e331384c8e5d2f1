package supervisor

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"clowder/persist"
	"clowder/supervisor/internal/testproc"
)

// Issue 12 (cold start, stop): the ladder of every run, at each look,
// read the stat of every process on the machine, two or three times for
// a run that simply exited, and 38% of the host's CPU for a `new --
// true` went there. A run with a cgroup leaf finds its members in the
// leaf, among what it tracked, their children and the host's re-parented
// children: it scans no process table, whether it exits by itself, with
// a setsid grandchild left in the leaf, or is killed.
func TestLadderOfARunInALeafScansNoProcessTable(t *testing.T) {
	if _, err := os.Stat(fmt.Sprintf("/proc/self/task/%d/children", os.Getpid())); err != nil {
		t.Skipf("no task children files here (CONFIG_PROC_CHILDREN): the host's children come from a scan: %v", err)
	}
	for _, tc := range []struct {
		mode   string
		kill   bool
		escape bool
	}{{mode: "exit"}, {mode: "setsid", kill: true, escape: true}, {mode: "tree", kill: true}} {
		t.Run(tc.mode, func(t *testing.T) {
			o := newOracle(t)
			sp := spawnerFor(t, persist.CgroupRequired)
			out := testproc.NewSyncBuffer()
			before, looks := procScans.Load(), treeLooks.Load()
			r := start(t, sp, fakeSpec(o, out, tc.mode))
			var e Exit
			if tc.kill {
				out.WaitContains(t, "READY")
				o.Observe()
				var err error
				if e, err = r.Kill(r.Identity(), 0); err != nil {
					t.Fatal(err)
				}
			} else {
				e = waitExit(t, r)
			}
			if len(e.Kill.Survivors) > 0 || (tc.escape && len(e.Kill.Escaped) == 0) {
				t.Fatalf("exit %v, report %+v", e, e.Kill)
			}
			if n := procScans.Load() - before; n != 0 {
				t.Errorf("the run's start, ladder and exit scanned all of /proc %d times, want 0", n)
			}
			// A run that ended by itself with nothing left: one look
			// finds the tree empty, and nothing is looked for again.
			if n := treeLooks.Load() - looks; !tc.kill && n != 1 {
				t.Errorf("the ladder of a run that simply exited looked at its tree %d times, want 1", n)
			}
		})
	}
}

// The leaf is not the whole tree: a process that moved itself out of it
// (here into the leaves' parent) and out of the run's session and group,
// while its parent, a member, lives, is found as that member's child, so
// the ladder's first signal reaches it (no group signal does). Here it
// dies of that SIGTERM, and the leader, which ignores SIGTERM, exits once
// it has: the ladder never needs SIGKILL. Were it found only once
// re-parented to the subreaper, after the leader's SIGKILL, the ladder
// would wait out the whole grace and force it.
func TestLadderSignalsAMemberThatLeftTheLeaf(t *testing.T) {
	o := newOracle(t)
	sp := spawnerFor(t, persist.CgroupRequired)
	parent, err := cgroupParentDir("")
	if err != nil {
		t.Fatal(err)
	}
	out := testproc.NewSyncBuffer()
	script := fmt.Sprintf(`setsid sh -c 'echo $$ > %s; echo MOVED $$; exec sleep 1000' & trap "" TERM HUP; wait; exit 0`,
		filepath.Join(parent, "cgroup.procs"))
	spec := Spec{PaneID: "left-" + o.Mark, Argv: []string{"sh", "-c", script}, Env: o.Env(),
		PTY: &PTYArm{Output: out}, Limits: Limits{Grace: testproc.WaitFor}}
	r := start(t, sp, spec)
	m := regexp.MustCompile(`MOVED (\d+)`).FindStringSubmatch(out.WaitContains(t, "MOVED"))
	o.Observe()
	pid, _ := strconv.Atoi(m[1])
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", pid)); err != nil || strings.Contains(string(b), filepath.Base(r.Containment().Cgroup)) {
		t.Fatalf("the process never left the leaf: %q %v", b, err)
	}
	e, err := r.Kill(r.Identity(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Kill.Survivors) > 0 || e.Kill.Forced || !escapedPids(e.Kill)[pid] {
		t.Fatalf("exit %v, report %+v; want %d escaped, ended by SIGTERM", e, e.Kill, pid)
	}
}
