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
	var ws *unix.Winsize
	err := r.controlMaster(func(fd int) { ws, _ = unix.IoctlGetWinsize(fd, unix.TIOCGWINSZ) })
	if err != nil || ws == nil || ws.Col == 0 || ws.Row == 0 {
		return 0, 0, false
	}
	return int(ws.Col), int(ws.Row), true
}

// Foreground is the process group in the foreground of the run's terminal
// (the shell, or the command it is running), 0 if it cannot be read. The
// ioctls go through controlMaster, which holds the descriptor open: a
// run that ends meanwhile closes its master, and a bare Fd() could then
// name a closed or reused descriptor (a data race -race saw).
func (r *Run) Foreground() int {
	if r.master == nil {
		return 0
	}
	pgid := 0
	if err := r.controlMaster(func(fd int) { pgid, _ = unix.IoctlGetInt(fd, unix.TIOCGPGRP) }); err != nil {
		return 0
	}
	return pgid
}
