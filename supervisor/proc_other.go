//go:build !linux

// Fallback process reads for systems without /proc. Identity carries the pid
// only (start time 0, no boot id), so a reused pid cannot be told apart; the
// Linux build is the supported one.

package supervisor

import (
	"errors"
	"fmt"
	"syscall"

	"golang.org/x/sys/unix"
)

// ReadIdentity returns the identity of the live process pid. On this OS the
// identity has no start time: see the file comment.
func ReadIdentity(pid int) (Identity, error) {
	err := syscall.Kill(pid, 0)
	if errors.Is(err, syscall.ESRCH) {
		return Identity{}, fmt.Errorf("read identity of pid %d: %w", pid, ErrProcessGone)
	}
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return Identity{}, fmt.Errorf("read identity of pid %d: %w", pid, err)
	}
	return Identity{PID: pid}, nil
}

// listProcs is not available here; callers use the process group alone.
func listProcs() (procTable, error) { return nil, errNoProcScan }

// readProc returns what this OS can tell about pid: its group and session.
func readProc(pid int) (procInfo, error) {
	pgid, err := syscall.Getpgid(pid)
	if err != nil {
		return procInfo{}, fmt.Errorf("read process group of pid %d: %w", pid, err)
	}
	sid, err := unix.Getsid(pid)
	if err != nil {
		return procInfo{}, fmt.Errorf("read session of pid %d: %w", pid, err)
	}
	return procInfo{ID: Identity{PID: pid}, State: 'R', PGID: pgid, Session: sid}, nil
}

// procEnvHas cannot read another process's environment here.
func procEnvHas(int, string) bool { return false }

// CommandLine is unknown without /proc.
func CommandLine(int) string { return "" }
