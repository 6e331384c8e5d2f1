// Linux half of the handover: the memory file the state travels in, and
// the exec that keeps chosen descriptors open.

package supervisor

import (
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// NewStateFile returns an anonymous memory file (memfd), close-on-exec
// until KeepAcrossExec says otherwise.
func NewStateFile(name string) (*os.File, error) {
	fd, err := unix.MemfdCreate(name, unix.MFD_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("create memory file %s: %w", name, err)
	}
	return os.NewFile(uintptr(fd), name), nil
}

// ExecKeeping replaces this process's image with binary (argv, env) under
// the same pid, keeping fds open across the exec: children stay its
// children. It returns only when the exec failed, and then every fd is
// close-on-exec again.
func ExecKeeping(binary string, argv, env []string, fds []int) error {
	for i, fd := range fds {
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETFD, 0); err != nil {
			closeOnExec(fds[:i])
			return fmt.Errorf("keep descriptor %d open across exec: %w", fd, err)
		}
	}
	err := syscall.Exec(binary, argv, env)
	closeOnExec(fds)
	return fmt.Errorf("exec %s: %w", binary, err)
}

func closeOnExec(fds []int) {
	for _, fd := range fds {
		syscall.CloseOnExec(fd)
	}
}

// blockingHandle makes h's pidfd blocking: OpenHandle opens it
// non-blocking, on which waitid answers EAGAIN instead of waiting, and a
// resumed run's waiter waits on it as on the pidfd of a child it started.
func blockingHandle(h *Handle) error {
	fd := h.rawFD()
	if fd < 0 {
		return nil
	}
	if err := unix.SetNonblock(fd, false); err != nil {
		return fmt.Errorf("make the pidfd of %s blocking: %w", h.id, err)
	}
	return nil
}
