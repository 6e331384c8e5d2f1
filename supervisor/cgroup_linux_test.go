package supervisor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
