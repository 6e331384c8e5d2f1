//go:build !linux

package persist

import "os"

// PeekLockHolder reports no holder where /proc/locks does not exist.
func PeekLockHolder(path string) (pid int, held bool) { return 0, false }

// lockedExclusively tests with a shared flock where /proc/locks does not
// exist (heldByOther): a host starting at that instant may fail to lock.
func lockedExclusively(f *os.File, _ int) bool { return heldByOther(f) }
