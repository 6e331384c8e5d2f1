// Per-run cgroup v2 leaves on Linux. The cgroup2 mount is found in
// /proc/self/mountinfo (hybrid hierarchies mount it at
// /sys/fs/cgroup/unified, so /sys/fs/cgroup is never assumed). A child is
// cloned straight into its leaf (CLONE_INTO_CGROUP via
// SysProcAttr.UseCgroupFD), so nothing it forks can start outside it.

package supervisor

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// cgroupLeaf is one run's cgroup directory. Methods are safe for concurrent
// use except closeDir, which the spawner calls once after the clone.
type cgroupLeaf struct {
	path  string
	dirfd int // open for CLONE_INTO_CGROUP until closeDir; -1 after
}

// cgroupParentDir resolves the directory under which leaves are created:
// configured when set, else <cgroup2 mount>/<our own cgroup>/clowder.
// The mount is read once (cgroupFacts); our own cgroup at each call.
func cgroupParentDir(configured string) (string, error) {
	if configured != "" {
		return configured, nil
	}
	mount, root, err := cgroup2Mount()
	if err != nil {
		return "", err
	}
	self, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", fmt.Errorf("read own cgroup: %w", err)
	}
	own := strings.TrimPrefix(ownCgroup2Path(self), root)
	return filepath.Join(mount, own, "clowder"), nil
}

// cgroupFacts keeps what making a leaf needs and what changes only with
// the machine's mounts: the cgroup2 mount (a read of the whole mount
// table), and the parent directory last made and checked to be a
// cgroup2 directory. Every spawn found both again (issue 12). A leaf
// that cannot be made with them drops them (forgetCgroupFacts) and is
// tried once more with facts read afresh.
var cgroupFacts struct {
	mu          sync.Mutex
	mount, root string // the cgroup2 mount point and its root; "" until read
	ready       string // the parent known to exist as a cgroup2 directory
}

// mountinfoReads counts the reads of /proc/self/mountinfo, for tests.
var mountinfoReads atomic.Int64

// cgroup2Mount is the cgroup2 mount point and root, read once.
func cgroup2Mount() (mount, root string, err error) {
	cgroupFacts.mu.Lock()
	defer cgroupFacts.mu.Unlock()
	if cgroupFacts.mount != "" {
		return cgroupFacts.mount, cgroupFacts.root, nil
	}
	mountinfoReads.Add(1)
	info, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return "", "", fmt.Errorf("find cgroup2 mount: %w", err)
	}
	if mount, root, err = findCgroup2Mount(info); err == nil {
		cgroupFacts.mount, cgroupFacts.root = mount, root
	}
	return mount, root, err
}

// forgetCgroupFacts drops what cgroupFacts kept.
func forgetCgroupFacts() {
	cgroupFacts.mu.Lock()
	defer cgroupFacts.mu.Unlock()
	cgroupFacts.mount, cgroupFacts.root, cgroupFacts.ready = "", "", ""
}

// cgroupParentReady reports whether a leaves' parent was made and checked.
func cgroupParentReady() bool {
	cgroupFacts.mu.Lock()
	defer cgroupFacts.mu.Unlock()
	return cgroupFacts.ready != ""
}

// readyParent makes parent and checks that it is a cgroup2 directory,
// unless that was done already for this parent.
func readyParent(parent string) error {
	cgroupFacts.mu.Lock()
	done := cgroupFacts.ready == parent
	cgroupFacts.mu.Unlock()
	if done {
		return nil
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("create cgroup parent: %w", err)
	}
	if _, err := os.Stat(filepath.Join(parent, "cgroup.procs")); err != nil {
		return fmt.Errorf("cgroup parent %s is not a cgroup2 directory: %w", parent, err)
	}
	cgroupFacts.mu.Lock()
	cgroupFacts.ready = parent
	cgroupFacts.mu.Unlock()
	return nil
}

