package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"clowder/supervisor/proto"
)

// TestTheLastPictureOfAFloodReachesTheTUI pins issue 12's flush rule end
// to end: the host paces a flooding pane's frames, and the last picture
// waited for the period's timer. With the host's period an hour, the TUI
// still gets the screen the flood leaves, so it comes from the flush rule
// (the pane went quiet), not from a timer.
func TestTheLastPictureOfAFloodReachesTheTUI(t *testing.T) {
	r := startPacedHost(t, time.Hour)
	other := r.dial()
	id := r.spawn(other, "/bin/sh", "-c", "seq 1 100; read x; seq 1 20000; echo FLOOD''END; exec cat")
	m, _ := r.model()
	p := newProgram(t, m)
	p.start(m.Init())
	p.until("the pane drawn before the flood", func() bool {
		q := m.panes[id]
		return q != nil && strings.Contains(screenText(q), "100\n")
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := other.Input(ctx, proto.InputReq{Pane: id, Data: []byte("\r")}); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Wait(ctx, proto.WaitReq{Pane: id, Text: "FLOODEND"}); err != nil {
		t.Fatal(err)
	}
	shot, err := other.Capture(ctx, proto.CaptureReq{Pane: id})
	if err != nil {
		t.Fatal(err)
	}
	want := trimRows(shot.Text)
	p.until("the TUI shows the screen the flood left", func() bool {
		q := m.panes[id]
		return q != nil && trimRows(screenText(q)) == want
	})
}

// trimRows is screen text with trailing blanks of each row and trailing
// empty rows dropped.
func trimRows(s string) string {
	rows := strings.Split(s, "\n")
	for i := range rows {
		rows[i] = strings.TrimRight(rows[i], " ")
	}
	return strings.TrimRight(strings.Join(rows, "\n"), "\n")
}
