package testproc

import "golang.org/x/sys/unix"

// MakeRaw turns off the terminal's processing of fd, so bytes pass as they
// are (no CR added before LF, no echo, no signals).
func MakeRaw(fd int) {
	t, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		return // not a terminal
	}
	t.Iflag &^= unix.ICRNL | unix.IXON
	t.Oflag &^= unix.OPOST
	t.Lflag &^= unix.ICANON | unix.ECHO | unix.ISIG | unix.IEXTEN
	_ = unix.IoctlSetTermios(fd, ioctlSetTermios, t)
}
