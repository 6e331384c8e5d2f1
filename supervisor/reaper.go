// This file is the single wait owner of the process. The kernel keeps one
// child table per process, so this one is process-wide too (a deliberate
// package-level value: two tables would let one reaper steal the other's
// exit statuses). Owned children are registered under the same lock that
// the orphan reaper holds while it scans, so a child that exits before its
// registration can never be reaped as an orphan.
//
// Reaping rules:
//   - an owned child is reaped only by its Run (childTable.reap), after the
//     Run has finished signalling its process group, because the unreaped
//     leader pins the group id against reuse;
//   - the orphan reaper (reaper_linux.go) reaps only zombies that are our
//     children, are not owned, and are not in our own process group, so
//     children that other code in this process starts with os/exec (which
//     stay in our group) keep their exit statuses; the exception is the
//     children an earlier image left behind across an exec (an upgrade's
//     tmux control clients), which nobody in this image waits for.

package supervisor

import (
	"fmt"
	"sync"
	"sync/atomic"
	"syscall"
)

// children is the process-wide child table; see the file comment.
var children = &childTable{owned: map[int]bool{}}

type childTable struct {
	mu       sync.Mutex
	owned    map[int]bool
	early    map[int]syscall.WaitStatus // statuses reaped early (reaper_other.go)
	leftover map[int]bool               // children an earlier image of this process left (MarkLeftoverChildren)

	// passes counts orphan-reaper passes, wakes the SIGCHLDs that
	// prompted them and fullScans the passes that read all of /proc; tests
	// prove that no pass happens without a SIGCHLD and none reads /proc.
	passes, wakes, fullScans atomic.Int64
}

// start runs fork (which returns the new pid) under the table lock and
// registers the child before the orphan reaper can look at it.
func (t *childTable) start(fork func() (int, error)) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	pid, err := fork()
	if err == nil {
		t.owned[pid] = true
	}
	return pid, err
}

// owns reports whether pid is an owned child.
func (t *childTable) owns(pid int) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.owned[pid]
}

// reap collects the status of an owned child that has already exited and
// drops it from the table.
func (t *childTable) reap(pid int) (syscall.WaitStatus, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if ws, ok := t.early[pid]; ok {
		delete(t.early, pid)
		delete(t.owned, pid)
		return ws, nil
	}
	var ws syscall.WaitStatus
	got, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
	if err != nil {
		return 0, fmt.Errorf("reap pid %d: %w", pid, err)
	}
	if got != pid {
		return 0, fmt.Errorf("reap pid %d: still running", pid)
	}
	delete(t.owned, pid)
	return ws, nil
}
