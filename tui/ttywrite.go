package tui

// This file is a second way to write to the outer terminal: a description
// of the same tty opened anew, non-blocking, so that Update can write a
// big frame without the risk of waiting on a slow terminal (terminal.go,
// drawNow). The shell's own stdout keeps its blocking mode: O_NONBLOCK
// belongs to the open file description, and this one is ours.

import (
	"fmt"
	"os"
	"syscall"
)

// ttyWriter writes to the terminal through a non-blocking description:
// Write waits (in the runtime's poller) until everything is written,
// TryWrite takes what the terminal takes at once.
type ttyWriter struct {
	f  *os.File
	rc syscall.RawConn
}

// openNonBlocking opens out's tty again, non-blocking, or returns nil
// when it cannot (not a tty, no /proc): the terminal then writes to out.
func openNonBlocking(out *os.File) *ttyWriter {
	path, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", out.Fd()))
	if err != nil {
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil
	}
	rc, err := f.SyscallConn()
	if err != nil {
		_ = f.Close() // best effort: falling back to out
		return nil
	}
	return &ttyWriter{f: f, rc: rc}
}

// Write writes all of b.
func (w *ttyWriter) Write(b []byte) (int, error) { return w.f.Write(b) }

// TryWrite writes what the terminal takes of b at once and returns it.
func (w *ttyWriter) TryWrite(b []byte) int {
	n := 0
	_ = w.rc.Write(func(fd uintptr) bool { // its error is the write's, seen below as n
		for n < len(b) {
			m, err := syscall.Write(int(fd), b[n:])
			if m <= 0 || err != nil {
				break
			}
			n += m
		}
		return true // never wait
	})
	return n
}

// Close closes the description.
func (w *ttyWriter) Close() error { return w.f.Close() }
