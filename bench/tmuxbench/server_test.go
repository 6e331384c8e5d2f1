package tmuxbench

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"testing"
	"time"
)

func TestCloseLeavesNoServerOrSocket(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("no tmux")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := StartServer(ctx, 200, 50, 100)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(ctx, "list-sessions"); err == nil {
		t.Error("the server still answers after Close")
	}
	if _, err := os.Stat(s.path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("socket %s still there after Close: %v", s.path, err)
	}
}
