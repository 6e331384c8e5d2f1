//go:build unix

package client

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// SetTermSize sets the size of the terminal behind f (a PTY master dup a
// client received): the child gets SIGWINCH at once, with no round trip
// through the host, which reads the new size back before its next output.
func SetTermSize(f *Master, cols, rows int) error {
	// Under Control: the fd is used under a reference, so a Close racing
	// with it (the pane's subscription ending) waits, and a closed master
	// is an error rather than a stale or reused fd.
	ws := &unix.Winsize{Col: uint16(cols), Row: uint16(rows)}
	var ioErr error
	if err := f.Control(func(fd uintptr) { ioErr = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, ws) }); err != nil {
		return fmt.Errorf("set the terminal size to %dx%d: %w", cols, rows, err)
	}
	if ioErr != nil {
		return fmt.Errorf("set the terminal size to %dx%d: %w", cols, rows, ioErr)
	}
	return nil
}
