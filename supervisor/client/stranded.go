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
// it. It returns ErrNoHost when no host holds the lock, ErrHostStopped
// when the one holding it is stopping (persist.Stopping), and says what
// to do when it cannot listen again.
func dialStranded(ctx context.Context, socketPath string) (*Client, error) {
	lockPath := filepath.Join(filepath.Dir(socketPath), persist.LockFileName)
	h, held := persist.LockHolder(lockPath)
	if !held {
		return nil, fmt.Errorf("%w (socket %s)", ErrNoHost, socketPath)
	}
	if slices.Contains(h.Can, persist.Stopping) { // it removed its socket and exits: nothing to ask, nothing to wait for
		return nil, fmt.Errorf("%w (socket %s)", ErrHostStopped, socketPath)
	}
	if h.PID <= 0 { // a host that has just taken the lock: it listens soon
		return dialUntil(ctx, socketPath, lockPath, fmt.Sprintf("a clowder host holds %s but did not listen on %s within %s", lockPath, socketPath, relistenWait))
	}
	if !slices.Contains(h.Can, persist.CanRelisten) {
		return nil, fmt.Errorf("a clowder host%s holds %s but its socket %s is gone, and it cannot listen again; stop it (kill -TERM %d), which ends its panes", h.PIDNote(), lockPath, socketPath, h.PID)
	}
	if err := syscall.Kill(h.PID, syscall.SIGUSR1); err != nil {
		return nil, fmt.Errorf("the socket %s of the clowder host (pid %d) is gone, and asking it to listen again failed: %w", socketPath, h.PID, err)
	}
	return dialUntil(ctx, socketPath, lockPath, fmt.Sprintf("the socket %s of the clowder host (pid %d) is gone, and it did not listen again within %s", socketPath, h.PID, relistenWait))
}

// dialUntil dials socketPath until a host answers there, for relistenWait
// at most; then it fails with the message late. A host that lets go of
// lockPath meanwhile has exited instead of listening: the dial's error is
// then that no host runs, as if it had come a moment later.
func dialUntil(ctx context.Context, socketPath, lockPath, late string) (*Client, error) {
	ctx, cancel := context.WithTimeout(ctx, relistenWait)
	defer cancel()
	for delay := 5 * time.Millisecond; ; delay = min(2*delay, 100*time.Millisecond) {
		c, err := dialOnce(ctx, socketPath)
		if !errors.Is(err, ErrNoHost) {
			return c, err
		}
		if _, held := persist.LockHolder(lockPath); !held {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, errors.New(late)
		case <-time.After(delay):
		}
	}
}
