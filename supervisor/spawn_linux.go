// Linux fork details: the child is cloned straight into its cgroup leaf and
// with a pidfd (clone3 CLONE_INTO_CGROUP | CLONE_PIDFD), and its exit is
// observed without reaping (waitid WNOWAIT), so the leader keeps pinning its
// process group id until the Run has finished signalling the group.

package supervisor

import (
	"errors"
	"fmt"
	"syscall"

	"golang.org/x/sys/unix"
)

// sysAttr returns the child's process attributes. pidfd receives the
// child's pidfd; the caller owns it.
func sysAttr(pty bool, leaf *cgroupLeaf, pidfd *int) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{PidFD: pidfd}
	if pty {
		a.Setsid, a.Setctty, a.Ctty = true, true, 0
	} else {
		a.Setpgid = true
	}
	applyCgroup(a, leaf)
	return a
}

// waitExited blocks until the leader has exited, leaving it a zombie. It
// sleeps in the poller first, so a living leader holds no thread.
func waitExited(h *Handle, pid int) error {
	sleepUntilExited(pid)
	idType, id := unix.P_PID, pid
	if fd := h.rawFD(); fd >= 0 {
		idType, id = unix.P_PIDFD, fd
	}
	var info unix.Siginfo
	for {
		err := unix.Waitid(idType, id, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if !errors.Is(err, syscall.EINTR) {
			return wrapWait(pid, err)
		}
	}
}

func wrapWait(pid int, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("wait for pid %d: %w", pid, err)
}
