package supervisor

import (
	"testing"
	"time"

	"clowder/supervisor/internal/testproc"
)

func TestIdleTimeoutFiresOnSilence(t *testing.T) {
	o := newOracle(t)
	out := testproc.NewSyncBuffer()
	spec := fakeSpec(o, out, "silent")
	spec.Limits.IdleTimeout = 300 * time.Millisecond
	r := start(t, NewSpawner(Options{}), spec)
	out.WaitContains(t, "READY")
	o.Observe()
	if e := waitExit(t, r); e.Reason != ExitIdleTimeout {
		t.Fatalf("exit %v", e)
	}
}

// TestIdleTimeoutDoesNotFireWhileOutputFlows gives a chatty child (a line
// every 20 ms) an idle timeout far shorter than its overall timeout: the
// overall one must be what ends it.
func TestIdleTimeoutDoesNotFireWhileOutputFlows(t *testing.T) {
	o := newOracle(t)
	out := testproc.NewSyncBuffer()
	spec := fakeSpec(o, out, "chatty")
	spec.Limits.IdleTimeout = 300 * time.Millisecond
	spec.Limits.Timeout = 1500 * time.Millisecond
	r := start(t, NewSpawner(Options{}), spec)
	out.WaitContains(t, "line 0")
	o.Observe()
	if e := waitExit(t, r); e.Reason != ExitTimeout {
		t.Fatalf("exit %v", e)
	}
}

func TestLimitsDefaultsComeFromOnePlace(t *testing.T) {
	got := Limits{Grace: time.Second}.Or(DefaultLimits())
	want := DefaultLimits()
	want.Grace = time.Second
	if got != want || DefaultLimits().Grace != 3*time.Second {
		t.Fatalf("Or = %+v, want %+v", got, want)
	}
}

func TestExitReasonNames(t *testing.T) {
	want := []string{"unknown", "completed", "failed", "signalled", "killed", "timeout", "idle-timeout", "lost"}
	for i, name := range want {
		r := ExitReason(i)
		var back ExitReason
		if r.String() != name || back.UnmarshalText([]byte(name)) != nil || back != r {
			t.Errorf("reason %d: %q", i, r)
		}
	}
	if e := (Exit{Reason: ExitFailed, Code: 2}); e.String() != "failed (code 2)" {
		t.Errorf("Exit.String = %q", e)
	}
	if e := (Exit{Reason: ExitSignalled, Signal: 11}); e.String() != "signalled (SIGSEGV)" {
		t.Errorf("Exit.String = %q", e)
	}
}
