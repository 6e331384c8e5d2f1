package host

import (
	"testing"

	"clowder/persist"
)

// TestAPaneNobodyWatchesKeepsNoCopyOfItsScreen: judging a pane's
// attention took a snapshot of its screen, which the terminal kept (for
// the next snapshot to reuse its rows) for the pane's whole life: 46 kB
// for an idle 80x24 shell nobody looked at, a quarter of its memory. Once
// judged with nobody waiting, the copy is dropped, so the next snapshot
// copies (and marks dirty) every row.
func TestAPaneNobodyWatchesKeepsNoCopyOfItsScreen(t *testing.T) {
	th := newTestHost(t)
	th.serve(persist.DefaultConfig())
	c := th.dial()
	p := th.spawnFake(c, "sleep")
	eventually(t, "the pane judged", func() bool { a := c.info(p.ID).Attention; return a != "starting" && a != "working" })
	pn := th.host.paneByID(p.ID)
	pn.mu.Lock()
	s := pn.term.Snapshot()
	pn.mu.Unlock()
	if len(s.DirtyRows()) != s.Rows() {
		t.Fatalf("the snapshot after judging has %d of %d rows dirty: the terminal kept the judge's copy of its screen", len(s.DirtyRows()), s.Rows())
	}
}
