//go:build unix

package client

import (
	"sync"
	"testing"

	"github.com/creack/pty"
)

// TestSetTermSizeWhileTheMasterCloses: a resize Cmd of the TUI sets the
// size through a master dup while the pane's subscription closes that
// file. Regression: SetTermSize read f.Fd() with no reference held, a data
// race with Close (-race flagged TestKillAllLeavesNoGhostInLayoutJSON).
func TestSetTermSizeWhileTheMasterCloses(t *testing.T) {
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty here: %v", err)
	}
	defer tty.Close()
	master, err := MasterOf(ptm)
	_ = ptm.Close()
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 1000 {
			if SetTermSize(master, 100, 30) != nil {
				return // closed: the resize is dropped, as it should be
			}
		}
	}()
	_ = SetTermSize(master, 90, 20)
	_ = master.Close()
	wg.Wait()
	if err := SetTermSize(master, 80, 24); err == nil {
		t.Fatal("SetTermSize on a closed master succeeded")
	}
}
