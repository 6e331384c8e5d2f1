package supervisor

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"clowder/persist"
)

func TestFindCgroup2MountInHybridHierarchy(t *testing.T) {
	info := `31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime shared:9 - cgroup2 cgroup2 rw
`
	mount, root, err := findCgroup2Mount([]byte(info))
	if err != nil || mount != "/sys/fs/cgroup/unified" || root != "/" {
		t.Fatalf("findCgroup2Mount = %q %q %v", mount, root, err)
	}
	if _, _, err := findCgroup2Mount([]byte("1 0 0:1 / / rw - ext4 /dev/sda rw\n")); err == nil {
		t.Fatal("found a cgroup2 mount in a table without one")
	}
	if got := unescapeMountinfo(`/mnt/my\040cgroup`); got != "/mnt/my cgroup" {
		t.Fatalf("unescape = %q", got)
	}
	if got := ownCgroup2Path([]byte("4:memory:/x\n0::/user.slice/a.scope\n")); got != "/user.slice/a.scope" {
		t.Fatalf("ownCgroup2Path = %q", got)
	}
}

// TestCgroupRequiredFailsWithoutWritableCgroup2 points the parent at a
// plain directory, which is not a cgroup2: required fails the spawn with
// an error saying what to do, auto falls back and says why.
func TestCgroupRequiredFailsWithoutWritableCgroup2(t *testing.T) {
	o := newOracle(t)
	parent := filepath.Join(t.TempDir(), "not-a-cgroup")
	spec := Spec{PaneID: "cg-" + o.Mark, Argv: []string{"true"}, Env: o.Env(), Pipe: &PipeArm{}}
	_, err := NewSpawner(Options{CgroupMode: persist.CgroupRequired, CgroupParent: parent}).Start(context.Background(), spec)
	if err == nil || !strings.Contains(err.Error(), "no writable cgroup2") || !strings.Contains(err.Error(), "cgroup mode auto or off") {
		t.Fatalf("required: %v", err)
	}
	r := start(t, NewSpawner(Options{CgroupMode: persist.CgroupAuto, CgroupParent: parent}), spec)
	c := r.Containment()
	if c.Kind != ContainProcessGroup || !strings.Contains(c.Fallback, "no writable cgroup2") || !c.Subreaper {
		t.Fatalf("auto containment %+v", c)
	}
	waitExit(t, r)
}

func TestCgroupLeafIsRemovedAfterExit(t *testing.T) {
	o := newOracle(t)
	sp := spawnerFor(t, persist.CgroupRequired)
	r := start(t, sp, Spec{PaneID: "leaf-" + o.Mark, Argv: []string{"true"}, Env: o.Env(), Pipe: &PipeArm{}})
	leaf := r.Containment().Cgroup
	if !r.Containment().Pidfd {
		t.Error("leader not held by a pidfd")
	}
	if e := waitExit(t, r); e.Reason != persist.ExitCompleted || e.Err != nil {
		t.Fatalf("exit %v: %v", e, e.Err)
	}
	if _, err := os.Stat(leaf); !os.IsNotExist(err) {
		t.Fatalf("leaf %s still there: %v", leaf, err)
	}
}

// TestDeadLeavesFindsEveryDeadHostsLeaf: a host SIGKILLed with its panes
// leaves its cgroup leaves behind; when its state dir is gone too (a test's
// temp dir, a user's deleted runtime dir), no agents.json names them, and
// they stayed for ever (1,012 of them on the machine this was found on).
// The next host of the same parent finds them by the dead host's pid in
// their names, and removes the empty ones; a live host's are left alone.
func TestDeadLeavesFindsEveryDeadHostsLeaf(t *testing.T) {
	sp := spawnerFor(t, persist.CgroupRequired)
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	parent, err := cgroupParentDir("")
	if err != nil {
		t.Fatal(err)
	}
	dead := filepath.Join(parent, fmt.Sprintf("p9.%d.1", gone.Process.Pid))
	fresh := filepath.Join(parent, fmt.Sprintf("p9.%d.2", gone.Process.Pid))
	live := filepath.Join(parent, fmt.Sprintf("p9.%d.99", os.Getpid()))
	for _, d := range []string{dead, fresh, live} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { _ = os.Remove(dead); _ = os.Remove(fresh); _ = os.Remove(live) })
	old := time.Now().Add(-2 * deadLeafAge)
	for _, d := range []string{dead, live} {
		if err := os.Chtimes(d, old, old); err != nil {
			t.Fatal(err)
		}
	}
	// A fresh leaf of a host that looks dead may be a host's in another
	// pid namespace, between the leaf's creation and its child's start.
	leaves := sp.DeadLeaves()
	if !slices.Contains(leaves, dead) || slices.Contains(leaves, live) || slices.Contains(leaves, fresh) {
		t.Fatalf("DeadLeaves = %v; want %s, and neither %s nor %s", leaves, dead, live, fresh)
	}
	removed, _ := CleanDeadLeaves(leaves, nil)
	if !slices.Contains(removed, dead) {
		t.Fatalf("CleanDeadLeaves removed %v; want %s", removed, dead)
	}
	if _, err := os.Stat(live); err != nil {
		t.Fatalf("the live host's leaf: %v", err)
	}
}

// Issue 12 (spawn): every spawn read /proc/self/mountinfo (the whole
// mount table) to find the cgroup2 mount again, and made and checked the
// leaves' parent again. The mount is read once; this process's own
// cgroup, a short file, is still read at each spawn, so a host moved to
// another cgroup puts its next leaves under it.
func TestLeavesReadTheMountTableOnce(t *testing.T) {
	sp := spawnerFor(t, persist.CgroupRequired)
	forgetCgroupFacts()
	before := mountinfoReads.Load()
	for i := range 3 {
		leaf, err := sp.newLeaf(fmt.Sprintf("once%d", i))
		if err != nil {
			t.Fatal(err)
		}
		if err := leaf.remove(); err != nil {
			t.Fatal(err)
		}
	}
	if n := mountinfoReads.Load() - before; n != 1 {
		t.Fatalf("3 leaves read /proc/self/mountinfo %d times, want 1", n)
	}
}

// The facts kept are dropped when they no longer work: with a stale
// cgroup2 mount remembered (a directory that is no cgroup, and a parent
// in it made earlier), the next leaf is made where the mount is now, and
// the failure is not reported.
func TestLeafIsMadeWhereTheCgroupMountIsNow(t *testing.T) {
	sp := spawnerFor(t, persist.CgroupRequired)
	want, err := cgroupParentDir("")
	if err != nil {
		t.Fatal(err)
	}
	stale := t.TempDir()
	cgroupFacts.mu.Lock()
	cgroupFacts.mount, cgroupFacts.root, cgroupFacts.ready = stale, "/", filepath.Join(stale, "clowder")
	cgroupFacts.mu.Unlock()
	leaf, err := sp.newLeaf("moved")
	if err != nil {
		t.Fatalf("leaf after the mount moved: %v", err)
	}
	defer leaf.remove()
	if filepath.Dir(leaf.path) != want {
		t.Fatalf("leaf made in %s, want %s", filepath.Dir(leaf.path), want)
	}
}
