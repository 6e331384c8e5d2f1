//go:build linux || darwin

package persist

// The two Unix-only mechanisms persist needs, behind sys_other.go's
// portable fallbacks: the owner of a file and flock(2).

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// fileOwner returns the uid that owns the file fi describes.
func fileOwner(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

// tryLock takes an exclusive flock on f without blocking. It returns
// ErrLocked when another open file description holds the lock.
func tryLock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return ErrLocked
		default:
			return err
		}
	}
}

// openNoFollow opens path read-only without following a symlink in its
// last component (that fails) and without blocking on a FIFO.
func openNoFollow(path string) (*os.File, error) {
	return openNoFollowFlag(path, os.O_RDONLY, 0)
}

// openNoFollowFlag is openNoFollow for any access mode, O_CREATE (with
// perm) and O_APPEND among them: a symlink, even a dangling one, fails
// with ELOOP instead of being followed or created through.
func openNoFollowFlag(path string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, perm)
}

// openNonBlocking opens path read-only, following links, without
// blocking on a FIFO (ReadRegularFile then refuses it).
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
