//go:build linux || darwin

package persist

import "syscall"

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o600) }
