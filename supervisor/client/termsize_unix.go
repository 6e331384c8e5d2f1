//go:build unix

package client

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// SetTermSize sets the size of the terminal behind f (a PTY master dup a
// client received): the child gets SIGWINCH at once, with no round trip
// through the host, which reads the new size back before its next output.
func SetTermSize(f *os.File, cols, rows int) error {
	if err := unix.IoctlSetWinsize(int(f.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Col: uint16(cols), Row: uint16(rows)}); err != nil {
		return fmt.Errorf("set the terminal size to %dx%d: %w", cols, rows, err)
	}
	return nil
}
