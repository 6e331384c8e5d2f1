package tuibench

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"clowder/bench/hostbench"
	"clowder/bench/streamgen"
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

func TestControlModeTimesKeysAndCountsBytes(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("needs tmux")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bin, err := hostbench.BuildClowder(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, panes := range []int{2, 8} {
		r, err := ClowderControlKeys(ctx, bin, panes, 16, 10, 0)
		if err != nil || len(r.Samples) != 10 || r.BytesPerKey < 1 {
			t.Fatalf("clowder, %d panes: %+v %v", panes, r, err)
		}
		m, err := TmuxControlKeys(ctx, panes, 16, 10, 0)
		if err != nil || len(m.Samples) != 10 || m.BytesPerKey < 1 {
			t.Fatalf("tmux, %d panes: %+v %v", panes, m, err)
		}
		t.Logf("%d panes: clowder %v %.1f B/key, tmux %v %.1f B/key", panes, r.Samples.Median(), r.BytesPerKey, m.Samples.Median(), m.BytesPerKey)
	}
	const pace = 30 * time.Millisecond
	start := time.Now()
	r, err := ClowderControlKeys(ctx, bin, 2, 0, 5, pace)
	if err != nil || len(r.Samples) != 5 {
		t.Fatalf("clowder, paced: %+v %v", r, err)
	}
	if took := time.Since(start); took < 4*pace {
		t.Fatalf("5 keys typed %v apart took %v in all: not paced", pace, took)
	}
}

func TestUnescapeDecodesControlModeOctal(t *testing.T) {
	if got := string(unescape(`a\033[1mb\\c\134`)); got != "a\x1b[1mb\\\\c\\" {
		t.Fatalf("unescape: %q", got)
	}
	if got := visibleText([]byte("\x1b[?25l\x1b[2;5Hq\x1b]0;title\x07\r\n")); got != "q" {
		t.Fatalf("visible text: %q", got)
	}
}

func TestAttachedFloodMeasuresBothSides(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("needs tmux")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bin, err := hostbench.BuildClowder(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "plain")
	if err := os.WriteFile(file, streamgen.PlainText(1, 2e6), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := ClowderAttachedFlood(ctx, bin, file)
	if err != nil || c.Bytes != 2e6 || c.Wall <= 0 {
		t.Fatalf("clowder: %+v %v", c, err)
	}
	m, err := TmuxAttachedFlood(ctx, file)
	if err != nil || m.Wall <= 0 {
		t.Fatalf("tmux: %+v %v", m, err)
	}
	t.Logf("clowder %+v\ntmux %+v", c, m)
}

func TestFloodKeysTimesIdleAndFlooding(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("needs tmux")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	bin, err := hostbench.BuildClowder(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c, err := ClowderFloodKeys(ctx, bin, 10)
	if err != nil || len(c.Idle) != 10 || len(c.Flood) != 10 || c.Ratio() <= 0 {
		t.Fatalf("clowder: %+v %v", c, err)
	}
	m, err := TmuxFloodKeys(ctx, 10)
	if err != nil || len(m.Idle) != 10 || len(m.Flood) != 10 {
		t.Fatalf("tmux: %+v %v", m, err)
	}
	t.Logf("clowder idle %v flood %v (%.2fx); tmux idle %v flood %v (%.2fx)", c.Idle.Median(), c.Flood.Median(), c.Ratio(),
		m.Idle.Median(), m.Flood.Median(), m.Ratio())
}
