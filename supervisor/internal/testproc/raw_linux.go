package testproc

import "golang.org/x/sys/unix"

// The termios ioctls under their Linux names.
const (
	ioctlGetTermios = unix.TCGETS
	ioctlSetTermios = unix.TCSETS
)
