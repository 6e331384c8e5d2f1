package host

import "syscall"

// followerAttr makes the kernel end the size follower's control client
// when the host dies: a SIGKILLed host must leave no client attached to
// the user's tmux session.
func followerAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
