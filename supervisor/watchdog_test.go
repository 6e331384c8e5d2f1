package supervisor

import (
	"reflect"
	"testing"
	"time"

	"clowder/persist"
	"clowder/supervisor/internal/testproc"
)

func TestIdleTimeoutFiresOnSilence(t *testing.T) {
	o := newOracle(t)
	out := testproc.NewSyncBuffer()
	spec := fakeSpec(o, out, "silent")
	spec.Limits.IdleTimeout = 300 * time.Millisecond
	r := start(t, NewSpawner(Options{CgroupMode: persist.CgroupAuto}), spec)
	out.WaitContains(t, "READY")
	o.Observe()
	if e := waitExit(t, r); e.Reason != persist.ExitIdleTimeout {
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
	r := start(t, NewSpawner(Options{CgroupMode: persist.CgroupAuto}), spec)
	out.WaitContains(t, "line 0")
	o.Observe()
	if e := waitExit(t, r); e.Reason != persist.ExitTimeout {
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

// TestExitReasonNames: the reasons' names are persist's (persist's
// TestEnumsRoundTrip-style table pins them); here, how an Exit reads.
func TestExitReasonNames(t *testing.T) {
	if e := (Exit{Reason: persist.ExitFailed, Code: 2}); e.String() != "failed (code 2)" {
		t.Errorf("Exit.String = %q", e)
	}
	if e := (Exit{Reason: persist.ExitSignalled, Signal: 11}); e.String() != "signalled (SIGSEGV)" {
		t.Errorf("Exit.String = %q", e)
	}
}

// TestOneExitReasonAndCgroupMode: issue 9 §2 — the exit reason and the
// cgroup mode are persist's types, so no hand-written mapper (with its own
// zero value) sits between a run and agents.json or config.toml.
func TestOneExitReasonAndCgroupMode(t *testing.T) {
	if got, want := reflect.TypeOf(Exit{}.Reason), reflect.TypeOf(persist.ExitReason(0)); got != want {
		t.Errorf("Exit.Reason is %v, want %v", got, want)
	}
	if got, want := reflect.TypeOf(Options{}.CgroupMode), reflect.TypeOf(persist.CgroupMode(0)); got != want {
		t.Errorf("Options.CgroupMode is %v, want %v", got, want)
	}
}
