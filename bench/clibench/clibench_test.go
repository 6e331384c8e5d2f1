package clibench

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"clowder/bench/hostbench"
)

func TestCLITimesEveryCommand(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("needs tmux")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bin, err := hostbench.BuildClowder(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c, err := ClowderCLI(ctx, bin, 2)
	if err != nil || len(c.Ls) != 2 || len(c.Capture) != 2 || len(c.CaptureHistory) != 2 {
		t.Fatalf("clowder: %+v %v", c, err)
	}
	m, err := TmuxCLI(ctx, 2)
	if err != nil || len(m.CaptureHistory) != 2 {
		t.Fatalf("tmux: %+v %v", m, err)
	}
	// Two histories of 10,000 lines each grew both servers.
	for _, s := range []CLI{c, m} {
		if s.HistoryRSS <= 0 || s.SecondRSS <= 0 {
			t.Fatalf("a full history grew the server by %d and %d bytes", s.HistoryRSS, s.SecondRSS)
		}
	}
	cold, err := ColdStart(ctx, bin, 2)
	if err != nil || len(cold) != 2 {
		t.Fatalf("clowder cold start: %v %v", cold, err)
	}
	tc, err := TmuxColdStart(ctx, 2)
	if err != nil || len(tc) != 2 {
		t.Fatalf("tmux cold start: %v %v", tc, err)
	}
}
