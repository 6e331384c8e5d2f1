// Watchdogs and the one place that holds process-lifecycle defaults. A run
// has an overall timeout and a no-output (idle) timeout, both enforced here
// by the supervisor, not by clients; when one fires the run is finalized
// with reason timeout or idle-timeout (the kill ladder runs).

package supervisor

import (
	"sync/atomic"
	"time"

	"clowder/persist"
)

// Limits are the per-run time limits. A zero field means "use the default"
// (Options.Limits, then DefaultLimits); for Timeout and IdleTimeout the
// default is "none" unless the spawner's options set one, and a negative
// Timeout or IdleTimeout means "none" even over such a default.
type Limits struct {
	Timeout      time.Duration `json:"timeout,omitempty"`       // whole run; 0 = none
	IdleTimeout  time.Duration `json:"idle_timeout,omitempty"`  // no output for this long; 0 = none
	Grace        time.Duration `json:"grace,omitempty"`         // SIGTERM to SIGKILL
	KillWait     time.Duration `json:"kill_wait,omitempty"`     // after SIGKILL, how long to wait for the tree to go
	InputTimeout time.Duration `json:"input_timeout,omitempty"` // one input write
	DrainTimeout time.Duration `json:"drain_timeout,omitempty"` // reading final output after the tree is dead
}

// DefaultLimits returns the defaults of every limit; this is their only
// source.
func DefaultLimits() Limits {
	return Limits{
		Grace:        3 * time.Second,
		KillWait:     5 * time.Second,
		InputTimeout: 5 * time.Second,
		DrainTimeout: 2 * time.Second,
	}
}

// Or returns l with each zero field taken from def.
func (l Limits) Or(def Limits) Limits {
	pick := func(v, d time.Duration) time.Duration {
		if v == 0 {
			return d
		}
		return v
	}
	return Limits{
		Timeout:      pick(l.Timeout, def.Timeout),
		IdleTimeout:  pick(l.IdleTimeout, def.IdleTimeout),
		Grace:        pick(l.Grace, def.Grace),
		KillWait:     pick(l.KillWait, def.KillWait),
		InputTimeout: pick(l.InputTimeout, def.InputTimeout),
		DrainTimeout: pick(l.DrainTimeout, def.DrainTimeout),
	}
}

// watchdog fires fire(persist.ExitTimeout) or fire(persist.ExitIdleTimeout) at most once.
// Its goroutine exits when stop is closed or after firing.
type watchdog struct {
	limits     Limits
	lastOutput *atomic.Int64 // unix nanos of the latest output byte
	stop       <-chan struct{}
	fire       func(persist.ExitReason)
}

// run is the watchdog goroutine; the Run owns it and closes stop in
// finalize.
func (w *watchdog) run() {
	if w.limits.Timeout <= 0 && w.limits.IdleTimeout <= 0 {
		return
	}
	overall := w.timer(w.limits.Timeout)
	idle := w.timer(w.firstIdle())
	defer overall.Stop()
	defer idle.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-overall.C:
			w.fire(persist.ExitTimeout)
			return
		case <-idle.C:
			quiet := time.Since(time.Unix(0, w.lastOutput.Load()))
			if quiet >= w.limits.IdleTimeout {
				w.fire(persist.ExitIdleTimeout)
				return
			}
			idle.Reset(w.limits.IdleTimeout - quiet)
		}
	}
}

// firstIdle is when the idle timer first looks: the idle timeout counted
// from the latest output, which a run handed over from an earlier image of
// the host (handover.go) had before it started.
func (w *watchdog) firstIdle() time.Duration {
	if w.limits.IdleTimeout <= 0 {
		return 0
	}
	quiet := time.Since(time.Unix(0, w.lastOutput.Load()))
	return max(w.limits.IdleTimeout-quiet, time.Millisecond)
}

// timer returns a timer for d, or one that never fires when d is 0.
func (w *watchdog) timer(d time.Duration) *time.Timer {
	if d <= 0 {
		t := time.NewTimer(time.Hour)
		t.Stop()
		return t
	}
	return time.NewTimer(d)
}
