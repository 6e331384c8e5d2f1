//go:build unix

package host

import (
	"fmt"
	"syscall"
)

// umask sets the process umask and returns the old one.
func umask(m int) int { return syscall.Umask(m) }

// raiseFdLimit lifts the soft RLIMIT_NOFILE to the hard limit: the host
// holds a PTY master per pane and a socket per client, and running out
// must not be what ends it. It returns the limit now in force. Go's
// runtime already does this at start on Linux (and gives children the
// original limit back); there this changes nothing, and elsewhere it
// states the need.
func raiseFdLimit() (uint64, error) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0, fmt.Errorf("read the fd limit: %w", err)
	}
	if lim.Cur >= lim.Max {
		return lim.Cur, nil
	}
	lim.Cur = lim.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0, fmt.Errorf("raise the fd limit to %d: %w", lim.Max, err)
	}
	return lim.Cur, nil
}
