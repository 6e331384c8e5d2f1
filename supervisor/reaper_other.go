//go:build !linux

// No subreaper outside Linux: escaped orphans go to init, which reaps them.

package supervisor

import "syscall"

// StartSubreaper is a no-op on this OS: escaped orphans are re-parented to
// init (launchd), which reaps them, and the kill ladder can reach only the
// process group. Idempotent.
func StartSubreaper() error { return nil }

func subreaper() bool { return false }

// stash records the status of an owned child that this build, without a
// non-reaping wait, had to reap early; reap returns it later.
func (t *childTable) stash(pid int, ws syscall.WaitStatus) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.early == nil {
		t.early = map[int]syscall.WaitStatus{}
	}
	t.early[pid] = ws
}

// MarkLeftoverChildren is a no-op on this OS, which has no upgrade in
// place.
func MarkLeftoverChildren([]int) {}
