package client

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"clowder/persist"
)

// relistenWait is how long a client waits for a host it woke with
// SIGUSR1 to listen on its socket again.
const relistenWait = 3 * time.Second

// dialStranded handles a dial that found no socket at socketPath: if a
// host holds the lock beside it (its socket file was removed, by a /tmp
// cleaner say, and the host runs on with its panes), it asks the host to
// listen again (SIGUSR1, which it advertised in the lock file) and dials
// it. It returns ErrNoHost when no host holds the lock, and says what to
// do when the one holding it cannot listen again.
func dialStranded(ctx context.Context, socketPath string) (*Client, error) {
	lockPath := filepath.Join(filepath.Dir(socketPath), persist.LockFileName)
	h, held := persist.LockHolder(lockPath)
	if !held {
		return nil, fmt.Errorf("%w (socket %s)", ErrNoHost, socketPath)
	}
	if h.PID <= 0 { // a host that has just taken the lock: it listens soon
		return dialUntil(ctx, socketPath, lockGone(lockPath), fmt.Sprintf("a clowder host holds %s but did not listen on %s within %s", lockPath, socketPath, relistenWait))
	}
	if !slices.Contains(h.Can, persist.CanRelisten) {
		return nil, fmt.Errorf("a clowder host%s holds %s but its socket %s is gone, and it cannot listen again; stop it (kill -TERM %d), which ends its panes", pidText(h.PID), lockPath, socketPath, h.PID)
	}
	if err := syscall.Kill(h.PID, syscall.SIGUSR1); err != nil {
		return nil, fmt.Errorf("the socket %s of the clowder host (pid %d) is gone, and asking it to listen again failed: %w", socketPath, h.PID, err)
	}
	return dialUntil(ctx, socketPath, lockGone(lockPath), fmt.Sprintf("the socket %s of the clowder host (pid %d) is gone, and it did not listen again within %s", socketPath, h.PID, relistenWait))
}

// lockGone reports whether no host holds the lock at lockPath any more.
func lockGone(lockPath string) func() bool {
	return func() bool {
		_, held := persist.LockHolder(lockPath)
		return !held
	}
}

// dialUntil dials socketPath until a host answers there, for relistenWait
// at most; then it fails with the message late. If gone reports that the
// host released its lock meanwhile (it stopped: host stop, its last pane
// ended), no host runs: ErrNoHost at once, not late's "did not listen
// again", which a command run during host stop reported after 3 s.
func dialUntil(ctx context.Context, socketPath string, gone func() bool, late string) (*Client, error) {
	ctx, cancel := context.WithTimeout(ctx, relistenWait)
	defer cancel()
	for delay := 5 * time.Millisecond; ; delay = min(2*delay, 100*time.Millisecond) {
		c, err := dialOnce(ctx, socketPath)
		if !errors.Is(err, ErrNoHost) {
			return c, err
		}
		if gone() {
			return nil, fmt.Errorf("%w (socket %s)", ErrNoHost, socketPath)
		}
		select {
		case <-ctx.Done():
			return nil, errors.New(late)
		case <-time.After(delay):
		}
	}
}

// pidText is " (pid N)", or "" for none.
func pidText(pid int) string {
	if pid <= 0 {
		return ""
	}
	return fmt.Sprintf(" (pid %d)", pid)
}
