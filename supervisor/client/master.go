//go:build unix

package client

// A pane's PTY master as a client holds it: a duplicate of the host's,
// written to (keys, pastes, a size), never read. An *os.File made from it
// would sit in this process's network poller, which the runtime
// registers for input too, edge-triggered: every chunk the pane's
// program printed then woke the client's poller, found no reader and went
// back to sleep, about 25,000 times a second while a pane flooded, which
// was most of the TUI's CPU in a flood (issue 12). Master keeps the fd
// out of the poller: a write that finds the terminal's input full waits
// in poll(2), in slices, so a Close or a deadline ends it.

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// masterWaitSlice bounds one wait for room in the terminal's input: a
// Close waits for a write under way at most this long.
const masterWaitSlice = 50 * time.Millisecond

// Master is a PTY master fd held for writing, outside the runtime's
// poller. Safe for concurrent use; writes are made one at a time.
type Master struct {
	name string
	wmu  sync.Mutex   // one write at a time, so keys stay in order
	mu   sync.RWMutex // held shared while the fd is used, exclusively by Close
	fd   int          // -1 once closed; under mu
	// closing is closed by Close before it waits for mu, so a write
	// waiting for room gives up at its next slice.
	closing chan struct{}
	once    sync.Once
}

// NewMaster takes fd, which the caller no longer uses.
func NewMaster(fd int, name string) *Master {
	return &Master{name: name, fd: fd, closing: make(chan struct{})}
}

// MasterOf is a Master on a duplicate of f's fd (f stays the caller's).
func MasterOf(f *os.File) (*Master, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	var dup int
	var dupErr error
	if err := rc.Control(func(fd uintptr) { dup, dupErr = dupCloexec(int(fd)) }); err != nil {
		return nil, err
	}
	if dupErr != nil {
		return nil, fmt.Errorf("duplicate %s: %w", f.Name(), dupErr)
	}
	return NewMaster(dup, f.Name()), nil
}

// dupCloexec duplicates fd, close-on-exec.
func dupCloexec(fd int) (int, error) {
	return unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
}

// Name is the name the master was made with.
func (m *Master) Name() string { return m.name }

// Dup is a Master on a duplicate of m's fd, which stays open when m is
// closed.
func (m *Master) Dup() (*Master, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.fd < 0 {
		return nil, fmt.Errorf("duplicate %s: %w", m.name, os.ErrClosed)
	}
	fd, err := dupCloexec(m.fd)
	if err != nil {
		return nil, fmt.Errorf("duplicate %s: %w", m.name, err)
	}
	return NewMaster(fd, m.name), nil
}

// Write writes all of p, waiting for room in the terminal's input for
// as long as it takes (or until Close).
func (m *Master) Write(p []byte) (int, error) { return m.WriteWithin(p, 0) }

// WriteWithin writes all of p, waiting for room in the terminal's input
// for d at most (0: no bound), counted from its first wait; past it, it
// fails with os.ErrDeadlineExceeded, having written part. A write that
// need not wait (a key, almost always) never reads the clock.
func (m *Master) WriteWithin(p []byte, d time.Duration) (int, error) {
	m.wmu.Lock()
	defer m.wmu.Unlock()
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.fd < 0 {
		return 0, m.wrap(os.ErrClosed)
	}
	var deadline time.Time // set at the first wait, when d bounds it
	n := 0
	for n < len(p) {
		k, err := syscall.Write(m.fd, p[n:])
		if k > 0 {
			n += k
		}
		switch {
		case err == nil || errors.Is(err, syscall.EINTR):
		case errors.Is(err, syscall.EAGAIN):
			if d > 0 && deadline.IsZero() {
				deadline = time.Now().Add(d)
			}
			if err := m.waitRoom(deadline); err != nil {
				return n, m.wrap(err)
			}
		default:
			return n, m.wrap(err)
		}
	}
	return n, nil
}

// waitRoom waits until the fd takes more, deadline passes or Close is
// called. m.wmu and m.mu (shared) are held.
func (m *Master) waitRoom(deadline time.Time) error {
	slice := masterWaitSlice
	if !deadline.IsZero() {
		left := time.Until(deadline)
		if left <= 0 {
			return os.ErrDeadlineExceeded
		}
		slice = min(slice, left)
	}
	select {
	case <-m.closing:
		return os.ErrClosed
	default:
	}
	fds := []unix.PollFd{{Fd: int32(m.fd), Events: unix.POLLOUT}}
	_, err := unix.Poll(fds, int(max(slice.Milliseconds(), 1)))
	if err != nil && !errors.Is(err, syscall.EINTR) {
		return err
	}
	return nil
}

// wrap names the master in err, a write's.
func (m *Master) wrap(err error) error { return &os.PathError{Op: "write", Path: m.name, Err: err} }

// Close closes the fd once no one uses it (a write waiting for room
// gives up within a slice).
func (m *Master) Close() error {
	m.once.Do(func() { close(m.closing) })
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fd < 0 {
		return &os.PathError{Op: "close", Path: m.name, Err: os.ErrClosed}
	}
	err := syscall.Close(m.fd)
	m.fd = -1
	return err
}

// Control runs f with the fd, which stays open until f returns (an
// ioctl, passing it to a host); os.ErrClosed once m is closed.
func (m *Master) Control(f func(fd uintptr)) error {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.fd < 0 {
		return &os.PathError{Op: "use", Path: m.name, Err: os.ErrClosed}
	}
	f(uintptr(m.fd))
	return nil
}
