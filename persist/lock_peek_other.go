//go:build !linux

package persist

// PeekLockHolder reports no holder where /proc/locks does not exist.
func PeekLockHolder(path string) (pid int, held bool) { return 0, false }
