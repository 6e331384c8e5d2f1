package tui

// This file reads the terminal through the Go runtime's poller (issue 12).
// ultraviolet's cancel reader waits in its own epoll_wait, a system call
// that holds its thread, and with it the scheduler's P: the decoder
// goroutine, woken by the read, waited for the runtime's monitor to take
// that P back (20 µs and more) or for another thread to steal the
// goroutine, 25-90 µs from the read to Update in the bench's typing. A
// read through the poller parks the reading goroutine instead, and the
// decoder and the loop run at once on the same thread.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"syscall"
	"time"
)

// pollInput reads a terminal through the runtime's poller, for the
// loop's decoder (inputscan.go). Cancel makes a pending and every later
// read return io.EOF.
type pollInput struct {
	f        *os.File
	canceled atomic.Bool
	timed    bool // a read deadline is set
}

// openPollInput opens the terminal in reads again, as a file description
// of its own set non-blocking (the shell that started clowder shares
// in's, and must not find it non-blocking), so that the runtime's poller
// waits on it. ok is false when in is no file or cannot be opened again;
// the caller then reads in as before.
func openPollInput(in io.Reader) (*pollInput, bool) {
	src, ok := in.(*os.File)
	if !ok {
		return nil, false
	}
	rc, err := src.SyscallConn() // not Fd, which would make src blocking
	if err != nil {
		return nil, false
	}
	var path string
	if err := rc.Control(func(fd uintptr) { path = fmt.Sprintf("/proc/self/fd/%d", fd) }); err != nil {
		return nil, false
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, false
	}
	if err := f.SetReadDeadline(time.Time{}); err != nil { // not in the poller: no use
		_ = f.Close() // best effort: never read
		return nil, false
	}
	return &pollInput{f: f}, true
}

// readFor reads the terminal, waiting at most timeout when it is not
// zero (errTimedOut then); after Cancel it returns io.EOF.
func (p *pollInput) readFor(b []byte, timeout time.Duration) (int, error) {
	if timeout > 0 || p.timed {
		var at time.Time
		if timeout > 0 {
			at = time.Now().Add(timeout)
		}
		if err := p.f.SetReadDeadline(at); err != nil {
			return 0, io.EOF
		}
		p.timed = timeout > 0
	}
	if p.canceled.Load() { // after the deadline set: Cancel's, set since, stands
		return 0, io.EOF
	}
	n, err := p.f.Read(b)
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded) && !p.canceled.Load():
		return n, errTimedOut
	case errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, os.ErrClosed):
		return n, io.EOF
	}
	return n, err
}

// Cancel ends a pending read and every later one.
func (p *pollInput) Cancel() bool {
	p.canceled.Store(true)
	return p.f.SetReadDeadline(time.Unix(1, 0)) == nil
}

// Close closes the terminal's second file description.
func (p *pollInput) Close() error { return p.f.Close() }
