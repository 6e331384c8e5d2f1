package supervisor

import (
	"errors"
	"os"
	"testing"

	"clowder/persist"
	"clowder/supervisor/internal/testproc"
)

// TestAdoptRefusesWhatIsNotTheLeadersTerminal: a master of another PTY,
// a file that is no PTY master, and a stale identity are all refused,
// and the leader is left alone.
func TestAdoptRefusesWhatIsNotTheLeadersTerminal(t *testing.T) {
	o := newOracle(t)
	sp := NewSpawner(Options{})
	r := start(t, sp, fakeSpec(o, testproc.NewSyncBuffer(), "sleep"))
	other := start(t, sp, fakeSpec(o, testproc.NewSyncBuffer(), "exit-on-line"))
	otherMaster, err := other.DupMaster()
	if err != nil {
		t.Fatal(err)
	}
	rd, wr, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer wr.Close()
	for name, f := range map[string]*os.File{"another pane's master": otherMaster, "a pipe": rd} {
		_, err := sp.Adopt(AdoptSpec{PaneID: "p1", Identity: r.Identity(), Master: f})
		if !errors.Is(err, ErrNotItsTerminal) {
			t.Errorf("adopt with %s: %v; want ErrNotItsTerminal", name, err)
		}
	}
	stale := r.Identity()
	stale.Start++
	own, err := r.DupMaster()
	if err != nil {
		t.Fatal(err)
	}
	var mm *MismatchError
	if _, err := sp.Adopt(AdoptSpec{PaneID: "p1", Identity: stale, Master: own}); !errors.As(err, &mm) {
		t.Errorf("adopt with a stale start time: %v; want a MismatchError", err)
	}
	if _, done := r.Exit(); done {
		t.Fatal("a refused adoption ended the leader")
	}
}

// TestAdoptedRunReportsItsEndUnverifiable: an adopted run reads and
// writes through the master, notices its leader's end through the pidfd,
// and, having no exit status to read, records it as unverifiable.
func TestAdoptedRunReportsItsEndUnverifiable(t *testing.T) {
	o := newOracle(t)
	sp := NewSpawner(Options{})
	orig := start(t, sp, fakeSpec(o, testproc.NewSyncBuffer(), "exit-on-line"))
	master, err := orig.DupMaster()
	if err != nil {
		t.Fatal(err)
	}
	var c exitCounter
	a, err := sp.Adopt(AdoptSpec{PaneID: "p1", Identity: orig.Identity(), Master: master, OnExit: c.onExit})
	if err != nil {
		t.Fatalf("adopt the leader's own terminal: %v", err)
	}
	a.StartAdopted()
	if !a.Adopted() || a.Identity() != orig.Identity() {
		t.Fatalf("adopted run: adopted %v, identity %s", a.Adopted(), a.Identity())
	}
	if _, err := a.WriteInput([]byte("bye\n")); err != nil {
		t.Fatal(err)
	}
	e := waitExit(t, a)
	if e.Reason != persist.ExitUnverifiable || e.Code != -1 || c.n.Load() != 1 {
		t.Fatalf("adopted run's exit %v (code %d, %d records); want unverifiable, code -1, one record", e, e.Code, c.n.Load())
	}
}
