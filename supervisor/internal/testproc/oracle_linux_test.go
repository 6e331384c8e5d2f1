package testproc

import (
	"os/exec"
	"testing"
)

// TestOracleSeesALeftoverMarkedProcess proves the oracle is not blind: a
// marked process still running when the test ends is reported, and an
// ended one is not. (The oracle reads /proc itself since it moved out of
// supervisor, so its reading is pinned here.)
func TestOracleSeesALeftoverMarkedProcess(t *testing.T) {
	o := NewOracle(t)
	cmd := exec.Command("sleep", "1000")
	cmd.Env = o.Env()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if got := o.leftovers(); len(got) != 1 || got[0].pid != cmd.Process.Pid {
		t.Fatalf("leftovers with a live marked child = %v, want pid %d", got, cmd.Process.Pid)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if got := o.leftovers(); len(got) != 0 {
		t.Fatalf("leftovers after the child was reaped = %v, want none", got)
	}
}
