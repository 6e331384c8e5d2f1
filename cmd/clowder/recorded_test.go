package main

import (
	"testing"
	"time"

	"clowder/persist"
)

// TestRecordedPaneThatRanShowsStoppedWithNoHost: with no host, a pane
// whose record says it runs (a crash or a reboot took its host) is shown
// stopped with a note saying what the next host does, never "running",
// which nothing watches; ended panes keep their state and exit.
func TestRecordedPaneThatRanShowsStoppedWithNoHost(t *testing.T) {
	at := time.Unix(1700000000, 0)
	tests := []struct {
		name      string
		rec       persist.PaneRecord
		state     string
		exit      string
		wantsNote bool
	}{
		{"running", persist.PaneRecord{State: persist.StateRunning, PID: 42}, "stopped", "-", true},
		{"starting", persist.PaneRecord{State: persist.StateStarting}, "stopped", "-", true},
		{"orphaned", persist.PaneRecord{State: persist.StateOrphaned}, "stopped", "-", true},
		{"exited", persist.PaneRecord{State: persist.StateExited,
			Exit: &persist.Exit{Code: 3, Reason: persist.ExitFailed, At: at}}, "exited", "3", false},
		{"killed", persist.PaneRecord{State: persist.StateExited,
			Exit: &persist.Exit{Signal: 9, Reason: persist.ExitKilled, At: at}}, "exited", "killed", false},
		{"lost", persist.PaneRecord{State: persist.StateLost, Note: "gone",
			Exit: &persist.Exit{Reason: persist.ExitLost, At: at}}, "lost", "lost", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.rec.ID, tt.rec.Name, tt.rec.Kind = "p1", "q", persist.KindRun
			in := recordedInfo(tt.rec)
			if in.State != tt.state || exitColumn(in) != tt.exit || (in.Note == stoppedNote) != tt.wantsNote {
				t.Fatalf("state %q exit %q note %q; want %q %q (stopped note: %v)", in.State, exitColumn(in), in.Note, tt.state, tt.exit, tt.wantsNote)
			}
		})
	}
}
