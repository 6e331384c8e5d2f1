// Adopting a run from escrow: after a host crash, a client (the TUI) that
// held a copy of a pane's PTY master hands it to the next host, which
// takes the tree back as a Run without having started it. The identity is
// checked before anything is kept: the leader must still be the recorded
// process (pid, start time, boot id, held as a pidfd where the kernel has
// one) and its controlling terminal must be the PTY behind the master.
//
// An adopted Run differs from a started one in one way: the host is not
// the leader's parent, so it cannot read an exit status. It watches the
// leader through its pidfd (or its identity, without one), and a leader
// that ends by itself gets the reason "unverifiable" and code -1. Kills,
// watchdogs, input, resizes and output work as for any run.

package supervisor

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"clowder/persist"
)

// AdoptSpec is a process tree another host started, and the PTY master a
// client handed back for it.
type AdoptSpec struct {
	PaneID string
	// Identity is the leader as recorded; an empty BootID means this boot.
	Identity Identity
	// Master is the PTY master; Adopt owns it from the call on (it closes
	// it on error, and the run closes it at its end).
	Master *os.File
	Argv   []string // as recorded (already redacted)
	Cgroup string   // the recorded cgroup leaf, "" for none
	Output io.Writer
	Limits Limits
	OnExit func(Exit)
}

// ErrNotItsTerminal is wrapped by Adopt's error when the master handed
// back is not the controlling terminal of the recorded leader.
var ErrNotItsTerminal = errors.New("the terminal handed back is not the pane's")

// Adopt verifies spec and returns its run, not yet watched or read: call
// StartAdopted once the output sink is ready. A stale identity gives a
// *MismatchError; a master of another terminal an error wrapping
// ErrNotItsTerminal. Either way nothing was signalled and the master is
// closed.
func (sp *Spawner) Adopt(spec AdoptSpec) (*Run, error) {
	r, err := sp.adopt(spec)
	if err != nil {
		_ = spec.Master.Close() // best effort: refused, the client keeps its own copy
		return nil, fmt.Errorf("adopt %s (%s): %w", spec.PaneID, spec.Identity, err)
	}
	return r, nil
}

func (sp *Spawner) adopt(spec AdoptSpec) (*Run, error) {
	if spec.Master == nil {
		return nil, errors.New("no PTY master")
	}
	expected := spec.Identity
	if now, err := ReadIdentity(expected.PID); err == nil && expected.BootID == "" {
		expected.BootID = now.BootID // an old record: this boot is the only one its pid can be of
	}
	h, err := OpenHandle(expected)
	if err != nil {
		return nil, err
	}
	p, err := checkTerminal(spec.Master, expected.PID)
	if err != nil {
		_ = h.Close() // best effort: refused
		return nil, err
	}
	master, err := nonblocking(spec.Master)
	if err != nil {
		_ = h.Close() // best effort: refused
		return nil, err
	}
	r := newRun(Spec{PaneID: spec.PaneID, Argv: spec.Argv, OnExit: spec.OnExit}, spec.Limits.Or(sp.opts.Limits))
	r.argv, r.adopted = append([]string(nil), spec.Argv...), true
	r.master = master
	r.readers, r.sinks = []*os.File{master}, []io.Writer{orDiscard(spec.Output)}
	r.id, r.leader = expected, h
	r.leaf = recordedLeaf(spec.Cgroup, spec.PaneID)
	r.cont = Containment{Kind: ContainProcessGroup, Pidfd: h.Pidfd(), Subreaper: subreaper()}
	if r.leaf != nil {
		r.cont.Kind, r.cont.Cgroup = ContainCgroup, spec.Cgroup
	}
	r.tree = newProcTree(spec.PaneID, expected, p.PGID, p.Session, r.leaf)
	return r, nil
}

// StartAdopted starts an adopted run's reader, its leader watch and its
// watchdog. Call it once, after Adopt.
func (r *Run) StartAdopted() {
	r.startLoops()
}

// waitAdopted is the waiter of an adopted run: it waits for the leader to
// end without being its parent, then finalizes.
func (r *Run) waitAdopted() {
	waitGoneHandle(r.leader)
	close(r.exited)
	r.finalize(ending{reason: persist.ExitUnverifiable})
}

// collectAdopted is collect for a run this process did not start: there
// is no status to reap, so the reason is the exit source's (a kill, a
// watchdog) or unverifiable.
func (r *Run) collectAdopted(reason persist.ExitReason) Exit {
	r.drain()
	r.sigMu.Lock()
	r.reaped = true // the leader's pid may be reused from now on: no more group signals
	r.sigMu.Unlock()
	return Exit{Reason: reason, Code: -1, At: time.Now()}
}

// Adopted reports whether the run was adopted from escrow (Adopt) rather
// than started by this process.
func (r *Run) Adopted() bool { return r.adopted }
