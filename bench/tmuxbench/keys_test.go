package tmuxbench

import (
	"context"
	"os/exec"
	"testing"
	"time"
)

func TestKeyRoundTripSeesEveryEcho(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("no tmux")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := KeyRoundTrip(ctx, 80, 24, 70) // past one Reset
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != 70 || s.Median() <= 0 {
		t.Errorf("implausible samples: %d, median %v", len(s), s.Median())
	}
}
