// The kill ladder: SIGHUP+SIGTERM (+SIGCONT, so stopped jobs act on them)
// to the process group and to tracked members outside it, a grace period,
// then SIGKILL to all of them and cgroup.kill, repeated until nothing of
// the tree is alive. Zombies count as dead. Every signal to a single
// process goes through a verified identity; group signals rely on the
// leader being unreaped (see reaper.go).

package supervisor

import (
	"errors"
	"syscall"
	"time"
)

// KillReport says what a kill ladder found and did.
type KillReport struct {
	// Escaped lists processes of the tree found outside its process group
	// (setsid grandchildren, job-control jobs); all were signalled.
	Escaped []Identity `json:"escaped,omitempty"`
	// Survivors lists processes still alive when the ladder gave up.
	Survivors []Identity `json:"survivors,omitempty"`
	// Forced reports that SIGKILL was needed.
	Forced bool `json:"forced,omitempty"`
}

// ladder runs the kill ladder: first (default SIGHUP+SIGTERM) and SIGCONT,
// the given grace, then SIGKILL for at most killWait until the tree is
// empty.
//
// Once a look finds the tree empty, it is not looked at again: nothing of
// it is left to start anything (a run that simply exited, with nothing
// left behind, was looked at three times: issue 12).
func (t *procTree) ladder(first syscall.Signal, grace, killWait time.Duration) KillReport {
	gone := t.empty()
	if !gone {
		if first == 0 {
			t.signalAll(syscall.SIGHUP, syscall.SIGTERM, syscall.SIGCONT)
		} else {
			t.signalAll(first, syscall.SIGCONT)
		}
		gone = waitUntil(grace, t.empty)
	}
	var rep KillReport
	if !gone {
		rep.Forced = true
		gone = waitUntil(killWait, func() bool {
			t.forceKill()
			return t.empty()
		})
	}
	rep.Escaped = t.escapedSeen()
	if !gone {
		rep.Survivors = t.survivors()
	}
	return rep
}

// signalAll sends each signal to the group and to members outside it.
func (t *procTree) signalAll(sigs ...syscall.Signal) {
	live, _ := t.refresh() // best effort: without a scan the group signal still goes out
	for _, sig := range sigs {
		if t.adopted {
			t.signalEach(live, sig)
			continue
		}
		t.signalGroup(sig)
		t.signalOutside(live, sig)
	}
}

// forceKill SIGKILLs the cgroup, the group and every live member.
func (t *procTree) forceKill() {
	if t.cg != nil {
		_ = t.cg.kill() // best effort: the group and member kills below still run
	}
	t.signalAll(syscall.SIGKILL)
}

// empty reports whether no member of the tree is alive.
func (t *procTree) empty() bool {
	if t.cg != nil {
		if busy, err := t.cg.populated(); err == nil && busy {
			return false
		}
	}
	live, err := t.refresh()
	if errors.Is(err, errNoProcScan) {
		return t.pgid <= 0 || errors.Is(syscall.Kill(-t.pgid, 0), syscall.ESRCH) // never kill(0) or kill(-0)
	}
	return err == nil && len(live) == 0
}

// survivors returns the identities of live members.
func (t *procTree) survivors() []Identity {
	live, _ := t.refresh() // best effort: an unscannable tree reports none
	var out []Identity
	for _, p := range live {
		out = append(out, p.ID)
	}
	return out
}

// waitUntil polls cond with a growing interval until it is true or d has
// passed, and reports the last result.
func waitUntil(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	interval := 2 * time.Millisecond
	for {
		if cond() {
			return true
		}
		left := time.Until(deadline)
		if left <= 0 {
			return false
		}
		t := time.NewTimer(min(interval, left))
		<-t.C
		interval = min(2*interval, 50*time.Millisecond)
	}
}
