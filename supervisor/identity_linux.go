// Process handles on Linux are pidfds: once opened and verified, a pidfd
// keeps naming the same process even if it exits and its pid is reused, so
// a signal sent through it can never reach a stranger. Kernels without
// pidfd_open (before 5.3) fall back to check-then-kill, which has a small
// reuse window; that fallback is reported by Handle.Pidfd.

package supervisor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Handle is an open, verified reference to one process instance. Its
// methods are safe for concurrent use. The caller closes it.
type Handle struct {
	id Identity
	mu sync.Mutex
	fd int // pidfd, or -1 when the kernel has none or after Close
}

// OpenHandle opens a handle on the process expected names and verifies it
// is still that process. A stale identity gives a *MismatchError (which
// wraps ErrProcessGone when the pid is free or a zombie).
func OpenHandle(expected Identity) (*Handle, error) {
	if expected.IsZero() {
		return nil, fmt.Errorf("open process handle: empty identity")
	}
	fd, err := unix.PidfdOpen(expected.PID, unix.PIDFD_NONBLOCK)
	switch {
	case errors.Is(err, syscall.ESRCH):
		return nil, &MismatchError{Op: "open process handle", Expected: expected}
	case errors.Is(err, syscall.ENOSYS):
		fd = -1
	case err != nil:
		return nil, fmt.Errorf("open process handle for %s: %w", expected, err)
	}
	// The pidfd was opened before this read, so if the process read now is
	// the expected one, it is also the one the pidfd names.
	if err := verifyIdentity("open process handle", expected, actualIdentity(expected.PID)); err != nil {
		closeFD(fd)
		return nil, err
	}
	return &Handle{id: expected, fd: fd}, nil
}

// newHandleFD wraps a pidfd obtained at clone time (already exact).
func newHandleFD(id Identity, fd int) *Handle { return &Handle{id: id, fd: fd} }

// Identity returns the process the handle names.
func (h *Handle) Identity() Identity { return h.id }

// Pidfd reports whether the handle holds a kernel pidfd (false means the
// check-then-kill fallback is in use).
func (h *Handle) Pidfd() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.fd >= 0
}

// Signal sends sig to the process. A process that has exited gives an error
// wrapping ErrProcessGone.
func (h *Handle) Signal(sig syscall.Signal) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	var err error
	if h.fd >= 0 {
		err = unix.PidfdSendSignal(h.fd, sig, nil, 0)
	} else if err = verifyIdentity("signal "+unix.SignalName(sig), h.id, actualIdentity(h.id.PID)); err == nil {
		err = unix.Kill(h.id.PID, sig)
	}
	if errors.Is(err, syscall.ESRCH) {
		err = ErrProcessGone
	}
	if err != nil {
		return fmt.Errorf("signal %s to %s: %w", unix.SignalName(sig), h.id, err)
	}
	return nil
}

// Close releases the pidfd. Idempotent.
func (h *Handle) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	fd := h.fd
	h.fd = -1
	if fd < 0 {
		return nil
	}
	if err := unix.Close(fd); err != nil {
		return fmt.Errorf("close pidfd of %s: %w", h.id, err)
	}
	return nil
}

// closeFD closes fd if it is open; used on error paths.
func closeFD(fd int) {
	if fd >= 0 {
		_ = unix.Close(fd) // best effort: error path, nothing to flush
	}
}

// rawFD returns the pidfd for waitid, -1 without one. Only a Run's waiter
// calls it, and the Run closes the handle only after the waiter returned.
func (h *Handle) rawFD() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.fd
}

// pollInterval is how often waitAnyExit looks again where it cannot sleep
// on pidfds (a kernel without them, or nothing to open one on).
const pollInterval = 500 * time.Millisecond

// waitAnyExit returns once one of ids has exited (nil) or ctx ends. It
// sleeps in the runtime's poller on one pidfd per process, which becomes
// readable when that process exits: no wake-up until something happens.
// One that is already gone returns at once.
func waitAnyExit(ctx context.Context, ids []Identity) error {
	files, err := openPidfds(ids)
	if err != nil || len(files) == 0 {
		return sleepCtx(ctx, pollInterval, err)
	}
	exited := make(chan struct{}, len(files))
	for _, f := range files {
		go func() {
			waitReadable(f)
			exited <- struct{}{}
		}()
	}
	defer closeFiles(files) // ends the waits still pending
	select {
	case <-exited:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// openPidfds opens a pidfd on each of ids as a pollable file. One that is
// gone already gives errGoneNow; no pidfd support gives nil files.
func openPidfds(ids []Identity) ([]*os.File, error) {
	var files []*os.File
	for _, id := range ids {
		h, err := OpenHandle(id)
		if err != nil {
			closeFiles(files)
			return nil, errGoneNow
		}
		fd := h.fd
		h.fd = -1 // the file owns it now
		if fd < 0 {
			closeFiles(files)
			return nil, nil
		}
		files = append(files, os.NewFile(uintptr(fd), "pidfd "+id.String()))
	}
	return files, nil
}

// errGoneNow tells sleepCtx not to sleep: a process exited already.
var errGoneNow = errors.New("a watched process is gone already")

// sleepCtx returns nil after d (at once for errGoneNow), or ctx's error.
func sleepCtx(ctx context.Context, d time.Duration, why error) error {
	if errors.Is(why, errGoneNow) {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// waitReadable blocks until the pidfd f is readable (its process exited)
// or f is closed.
func waitReadable(f *os.File) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Read(func(fd uintptr) bool { // an error means f was closed: the wait is over either way
		n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, 0)
		return err == nil && n > 0
	})
}

func closeFiles(files []*os.File) {
	for _, f := range files {
		_ = f.Close() // best effort: a pidfd has nothing to flush
	}
}
