//go:build !linux && !darwin

package persist

// Fallbacks for systems clowder does not run on yet: they keep the package
// compiling and say plainly what is missing.

import (
	"errors"
	"io/fs"
	"os"
)

// fileOwner cannot tell the owner here; the caller skips the owner check.
func fileOwner(fs.FileInfo) (int, bool) { return 0, false }

// tryLock has no flock to call on this system.
func tryLock(*os.File) error {
	return errors.New("advisory file locks are not supported on this system")
}

// openNoFollow refuses a symlink by looking first; without O_NOFOLLOW a
// link swapped in between is still followed.
func openNoFollow(path string) (*os.File, error) {
	return openNoFollowFlag(path, os.O_RDONLY, 0)
}

// openNoFollowFlag is openNoFollow for any access mode, with the same gap.
func openNoFollowFlag(path string, flag int, perm fs.FileMode) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, errors.New("is a symbolic link")
	}
	return os.OpenFile(path, flag, perm)
}

// heldByOther cannot tell without flock: nobody, as far as it knows.
func heldByOther(*os.File) bool { return false }

// openNonBlocking opens path read-only; here a FIFO may block the open.
func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }
