// Finalize: the one path from "something ended this run" to its single
// final record. Exit sources are the leader's exit (waiter), Kill, the
// timeout and idle watchdogs, and an aborted start; each calls finalize and
// every call after the first is a no-op. The first caller runs, in order:
// stop the watchdog; the kill ladder on whatever of the tree is alive (also
// after a natural exit, so nothing outlives its pane); wait for the leader;
// drain the final output (EIO on the master is EOF); reap the leader; close
// the I/O and remove the cgroup leaf; write the record; call OnExit; close
// Done.

package supervisor

import (
	"errors"
	"fmt"
	"syscall"
	"time"

	"clowder/persist"
)

// ending is one exit source's request to finalize.
type ending struct {
	reason persist.ExitReason // persist.ExitCompleted means "the leader exited by itself"
	err    error              // why, when it is a failure (abort, lost)
	grace  time.Duration      // 0: the run's Grace; negative: SIGKILL at once
	signal syscall.Signal     // the ladder's first signal; 0: SIGHUP+SIGTERM
}

// startLoops starts the readers, the waiter and the watchdog.
func (r *Run) startLoops() {
	r.hold.init(len(r.readers))
	if len(r.readers) == 0 {
		close(r.drained)
	}
	for i, f := range r.readers {
		go func() {
			defer r.readerDone() // the last closes drained
			r.readLoop(f, r.sinks[i])
		}()
	}
	if r.adopted {
		go r.waitAdopted()
	} else {
		go r.waitLoop()
	}
	w := &watchdog{limits: r.limits, lastOutput: &r.lastOutput, stop: r.stopWatch,
		fire: func(reason persist.ExitReason) { r.finalize(ending{reason: reason}) }}
	go w.run()
}

// waitLoop waits (without reaping) for the leader to exit, then finalizes.
func (r *Run) waitLoop() {
	r.waitErr = waitExited(r.leader, r.id.PID)
	close(r.exited)
	if r.waitErr != nil {
		r.finalize(ending{reason: persist.ExitLost, err: r.waitErr})
		return
	}
	r.finalize(ending{reason: persist.ExitCompleted})
}

// finalize records the run's end once; see the file comment. Safe to call
// from any goroutine, any number of times.
func (r *Run) finalize(e ending) {
	r.waitThawed() // a handover in progress decides who finalizes
	if !r.claimFinalize() {
		return
	}
	close(r.stopWatch)
	grace := e.grace
	switch {
	case grace == 0:
		grace = r.limits.Grace
	case grace < 0:
		grace = 0
	}
	rep := r.tree.ladder(e.signal, grace, r.limits.KillWait)
	exit := r.collect(e.reason)
	exit.Kill = rep
	exit.Err = errors.Join(e.err, exit.Err, r.release())
	if exit.Err != nil {
		exit.Detail = exit.Err.Error()
	}
	r.exit = exit
	if r.onExit != nil {
		r.onExit(exit)
	}
	close(r.done)
}

// claimFinalize reports whether the caller is the first to finalize.
func (r *Run) claimFinalize() bool {
	r.finMu.Lock()
	defer r.finMu.Unlock()
	if r.finalizing {
		return false
	}
	r.finalizing = true
	return true
}

// collect waits for the leader, drains output and reaps the leader.
func (r *Run) collect(reason persist.ExitReason) Exit {
	if !r.awaitExited() {
		go r.reapLate()
		return Exit{Reason: reason, Code: -1, At: time.Now(),
			Err: fmt.Errorf("leader %s did not exit within %v of SIGKILL", r.id, r.limits.KillWait)}
	}
	if r.adopted {
		return r.collectAdopted(reason)
	}
	r.drain()
	if r.waitErr != nil {
		return Exit{Reason: persist.ExitLost, Code: -1, At: time.Now()}
	}
	ws, err := r.reap()
	if err != nil {
		return Exit{Reason: persist.ExitLost, Code: -1, At: time.Now(), Err: err}
	}
	return exitFromStatus(reason, ws)
}

func (r *Run) awaitExited() bool {
	t := time.NewTimer(r.limits.KillWait)
	defer t.Stop()
	select {
	case <-r.exited:
		return true
	case <-t.C:
		return false
	}
}

// drain waits for every reader to hit EOF; past DrainTimeout it forces
// them out with a read deadline.
func (r *Run) drain() {
	t := time.NewTimer(r.limits.DrainTimeout)
	defer t.Stop()
	select {
	case <-r.drained:
		return
	case <-t.C:
	}
	for _, f := range r.readers {
		_ = f.SetReadDeadline(time.Now()) // best effort: Close in release also ends the read
	}
	<-r.drained
}

// reap collects the leader's status; group signals stop from here on.
func (r *Run) reap() (syscall.WaitStatus, error) {
	r.sigMu.Lock()
	defer r.sigMu.Unlock()
	r.reaped = true
	return children.reap(r.id.PID)
}

// reapLate reaps a leader that outlived finalize, then drops its handle.
func (r *Run) reapLate() {
	<-r.exited
	_, _ = r.reap() // best effort: the record already says it was not reaped
	_ = r.leader.Close()
}

// release closes the run's files and handle and removes its cgroup leaf.
func (r *Run) release() error {
	var errs []error
	for _, f := range r.readers {
		_ = f.Close() // best effort: the readers have returned
	}
	select {
	case <-r.exited:
		errs = append(errs, r.leader.Close())
	default: // reapLate closes it
	}
	if r.leaf != nil {
		errs = append(errs, r.removeLeaf())
	}
	return errors.Join(errs...)
}

// removeLeaf removes the cgroup leaf, retrying while the kernel still
// reports it busy.
func (r *Run) removeLeaf() error {
	var err error
	waitUntil(time.Second, func() bool {
		err = r.leaf.remove()
		return err == nil
	})
	return err
}
