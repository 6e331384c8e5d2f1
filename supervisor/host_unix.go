//go:build unix

package supervisor

import "syscall"

// umask sets the process umask and returns the old one.
func umask(m int) int { return syscall.Umask(m) }
