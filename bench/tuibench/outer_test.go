package tuibench

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestOuterTmuxLeavesNoSocket pins the bench's leak: every outer tmux left
// its socket (clwtui-*) in the user's tmux directory, thousands of them
// over runs. The outer runs on a directory of its own, removed with it.
func TestOuterTmuxLeavesNoSocket(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("needs tmux")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	shared := t.TempDir() // stands in for the user's TMUX_TMPDIR
	t.Setenv("TMUX_TMPDIR", shared)
	o, err := startOuter(ctx, os.Environ(), 80, 24, "exec sleep 60")
	if err != nil {
		t.Fatal(err)
	}
	pid, err := o.serverPID(ctx)
	if err != nil {
		o.close()
		t.Fatal(err)
	}
	o.close()
	if processRuns(pid) {
		t.Errorf("the outer tmux server %d still runs", pid)
	}
	left, _ := filepath.Glob(filepath.Join(shared, "*", "clwtui-*"))
	if len(left) > 0 {
		t.Errorf("the outer tmux left sockets in the user's tmux directory: %v", left)
	}
	if _, err := os.Stat(o.dir); !os.IsNotExist(err) {
		t.Errorf("the outer tmux's own directory %s is still there (%v)", o.dir, err)
	}
}

// The nested tmux servers (clwinner-*, clwflood-*) left their sockets in
// the user's tmux directory too.
func TestInnerTmuxLeavesNoSocket(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("needs tmux")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	shared := t.TempDir() // stands in for the user's TMUX_TMPDIR
	t.Setenv("TMUX_TMPDIR", shared)
	in, err := innerTmux(ctx, 2, "exec sleep 60")
	if err != nil {
		t.Fatal(err)
	}
	o, err := startOuter(ctx, os.Environ(), 80, 24, in.attach())
	if err != nil {
		in.stop()
		t.Fatal(err)
	}
	if err := o.waitFor(ctx, "[0]"); err != nil { // the inner status line: attached
		t.Error(err)
	}
	o.close()
	in.stop()
	if processRuns(in.pid) {
		t.Errorf("the inner tmux server %d still runs", in.pid)
	}
	if left, _ := filepath.Glob(filepath.Join(shared, "*", "*")); len(left) > 0 {
		t.Errorf("tmux sockets left in the user's tmux directory: %v", left)
	}
	if _, err := os.Stat(in.dir); !os.IsNotExist(err) {
		t.Errorf("the inner tmux's own directory %s is still there (%v)", in.dir, err)
	}
}
