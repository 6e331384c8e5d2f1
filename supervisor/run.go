// A Run is one started process tree: its leader (held by identity and
// pidfd), its containment, its output readers, its watchdog and its single
// final record. Goroutines a Run owns: one waiter (exits when the leader
// exits), one reader per output stream (exits at EOF/EIO or at the drain
// deadline), and one watchdog (exits when the run is finalized or after it
// fires). All of them end before Done is closed, except a reader whose
// Output writer blocks.

package supervisor

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"clowder/persist"
)

// Run is a started process tree. Its methods are safe for concurrent use.
type Run struct {
	paneID    string
	argv      []string // redacted when secrets were allowed
	resumable bool
	adopted   bool // taken back from escrow (adopt.go): not our child
	limits    Limits
	onExit    func(Exit)
	started   time.Time

	leaf *cgroupLeaf
	cont Containment

	id     Identity
	leader *Handle
	tree   *procTree

	master     *os.File    // PTY arm only
	readers    []*os.File  // master, or stdout and stderr read ends
	sinks      []io.Writer // one per reader
	childFiles []*os.File  // the child's stdin/stdout/stderr
	ownedChild []*os.File  // those of childFiles we opened and must close
	lastOutput atomic.Int64
	writeMu    sync.Mutex

	exited    chan struct{} // the leader is a zombie (or waiting failed)
	waitErr   error         // set before exited is closed
	drained   chan struct{} // every reader has returned
	stopWatch chan struct{} // closed by finalize
	done      chan struct{} // closed after the final record

	hold runHold // parks readers and finalize during a handover (handover.go)

	sigMu  sync.Mutex // orders group signals before the reap
	reaped bool

	finMu      sync.Mutex
	finalizing bool
	exit       Exit // written once before done is closed
}

func newRun(spec Spec, limits Limits) *Run {
	r := &Run{
		paneID: spec.PaneID, argv: Redact(spec.Argv), limits: limits,
		resumable: CheckArgs(spec.Argv) == nil, onExit: spec.OnExit,
		started: time.Now(),
		exited:  make(chan struct{}), drained: make(chan struct{}),
		stopWatch: make(chan struct{}), done: make(chan struct{}),
	}
	r.lastOutput.Store(r.started.UnixNano())
	return r
}

// Identity returns the leader's identity.
func (r *Run) Identity() Identity { return r.id }

// PGID returns the run's process group id (the leader's pid).
func (r *Run) PGID() int { return r.tree.pgid }

// PaneID returns the pane id the run was started for.
func (r *Run) PaneID() string { return r.paneID }

// Argv returns the command line safe for disk and logs (credentials
// replaced by Redacted).
func (r *Run) Argv() []string { return append([]string(nil), r.argv...) }

// Resumable is false when the command line carried credentials: the stored
// argv is redacted and cannot be re-run.
func (r *Run) Resumable() bool { return r.resumable }

// Containment reports how the tree is held (for ls --json).
func (r *Run) Containment() Containment { return r.cont }

// Limits returns the run's effective limits.
func (r *Run) Limits() Limits { return r.limits }

// Done is closed after the final record exists (see Exit).
func (r *Run) Done() <-chan struct{} { return r.done }

// Exit returns the final record and true once Done is closed.
func (r *Run) Exit() (Exit, bool) {
	select {
	case <-r.done:
		return r.exit, true
	default:
		return Exit{}, false
	}
}

// Wait blocks until the run has its final record or ctx ends.
func (r *Run) Wait(ctx context.Context) (Exit, error) {
	select {
	case <-r.done:
		return r.exit, nil
	case <-ctx.Done():
		return Exit{}, fmt.Errorf("wait for %s: %w", r.id, ctx.Err())
	}
}

// Signal sends sig to the run's process group if expected is still its
// leader; otherwise it returns a *MismatchError and sends nothing. After the
// leader has been reaped it returns an error wrapping ErrProcessGone.
func (r *Run) Signal(expected Identity, sig syscall.Signal) error {
	op := "signal " + SignalName(sig)
	if err := verifyIdentity(op, expected, r.id); err != nil {
		return err
	}
	r.sigMu.Lock()
	defer r.sigMu.Unlock()
	if r.reaped {
		return fmt.Errorf("%s to %s: %w", op, r.id, ErrProcessGone)
	}
	r.tree.signalGroup(sig)
	return nil
}

// Kill ends the whole tree with the kill ladder if expected is still the
// leader, waits for the final record and returns it. grace 0 means the
// run's Grace; a negative grace sends SIGKILL at once. A stale identity
// gives a *MismatchError and kills nothing. Killing a finished run returns
// its record.
func (r *Run) Kill(expected Identity, grace time.Duration) (Exit, error) {
	return r.KillWith(expected, 0, grace)
}

// KillWith is Kill with sig as the ladder's first signal (instead of
// SIGHUP+SIGTERM; 0 keeps them): sig, grace, then SIGKILL.
func (r *Run) KillWith(expected Identity, sig syscall.Signal, grace time.Duration) (Exit, error) {
	if err := verifyIdentity("kill", expected, r.id); err != nil {
		return Exit{}, err
	}
	r.finalize(ending{reason: persist.ExitKilled, grace: grace, signal: sig})
	<-r.done
	return r.exit, nil
}