// findCgroup2Mount returns the mount point and mount root of the first
// cgroup2 filesystem in a mountinfo text.
func findCgroup2Mount(mountinfo []byte) (mount, root string, err error) {
	for _, line := range strings.Split(string(mountinfo), "\n") {
		pre, post, ok := strings.Cut(line, " - ")
		fields, fs := strings.Fields(pre), strings.Fields(post)
		if !ok || len(fields) < 5 || len(fs) < 1 || fs[0] != "cgroup2" {
			continue
		}
		return unescapeMountinfo(fields[4]), unescapeMountinfo(fields[3]), nil
	}
	return "", "", errors.New("find cgroup2 mount: none in /proc/self/mountinfo")
}

// unescapeMountinfo undoes the octal escapes (\040 for space) of mountinfo.
func unescapeMountinfo(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ownCgroup2Path returns the unified-hierarchy path ("0::/path") of
// /proc/self/cgroup, "/" when absent.
func ownCgroup2Path(procSelfCgroup []byte) string {
	for _, line := range strings.Split(string(procSelfCgroup), "\n") {
		if p, ok := strings.CutPrefix(line, "0::"); ok {
			return p
		}
	}
	return "/"
}

// newCgroupLeaf creates parent/name and opens it for CLONE_INTO_CGROUP.
func newCgroupLeaf(parent, name string) (*cgroupLeaf, error) {
	if err := readyParent(parent); err != nil {
		return nil, err
	}
	path := filepath.Join(parent, name)
	if err := os.Mkdir(path, 0o755); err != nil {
		return nil, fmt.Errorf("create cgroup leaf: %w", err)
	}
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		_ = os.Remove(path) // best effort: undo the empty leaf
		return nil, fmt.Errorf("open cgroup leaf %s: %w", path, err)
	}
	return &cgroupLeaf{path: path, dirfd: fd}, nil
}

// closeDir closes the directory fd once the child has been cloned.
func (c *cgroupLeaf) closeDir() {
	closeFD(c.dirfd)
	c.dirfd = -1
}

// kill SIGKILLs every process in the leaf: cgroup.kill where the kernel has
// it (5.14+), else each pid of cgroup.procs.
func (c *cgroupLeaf) kill() error {
	err := os.WriteFile(filepath.Join(c.path, "cgroup.kill"), []byte("1"), 0)
	if !errors.Is(err, os.ErrNotExist) {
		return wrapCgroup("kill", c.path, err)
	}
	pids, err := c.procs()
	for _, pid := range pids {
		_ = unix.Kill(pid, syscall.SIGKILL) // best effort: pid listed as a live member an instant ago
	}
	return err
}

// populated reads "populated" from cgroup.events. Zombies do not count.
func (c *cgroupLeaf) populated() (bool, error) {
	b, err := os.ReadFile(filepath.Join(c.path, "cgroup.events"))
	if err != nil {
		return false, wrapCgroup("read events of", c.path, err)
	}
	return bytes.Contains(b, []byte("populated 1")), nil
}

// procs lists the pids in the leaf.
func (c *cgroupLeaf) procs() ([]int, error) {
	b, err := os.ReadFile(filepath.Join(c.path, "cgroup.procs"))
	if err != nil {
		return nil, wrapCgroup("list processes of", c.path, err)
	}
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(f); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids, nil
}

// remove deletes the (empty) leaf.
func (c *cgroupLeaf) remove() error {
	c.closeDir()
	return wrapCgroup("remove", c.path, unix.Rmdir(c.path))
}

func wrapCgroup(op, path string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s cgroup %s: %w", op, path, err)
}

// applyCgroup makes the child start inside leaf.
func applyCgroup(attr *syscall.SysProcAttr, leaf *cgroupLeaf) {
	if leaf == nil {
		return
	}
	attr.UseCgroupFD = true
	attr.CgroupFD = leaf.dirfd
}

