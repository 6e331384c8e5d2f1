package tuibench

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"clowder/bench/hostbench"
)

func TestTheWholeStackMeasures(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("needs tmux")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bin, err := hostbench.BuildClowder(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	keys, err := ClowderKeys(ctx, bin, 5)
	if err != nil || len(keys) != 5 {
		t.Fatalf("clowder keys: %v %v", keys, err)
	}
	tk, err := TmuxKeys(ctx, 5)
	if err != nil || len(tk) != 5 {
		t.Fatalf("tmux keys: %v %v", tk, err)
	}
	idle, err := ClowderIdle(ctx, bin, 4, 500*time.Millisecond)
	if err != nil || idle.Over == 0 {
		t.Fatalf("clowder idle: %+v %v", idle, err)
	}
}
