// This file is the portable half of process identity: a pid alone names
// nothing durable (pids are reused), so every process clowder may signal is
// named by {pid, start time, boot id}, and nothing is signalled unless that
// triple still matches the live process.

package supervisor

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"time"
)

// Identity names one process instance for as long as the machine stays up.
// Start is field 22 of /proc/PID/stat (clock ticks since boot) on Linux;
// BootID is /proc/sys/kernel/random/boot_id. Two identities are the same
// process only if all three fields are equal. The zero Identity names
// nothing.
type Identity struct {
	PID    int    `json:"pid"`
	Start  uint64 `json:"pid_start"`
	BootID string `json:"boot_id,omitempty"`
}

// IsZero reports whether id names no process.
func (id Identity) IsZero() bool { return id.PID == 0 }

// String formats id for errors and logs: "pid 123 start 456 boot 1a2b3c4d".
func (id Identity) String() string {
	boot := id.BootID
	if len(boot) > 8 {
		boot = boot[:8]
	}
	if boot == "" {
		boot = "?"
	}
	return fmt.Sprintf("pid %d start %d boot %s", id.PID, id.Start, boot)
}

// ErrProcessGone reports that the process an identity names has exited (or
// is a zombie, which counts as dead). Test with errors.Is.
var ErrProcessGone = errors.New("process is gone")

// MismatchError reports that the process now holding a pid is not the one
// the caller expected. Nothing was signalled.
type MismatchError struct {
	Op       string   // the refused operation, e.g. "signal SIGTERM"
	Expected Identity // what the caller named
	Actual   Identity // what holds the pid now (PID 0 when nothing does)
}

// Error names both identities.
func (e *MismatchError) Error() string {
	return fmt.Sprintf("%s refused: expected %s but found %s; nothing was signalled (the process it named has exited and its pid may be reused)",
		e.Op, e.Expected, e.Actual)
}

// Unwrap makes errors.Is(err, ErrProcessGone) true when no live process
// holds the pid any more.
func (e *MismatchError) Unwrap() error {
	if e.Actual.IsZero() {
		return ErrProcessGone
	}
	return nil
}

// verifyIdentity returns a *MismatchError when actual is not expected.
func verifyIdentity(op string, expected, actual Identity) error {
	if expected == actual {
		return nil
	}
	return &MismatchError{Op: op, Expected: expected, Actual: actual}
}

// SignalProcess sends sig to the single process expected names, after
// checking that it is still that process. A stale identity gives a
// *MismatchError and sends nothing. Safe for concurrent use.
func SignalProcess(expected Identity, sig syscall.Signal) error {
	h, err := OpenHandle(expected)
	if err != nil {
		return err
	}
	defer func() { _ = h.Close() }() // best effort: nothing was written
	return h.Signal(sig)
}

// actualIdentity reads what holds expected.PID now, zero when nothing live.
func actualIdentity(pid int) Identity {
	id, err := ReadIdentity(pid)
	if err != nil {
		return Identity{}
	}
	return id
}

// WaitGone waits until the process id names has exited (a zombie counts as
// gone), polling with a backoff, or until ctx ends.
func WaitGone(ctx context.Context, id Identity) error {
	delay := 5 * time.Millisecond
	for {
		now, err := ReadIdentity(id.PID)
		if err != nil || now != id {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for %s to exit: %w", id, ctx.Err())
		case <-time.After(delay):
		}
		delay = min(2*delay, 100*time.Millisecond)
	}
}
