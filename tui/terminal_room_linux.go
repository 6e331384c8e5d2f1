package tui

import (
	"syscall"
	"unsafe"
)

// pollFd is struct pollfd of poll(2).
type pollFd struct {
	fd             int32
	events, revent int16
}

// pollOut is POLLOUT.
const pollOut = 0x4

// writableNow reports whether fd, a terminal, takes a write now: ppoll
// with no wait says it has room (POLLOUT), or ppoll failed (then the write
// finds out). The system call is made here with the standard library:
// x/sys/unix is supervisor's (ARCHITECTURE.md's package table).
func writableNow(fd int32) bool {
	p := pollFd{fd: fd, events: pollOut}
	var zero syscall.Timespec
	n, _, errno := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&p)), 1, uintptr(unsafe.Pointer(&zero)), 0, 0, 0)
	return errno != 0 || n > 0 && p.revent&pollOut != 0
}
