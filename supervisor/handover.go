// Handing runs over to a new image of the host process (clowder host
// upgrade). The host execs a new binary under its own pid, so every
// leader stays its child and every PTY master stays open; what the old
// image must do first is stop touching them (Freeze), and what the new
// one must do is take them back as Runs (Resume). Unlike a run adopted
// from escrow (adopt.go), a resumed run's leader is this process's child:
// its exit status is reaped with wait4 as for any started run.
//
// While a run is frozen its readers are parked (no byte is read from the
// master, so none is lost or read twice across the exec) and finalize
// waits: an exit, a kill or a watchdog that comes meanwhile is handled
// by whichever image thaws it, the old one after a failed exec or the new
// one, whose waiter finds the leader a zombie still.

package supervisor

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// runHold parks a run's readers and its finalize while the host hands it
// over. The zero value holds nothing.
type runHold struct {
	mu     sync.Mutex
	cond   *sync.Cond
	on     bool
	thaw   chan struct{} // closed by Thaw
	parked int           // readers waiting for thaw
	live   int           // readers that have not returned
}

func (h *runHold) init(readers int) {
	h.cond = sync.NewCond(&h.mu)
	h.live = readers
}

// Freeze stops the run's readers after the chunk each is handling and
// makes every later finalize wait for Thaw. It returns once no reader will
// read again before Thaw. A run that is finalizing already is left to
// finish (Finalizing reports it).
func (r *Run) Freeze() {
	h := &r.hold
	h.mu.Lock()
	if h.on {
		h.mu.Unlock()
		return
	}
	if h.cond == nil { // not started: no reader to park
		h.mu.Unlock()
		return
	}
	h.on, h.thaw = true, make(chan struct{})
	h.mu.Unlock()
	for _, f := range r.readers {
		_ = f.SetReadDeadline(time.Now()) // best effort: a closed reader has returned already
	}
	h.mu.Lock()
	for h.parked < h.live {
		h.cond.Wait()
	}
	h.mu.Unlock()
}

// Thaw undoes Freeze: the readers read again and a waiting finalize runs.
func (r *Run) Thaw() {
	h := &r.hold
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.on {
		return
	}
	h.on = false
	close(h.thaw)
}

// Finalizing reports whether an exit source has claimed the run's final
// record (Done follows).
func (r *Run) Finalizing() bool {
	r.finMu.Lock()
	defer r.finMu.Unlock()
	return r.finalizing
}

// parkIfHeld is called by a reader whose read failed with err. It reports
// whether the reader was parked by Freeze and may read again.
func (r *Run) parkIfHeld(f *os.File, err error) bool {
	if !errors.Is(err, os.ErrDeadlineExceeded) || r.Finalizing() {
		return false
	}
	h := &r.hold
	h.mu.Lock()
	if !h.on {
		h.mu.Unlock()
		return false
	}
	h.parked++
	h.cond.Broadcast()
	thaw := h.thaw
	h.mu.Unlock()
	thawed := true
	select {
	case <-thaw:
	case <-r.stopWatch: // a finalize claimed just before the freeze: it drains this reader
		thawed = false
	}
	h.mu.Lock()
	h.parked--
	h.mu.Unlock()
	if thawed {
		_ = f.SetReadDeadline(time.Time{}) // best effort: a failed read ends the reader as before
	}
	return thawed
}

// readerDone records that a reader returned for good; the last one
// closes drained (a goroutine per run only waited to do it).
func (r *Run) readerDone() {
	h := &r.hold
	h.mu.Lock()
	h.live--
	if h.live == 0 {
		close(r.drained)
	}
	h.cond.Broadcast()
	h.mu.Unlock()
}

// waitThawed blocks while the run is frozen.
func (r *Run) waitThawed() {
	h := &r.hold
	h.mu.Lock()
	on, thaw := h.on, h.thaw
	h.mu.Unlock()
	if on {
		<-thaw
	}
}

