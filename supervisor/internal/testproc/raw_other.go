//go:build !linux

package testproc

import "golang.org/x/sys/unix"

// The termios ioctls under their BSD (darwin) names.
const (
	ioctlGetTermios = unix.TIOCGETA
	ioctlSetTermios = unix.TIOCSETA
)
