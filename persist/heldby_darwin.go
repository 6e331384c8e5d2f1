package persist

import (
	"errors"
	"os"
	"syscall"
)

// heldByOther reports whether another open file description holds an
// exclusive flock on f: a shared lock cannot be had. A shared lock it
// gets is let go at once.
func heldByOther(f *os.File) bool {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
		switch {
		case err == nil:
			_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) // best effort: closing f lets it go too
			return false
		case errors.Is(err, syscall.EINTR):
			continue
		default:
			return errors.Is(err, syscall.EWOULDBLOCK)
		}
	}
}
