//go:build !linux

package host

import "syscall"

// followerAttr is nothing where the kernel cannot signal a child at its
// parent's death: the client then ends when its stdin's writer is gone.
func followerAttr() *syscall.SysProcAttr { return nil }
