//go:build unix

package client

import "golang.org/x/sys/unix"

// inlineReads is whether a call may read its own reply here.
const inlineReads = true

// readable reports whether fd has something to read (or an error to
// report), without reading it.
func readable(fd uintptr) bool {
	p := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	n, err := unix.Poll(p, 0)
	if err == unix.EINTR {
		return false
	}
	return err != nil || n > 0
}
