// The subreaper and the orphan reaper on Linux. With
// PR_SET_CHILD_SUBREAPER set, processes that escape a run (setsid
// grandchildren whose parent died) are re-parented to us instead of init,
// so the kill ladder can still find them and the orphan reaper collects
// their zombies.

package supervisor

import (
	"fmt"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// orphanSweep is how often the orphan reaper scans without a SIGCHLD, as a
// backstop for signals that arrive during a scan's unlock window.
const orphanSweep = 2 * time.Second

var (
	subreaperOn   atomic.Bool
	subreaperOnce sync.Once
)

// StartSubreaper makes this process the subreaper of its descendants and
// starts the orphan reaper goroutine, which lives as long as the process
// (it owns nothing that needs closing). Idempotent and safe for concurrent
// use; the host calls it once at start.
//
// Contract for other code in the process: children started with plain
// os/exec (staying in this process's group) keep their exit statuses; a
// child that other code moves into its own process group or session must
// be started through a Spawner, or the orphan reaper may reap it.
func StartSubreaper() error {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("set child subreaper: %w", err)
	}
	subreaperOn.Store(true)
	subreaperOnce.Do(func() { go reapOrphans() })
	return nil
}

// subreaper reports whether StartSubreaper has succeeded.
func subreaper() bool { return subreaperOn.Load() }

// reapOrphans wakes on SIGCHLD (coalesced into a 1-slot channel) or every
// orphanSweep, and reaps unowned zombie children.
func reapOrphans() {
	wake := make(chan os.Signal, 1)
	signal.Notify(wake, syscall.SIGCHLD)
	tick := time.NewTicker(orphanSweep)
	for {
		select {
		case <-wake:
		case <-tick.C:
		}
		children.reapOrphans()
	}
}

// reapOrphans reaps every zombie child that is not owned and not in our own
// process group (see the rules in reaper.go). It holds the table lock for
// the whole scan so no child can be forked and exit unregistered meanwhile.
func (t *childTable) reapOrphans() {
	t.mu.Lock()
	defer t.mu.Unlock()
	procs, err := listProcs()
	if err != nil {
		return // the next wake retries; nothing else to do with the error
	}
	self, group := os.Getpid(), unix.Getpgrp()
	for pid, p := range procs {
		if p.PPID != self || p.State != 'Z' || t.owned[pid] || p.PGID == group {
			continue
		}
		var ws unix.WaitStatus
		_, _ = unix.Wait4(pid, &ws, unix.WNOHANG, nil) // best effort: a racing owner makes this ECHILD
	}
}
