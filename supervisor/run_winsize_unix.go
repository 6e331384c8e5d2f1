//go:build unix

package supervisor

import (
	"golang.org/x/sys/unix"
)

// TermSize reads the PTY's size. A client holding a dup of the master may
// have set it (TIOCSWINSZ) without telling the host; the host reads it back
// before parsing each output chunk, so its screen follows.
func (r *Run) TermSize() (cols, rows int, ok bool) {
	if r.master == nil {
		return 0, 0, false
	}
	ws, err := unix.IoctlGetWinsize(int(r.master.Fd()), unix.TIOCGWINSZ)
	if err != nil || ws.Col == 0 || ws.Row == 0 {
		return 0, 0, false
	}
	return int(ws.Col), int(ws.Row), true
}

// Foreground is the process group in the foreground of the run's terminal
// (the shell, or the command it is running), 0 if it cannot be read.
func (r *Run) Foreground() int {
	if r.master == nil {
		return 0
	}
	pgid, err := unix.IoctlGetInt(int(r.master.Fd()), unix.TIOCGPGRP)
	if err != nil {
		return 0
	}
	return pgid
}