// leafAt is the existing leaf of pane paneID that an earlier host
// recorded at path, nil unless path is one (ValidLeaf); it is never
// cloned into.
func leafAt(path, paneID string) *cgroupLeaf {
	if !ValidLeaf(path, paneID) {
		return nil
	}
	return &cgroupLeaf{path: path, dirfd: -1}
}

// CleanDeadLeaves removes the cgroup leaves a dead host left once they are
// empty. The leaves are those of recorded (what agents.json named) and
// their siblings created by the same hosts (a leaf is named
// <pane>.<host pid>.<seq>), whose host is not alive now; keep lists leaves
// still in use (an adopted tree's). It returns the leaves removed and
// those that still hold processes.
func CleanDeadLeaves(recorded []string, keep map[string]bool) (removed, busy []string) {
	for _, leaf := range deadHostLeaves(recorded) {
		if keep[leaf] {
			continue
		}
		err := unix.Rmdir(leaf)
		switch {
		case err == nil:
			removed = append(removed, leaf)
		case errors.Is(err, unix.EBUSY):
			busy = append(busy, leaf)
		}
	}
	return removed, busy
}

// deadHostLeaves lists the existing leaves in the directories of recorded
// whose creating host's pid appears in recorded and is not alive.
func deadHostLeaves(recorded []string) []string {
	hosts := map[string]map[string]bool{} // parent dir → dead host pids
	for _, leaf := range recorded {
		pid := leafHostPid(leaf)
		if pid == "" || hostAlive(pid) {
			continue
		}
		dir := filepath.Dir(leaf)
		if hosts[dir] == nil {
			hosts[dir] = map[string]bool{}
		}
		hosts[dir][pid] = true
	}
	var out []string
	for dir, pids := range hosts {
		entries, _ := os.ReadDir(dir) // best effort: a parent gone has no leaves
		for _, e := range entries {
			if e.IsDir() && pids[leafHostPid(e.Name())] {
				out = append(out, filepath.Join(dir, e.Name()))
			}
		}
	}
	return out
}

// leafHostPid is the host pid in a leaf name <pane>.<pid>.<seq>, "" for
// another form.
func leafHostPid(leaf string) string {
	parts := strings.Split(filepath.Base(leaf), ".")
	if len(parts) < 3 {
		return ""
	}
	if _, err := strconv.Atoi(parts[len(parts)-2]); err != nil {
		return ""
	}
	return parts[len(parts)-2]
}

// hostAlive reports whether a process with pid runs (it may be another
// process on a reused pid: then its leaves are left alone, the safe side).
func hostAlive(pid string) bool {
	n, _ := strconv.Atoi(pid)
	_, err := ReadIdentity(n)
	return err == nil || n == os.Getpid()
}

// deadLeafAge is how long a leaf of a host that looks dead must have been
// left alone before a sweep takes it. A host in another pid namespace
// (a container, a test) looks dead from here, and its leaf is empty for a
// moment between its creation and the child's start: that fresh leaf must
// never go.
const deadLeafAge = 10 * time.Minute

// DeadLeaves lists the leaves in the spawner's cgroup parent that a host
// no longer alive created, untouched for deadLeafAge: with
// CleanDeadLeaves, they go even when no agents.json names them any more (a
// dead host's state dir was removed).
func (sp *Spawner) DeadLeaves() []string {
	parent, err := cgroupParentDir(sp.opts.CgroupParent)
	if err != nil {
		return nil
	}
	entries, _ := os.ReadDir(parent) // best effort: nothing to sweep
	var out []string
	for _, e := range entries {
		if pid := leafHostPid(e.Name()); e.IsDir() && pid != "" && !hostAlive(pid) && leftAlone(e) {
			out = append(out, filepath.Join(parent, e.Name()))
		}
	}
	return out
}

// leftAlone reports whether e has not changed for deadLeafAge.
func leftAlone(e os.DirEntry) bool {
	info, err := e.Info()
	return err == nil && time.Since(info.ModTime()) > deadLeafAge
}
