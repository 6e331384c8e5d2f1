package host

import "golang.org/x/sys/unix"

// unreadBytes is how many bytes wait unread in socket fd.
func unreadBytes(fd int) (int, error) { return unix.IoctlGetInt(fd, unix.SIOCINQ) }
