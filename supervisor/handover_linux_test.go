package supervisor

import (
	"testing"
	"time"

	"clowder/persist"
	"clowder/supervisor/internal/testproc"
)

// TestFrozenRunLeavesItsExitToWhoeverThaws proves the handover's freeze: a
// leader that exits while its run is frozen stays an unreaped zombie (its
// status is still there for the next image of the host) and no final
// record is made; once thawed, the run records the exit with its code as
// usual.
func TestFrozenRunLeavesItsExitToWhoeverThaws(t *testing.T) {
	o := newOracle(t)
	out := testproc.NewSyncBuffer()
	r := start(t, NewSpawner(Options{CgroupMode: persist.CgroupOff}), fakeSpec(o, out, "exit-on-line"))
	r.Freeze()
	if _, err := r.WriteInput([]byte("bye\n")); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(testproc.WaitFor)
	for {
		p, err := readProc(r.Identity().PID)
		if err != nil {
			t.Fatalf("the frozen run's leader was reaped: %v", err)
		}
		if p.State == 'Z' {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the leader did not exit within %s", testproc.WaitFor)
		}
		time.Sleep(5 * time.Millisecond) // polling a condition with a deadline
	}
	if e, done := r.Exit(); done || r.Finalizing() {
		t.Fatalf("a frozen run recorded its exit (%v): the next image could not", e)
	}
	r.Thaw()
	if e := waitExit(t, r); e.Reason != persist.ExitCompleted || e.Code != 0 {
		t.Fatalf("exit after thaw: %v; want completed with code 0", e)
	}
}