// RunState is what a new image of the host needs to take a run over.
type RunState struct {
	PaneID      string
	Identity    Identity
	PGID        int
	Session     int
	Containment Containment
	Argv        []string
	Resumable   bool
	Limits      Limits
	LastOutput  time.Time
	MasterFD    int // the PTY master's descriptor number, kept open across the exec
}

// State describes a frozen PTY run for Resume in the next image, with the
// number of the master's descriptor (KeepAcrossExec must keep it open).
func (r *Run) State() (RunState, error) {
	if r.master == nil {
		return RunState{}, fmt.Errorf("hand over %s: not a PTY run", r.id)
	}
	fd := -1
	if err := r.controlMaster(func(n int) { fd = n }); err != nil {
		return RunState{}, fmt.Errorf("hand over %s: %w", r.id, err)
	}
	return RunState{
		PaneID: r.paneID, Identity: r.id, PGID: r.tree.pgid, Session: r.tree.sid, Containment: r.cont,
		Argv: r.Argv(), Resumable: r.resumable, Limits: r.limits,
		LastOutput: time.Unix(0, r.lastOutput.Load()), MasterFD: fd,
	}, nil
}

// ResumeSpec is a run handed over by the previous image of this process.
type ResumeSpec struct {
	State RunState
	// Adopted is a run the previous image adopted from escrow (adopt.go):
	// not this process's child, so its exit stays unverifiable.
	Adopted bool
	Output  io.Writer
	OnExit  func(Exit)
}

// Resume takes over a run the previous image of this process started: the
// leader is still this process's child (a zombie if it ended meanwhile)
// and the master still open at State.MasterFD. Call StartResumed once the
// output sink is ready. Resume must run before StartSubreaper's reaper
// could see the leader as an unowned child.
func (sp *Spawner) Resume(spec ResumeSpec) (*Run, error) {
	st := spec.State
	master := os.NewFile(uintptr(st.MasterFD), "/dev/ptmx")
	h, err := OpenHandle(st.Identity)
	if err != nil {
		_ = master.Close() // best effort: nothing to read it for
		return nil, fmt.Errorf("resume %s (%s): %w", st.PaneID, st.Identity, err)
	}
	if err := blockingHandle(h); err != nil && !spec.Adopted {
		_ = h.Close()      // best effort: refused
		_ = master.Close() // best effort: as above
		return nil, fmt.Errorf("resume %s (%s): %w", st.PaneID, st.Identity, err)
	}
	if master, err = nonblocking(master); err != nil {
		_ = h.Close() // best effort: refused
		return nil, fmt.Errorf("resume %s (%s): %w", st.PaneID, st.Identity, err)
	}
	if !spec.Adopted {
		children.own(st.Identity.PID)
	}
	r := newRun(Spec{PaneID: st.PaneID, Argv: st.Argv, OnExit: spec.OnExit}, st.Limits.Or(sp.opts.Limits))
	r.argv, r.resumable, r.adopted = append([]string(nil), st.Argv...), st.Resumable, spec.Adopted
	r.master = master
	r.readers, r.sinks = []*os.File{master}, []io.Writer{orDiscard(spec.Output)}
	r.id, r.leader = st.Identity, h
	r.cont = st.Containment
	r.cont.Pidfd = h.Pidfd()
	if st.Containment.Kind == ContainCgroup {
		r.leaf = recordedLeaf(st.Containment.Cgroup, st.PaneID)
	}
	r.tree = newProcTree(st.PaneID, st.Identity, st.PGID, st.Session, r.leaf)
	if !st.LastOutput.IsZero() {
		r.lastOutput.Store(st.LastOutput.UnixNano())
	}
	return r, nil
}

// StartResumed starts a resumed run's reader, waiter and watchdog. Call it
// once, after Resume.
func (r *Run) StartResumed() { r.startLoops() }

// own registers pid, a child this process already has, as owned.
func (t *childTable) own(pid int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.owned[pid] = true
}
