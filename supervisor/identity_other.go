//go:build !linux

// Process handles without pidfds: every signal re-checks the identity and
// then uses kill(2). Identities here carry no start time (see proc_other.go),
// so this is weaker than the Linux build.

package supervisor

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"time"
)

// Handle is an open, verified reference to one process instance. Its
// methods are safe for concurrent use. The caller closes it.
type Handle struct {
	id Identity
}

// OpenHandle verifies expected still names a live process and returns a
// handle on it; a stale identity gives a *MismatchError.
func OpenHandle(expected Identity) (*Handle, error) {
	if expected.IsZero() {
		return nil, fmt.Errorf("open process handle: empty identity")
	}
	if err := verifyIdentity("open process handle", expected, actualIdentity(expected.PID)); err != nil {
		return nil, err
	}
	return &Handle{id: expected}, nil
}

func newHandleFD(id Identity, _ int) *Handle { return &Handle{id: id} }

// Identity returns the process the handle names.
func (h *Handle) Identity() Identity { return h.id }

// Pidfd reports whether the handle holds a kernel pidfd: never on this OS.
func (h *Handle) Pidfd() bool { return false }

// Signal re-verifies the identity and sends sig.
func (h *Handle) Signal(sig syscall.Signal) error {
	err := verifyIdentity("signal "+sig.String(), h.id, actualIdentity(h.id.PID))
	if err == nil {
		err = syscall.Kill(h.id.PID, sig)
	}
	if errors.Is(err, syscall.ESRCH) {
		err = ErrProcessGone
	}
	if err != nil {
		return fmt.Errorf("signal %s to %s: %w", sig, h.id, err)
	}
	return nil
}

// Close releases the handle. Idempotent.
func (h *Handle) Close() error { return nil }

func closeFD(int) {}

// waitAnyExit returns after half a second (nil) or once ctx ends: without
// pidfds, an adopted tree is looked at again on a timer while it lives.
func waitAnyExit(ctx context.Context, _ []Identity) error {
	t := time.NewTimer(500 * time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
