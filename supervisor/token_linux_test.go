package supervisor

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"syscall"
	"testing"

	"clowder/supervisor/internal/testproc"
)

// startTokenProc starts a sleeping fake in its own session with env
// added, and returns its identity; it is killed when the test ends.
func startTokenProc(t *testing.T, o *testproc.Oracle, env ...string) Identity {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = o.Env(append(env, testproc.FakeAgentEnv+"=sleep")...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }() // the orphan reaper may reap it first: either is fine
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-done })
	return waitIdentity(t, cmd.Process.Pid)
}

// The token scan behind issue 10's setsid survivors without a cgroup: one
// pass over /proc finds every process carrying a pane's token, only those
// started at or after the run's BootTicks, and an adopted tree with no
// leader made of them is killed whole by identity.
func TestTokenScanFindsAPanesProcessesStartedSinceItsRun(t *testing.T) {
	o := newOracle(t)
	tok, other := NewPaneToken(), NewPaneToken()
	early := startTokenProc(t, o, PaneTokenEnv+"="+tok)
	if !waitUntil(testproc.WaitFor, func() bool { now, err := BootTicks(); return err == nil && now > early.Start }) {
		t.Fatal("the boot clock never passed the start of a process started before it was read")
	}
	since, err := BootTicks()
	if err != nil {
		t.Fatal(err)
	}
	mine := startTokenProc(t, o, PaneTokenEnv+"="+tok)
	theirs := startTokenProc(t, o, PaneTokenEnv+"="+other)
	none := startTokenProc(t, o)

	scan, err := ScanPaneTokens()
	if err != nil {
		t.Fatal(err)
	}
	if got := scan.Carriers(tok, since); !slices.Equal(got, []Identity{mine}) {
		t.Errorf("carriers of the token since the run: %v; want only %v (not %v, started before it)", got, mine, early)
	}
	if got := scan.Carriers(other, since); !slices.Equal(got, []Identity{theirs}) {
		t.Errorf("carriers of another token: %v; want %v", got, theirs)
	}
	if got := scan.Carriers(tok, 0); len(got) != 2 || slices.Contains(got, none) {
		t.Errorf("carriers of the token at any time: %v; want %v and %v", got, early, mine)
	}

	tree := AdoptTree(TreeSpec{PaneID: "p-token", Found: scan.Carriers(tok, since)})
	if got := tree.Survivors(); !slices.Equal(got, []Identity{mine}) || tree.LeaderAlive() {
		t.Fatalf("leaderless tree: survivors %v, leader alive %v; want %v and no leader", got, tree.LeaderAlive(), mine)
	}
	if rep := tree.Kill(0, 0, testproc.WaitFor); len(rep.Survivors) != 0 || !tree.Empty() {
		t.Fatalf("kill of a leaderless tree: %+v", rep)
	}
	for _, id := range []Identity{early, theirs, none} {
		if now, err := ReadIdentity(id.PID); err != nil || now != id {
			t.Errorf("%v outside the tree was hit: %v %v", id, now, err)
		}
	}
}

// A run carries its own pane's token and no other (a pane started from
// inside another inherits the outer one's from the client), and its
// containment is given to BeforeFork, once, before the process exists: the
// host records the leaf there before anything can run in it.
func TestRunCarriesItsTokenAndShowsItsContainmentBeforeFork(t *testing.T) {
	for _, cm := range cgroupModes {
		t.Run(cm.name, func(t *testing.T) {
			o := newOracle(t)
			sp := spawnerFor(t, cm.mode)
			spec := fakeSpec(o, testproc.NewSyncBuffer(), "sleep", PaneTokenEnv+"=outer")
			spec.Token = "inner"
			var seen []Containment
			spec.BeforeFork = func(c Containment) {
				if pids, _ := leafPids(c.Cgroup); len(pids) != 0 {
					t.Errorf("BeforeFork ran with %v already in the leaf", pids)
				}
				seen = append(seen, c)
			}
			r := start(t, sp, spec)
			if len(seen) != 1 || seen[0].Cgroup != r.Containment().Cgroup {
				t.Errorf("BeforeFork saw %+v; want once, with the run's containment %+v", seen, r.Containment())
			}
			// Start returns once the exec is past its point of no return,
			// which is before the kernel records where the new image's
			// environment lies: until then environ reads empty.
			var env []byte
			if !waitUntil(testproc.WaitFor, func() bool {
				env, _ = os.ReadFile(fmt.Sprintf("/proc/%d/environ", r.Identity().PID))
				return len(env) > 0
			}) {
				t.Fatalf("the run's environment never showed in /proc/%d/environ", r.Identity().PID)
			}
			if got := envValues(env, PaneTokenEnv); !slices.Equal(got, []string{"inner"}) {
				t.Errorf("the run's %s values: %q; want only its own", PaneTokenEnv, got)
			}
		})
	}
}

// leafPids lists the processes in a cgroup leaf ("" has none).
func leafPids(leaf string) ([]int, error) {
	if leaf == "" {
		return nil, nil
	}
	return (&cgroupLeaf{path: leaf, dirfd: -1}).procs()
}

// BenchmarkScanPaneTokens is the cost of the one scan a host makes at
// start for every pane recorded live.
func BenchmarkScanPaneTokens(b *testing.B) {
	for b.Loop() {
		if _, err := ScanPaneTokens(); err != nil {
			b.Fatal(err)
		}
	}
}

// A host started from inside a pane (a client there starts it on demand)
// inherits the pane's environment, token included, and is a descendant
// of the pane's processes while that client waits: an adopted tree must
// never count the host itself, or `kill` of that orphan would end the
// host.
func TestAdoptedTreeNeverCountsThisProcess(t *testing.T) {
	self, err := ReadIdentity(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	tree := AdoptTree(TreeSpec{PaneID: "p-self", Found: []Identity{self}})
	if got := tree.Survivors(); len(got) != 0 || !tree.Empty() {
		t.Fatalf("an adopted tree counts this process: survivors %v", got)
	}
}
