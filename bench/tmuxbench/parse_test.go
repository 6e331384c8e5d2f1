package tmuxbench

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"clowder/bench/streamgen"
)

func TestParseTimesASmallStream(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("no tmux")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	file := filepath.Join(t.TempDir(), "stream")
	if err := os.WriteFile(file, streamgen.Generate(1, 256<<10), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := Parse(ctx, file, 200, 50, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if r.Bytes != 256<<10 || r.Raw <= 0 || r.Overhead <= 0 {
		t.Errorf("implausible result %+v", r)
	}
	if strings.TrimSpace(r.Screen) == "" {
		t.Error("the pane's screen is blank after 256 KiB of stream")
	}
}
