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
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

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

// reapOrphans makes a pass on every SIGCHLD and at no other time, so an
// idle host does no work. The 1-slot channel coalesces signals without
// losing one: a SIGCHLD during a pass leaves the slot full, and the next
// pass sees every zombie that exists by then.
func reapOrphans() {
	wake := make(chan os.Signal, 1)
	signal.Notify(wake, syscall.SIGCHLD)
	for range wake {
		children.mu.Lock()
		children.wakes.Add(1) // with its pass, under the lock: a reader of both sees neither or both
		children.reapOrphansLocked()
		children.mu.Unlock()
	}
}

// reapOrphans reaps every zombie child that is not owned and not in our own
// process group (see the rules in reaper.go). It reads only this process's
// children (their number, not the machine's process count, bounds the
// work) and holds the table lock for the whole pass so no child can be
// forked and exit unregistered meanwhile.
func (t *childTable) reapOrphans() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.reapOrphansLocked()
}

// reapOrphansLocked is reapOrphans with the table lock held.
func (t *childTable) reapOrphansLocked() {
	t.passes.Add(1)
	pids, err := t.childPids()
	if err != nil {
		return // the next SIGCHLD retries; nothing else to do with the error
	}
	self, group := os.Getpid(), unix.Getpgrp()
	for _, pid := range pids {
		if t.owned[pid] {
			continue
		}
		p, err := readProc(pid)
		if err != nil || p.PPID != self || p.State != 'Z' || (p.PGID == group && !t.leftover[pid]) {
			continue
		}
		var ws unix.WaitStatus
		_, _ = unix.Wait4(pid, &ws, unix.WNOHANG, nil) // best effort: a racing owner makes this ECHILD
		delete(t.leftover, pid)
	}
}

// MarkLeftoverChildren hands the orphan reaper every child of this
// process but the pids in keep: after an exec (a host upgrade) the new
// image inherits the old one's children, and those the old one started
// with os/exec (a tmux control client) stay in our process group, where
// the reaper leaves zombies to their waiter, which died with the old
// image. Call it before this image starts any child of its own; keep
// lists the children it will own (the panes' leaders).
func MarkLeftoverChildren(keep []int) {
	t := children
	t.mu.Lock()
	pids, err := t.childPids()
	if err == nil {
		for _, pid := range pids {
			if !slices.Contains(keep, pid) && !t.owned[pid] {
				if t.leftover == nil {
					t.leftover = map[int]bool{}
				}
				t.leftover[pid] = true
			}
		}
	}
	t.mu.Unlock()
	t.reapOrphans() // those that ended before the reaper ran
}

// childPids lists this process's children from /proc/self/task/*/children
// (each thread lists the children it forked or was given as a subreaper).
// Without those files (a kernel without CONFIG_PROC_CHILDREN) it falls
// back to a scan of all of /proc. It lists /proc/self/task and reads each
// thread's file by name: a glob would list each thread's own directory
// too (issue 12).
func (t *childTable) childPids() ([]int, error) {
	tids, err := readDirNames(procRoot + "/self/task")
	if err != nil {
		return t.scanChildPids()
	}
	var pids []int
	found := false
	for _, tid := range tids {
		var err error
		if pids, err = appendChildren(pids, procRoot+"/self/task/"+tid+"/children"); err == nil {
			found = true
		}
	}
	if !found {
		return t.scanChildPids()
	}
	return pids, nil
}

// readDirNames lists the names in dir.
func readDirNames(dir string) ([]string, error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer func() { _ = d.Close() }() // best effort: read only
	return d.Readdirnames(-1)
}

// appendChildren appends the pids listed in a task's children file. An
// error means the file could not be read (the thread ended, or the
// kernel has no such file).
func appendChildren(pids []int, file string) ([]int, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return pids, err
	}
	for _, field := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(field); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids, nil
}

// scanChildPids is the fallback of childPids: every process whose parent
// is this one, from a scan of all of /proc.
func (t *childTable) scanChildPids() ([]int, error) {
	t.fullScans.Add(1)
	procs, err := listProcs()
	if err != nil {
		return nil, err
	}
	return procs.children(os.Getpid()), nil
}

// sleepUntilExited parks the calling goroutine in the runtime's poller
// until pid (an unreaped child, so the pid cannot be reused meanwhile) has
// exited, on a pidfd of its own opened non-blocking. A blocking waitid
// holds an OS thread for the whole life of the process it waits for: one
// thread per pane (issue 12). Without pidfds it returns at once and the
// caller's waitid blocks as before.
func sleepUntilExited(pid int) {
	fd, err := unix.PidfdOpen(pid, unix.PIDFD_NONBLOCK)
	if err != nil {
		return
	}
	f := os.NewFile(uintptr(fd), "pidfd "+strconv.Itoa(pid))
	defer f.Close() // best effort: a pidfd has nothing to flush
	waitReadable(f)
}

// sleepUntilReadable parks the calling goroutine in the poller until the
// pidfd fd is readable (its process exited), on a duplicate of it, so a
// watched process that is not our child holds no thread either. A
// blocking fd cannot join the poller: then it returns at once.
func sleepUntilReadable(fd int) {
	dup, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return
	}
	f := os.NewFile(uintptr(dup), "pidfd")
	defer f.Close() // best effort: a pidfd has nothing to flush
	waitReadable(f)
}
