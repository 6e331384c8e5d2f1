//go:build !linux

// Fork details without pidfds or a non-reaping wait: the leader is reaped
// as soon as it exits and its status is stashed, so group signals after
// that point risk a reused group id (documented weakness of this build).

package supervisor

import (
	"errors"
	"syscall"
)

func sysAttr(pty bool, _ *cgroupLeaf, pidfd *int) *syscall.SysProcAttr {
	*pidfd = -1
	a := &syscall.SysProcAttr{}
	if pty {
		a.Setsid, a.Setctty, a.Ctty = true, true, 0
	} else {
		a.Setpgid = true
	}
	return a
}

func waitExited(_ *Handle, pid int) error {
	var ws syscall.WaitStatus
	for {
		_, err := syscall.Wait4(pid, &ws, 0, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err == nil {
			children.stash(pid, ws)
		}
		return err
	}
}
