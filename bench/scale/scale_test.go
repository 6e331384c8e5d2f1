package scale

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"clowder/bench/hostbench"
)

// short is a run small enough for a test: the figures must come out and be
// sane, not be fast.
var short = Config{Panes: 3, LsRuns: 2, Idle: 200 * time.Millisecond}

func TestClowderScaleProducesEveryFigure(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	r, err := Clowder(ctx, buildClowder(t, ctx), short)
	if err != nil {
		t.Fatal(err)
	}
	checkSane(t, r)
}

func TestTmuxScaleProducesEveryFigure(t *testing.T) {
	needTmux(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	r, err := Tmux(ctx, short)
	if err != nil {
		t.Fatal(err)
	}
	checkSane(t, r)
}

// TestTooFewPanesIsRefusedBeforeAnythingStarts passes a binary that does
// not exist: a refusal that came after starting the host would fail on it.
func TestTooFewPanesIsRefusedBeforeAnythingStarts(t *testing.T) {
	ctx := context.Background()
	if _, err := Clowder(ctx, filepath.Join(t.TempDir(), "no-clowder"), Config{Panes: 1, LsRuns: 1}); err == nil || !strings.Contains(err.Error(), "1 panes") {
		t.Errorf("clowder, 1 pane: %v", err)
	}
	if _, err := Tmux(ctx, Config{Panes: 1, LsRuns: 1}); err == nil || !strings.Contains(err.Error(), "1 panes") {
		t.Errorf("tmux, 1 pane: %v", err)
	}
}

// TestClowderLeavesNothingBehind checks that the host, every pane's shell
// and the host's directories are gone once the run is closed.
func TestClowderLeavesNothingBehind(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	h, err := startHost(ctx, buildClowder(t, ctx))
	if err != nil {
		t.Fatal(err)
	}
	closeOnFailure(t, h.close)
	pids := spawnTwo(t, ctx, h)
	if _, err := h.close(); err != nil {
		t.Fatal(err)
	}
	checkGone(t, pids, h.dir)
}

// TestTmuxLeavesNothingBehind checks the same of the tmux server, and that
// its socket was in the run's own TMUX_TMPDIR, not in /tmp/tmux-UID.
func TestTmuxLeavesNothingBehind(t *testing.T) {
	needTmux(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	tm, err := startTmux(ctx)
	if err != nil {
		t.Fatal(err)
	}
	closeOnFailure(t, tm.close)
	sock := filepath.Join(tm.dir, "tmux-"+strconv.Itoa(os.Getuid()), "scale")
	if _, err := os.Stat(sock); err != nil {
		t.Errorf("the server's socket is not in its TMUX_TMPDIR: %v", err)
	}
	pids := spawnTwo(t, ctx, tm)
	if _, err := tm.close(); err != nil {
		t.Fatal(err)
	}
	checkGone(t, pids, tm.dir)
}

// closeOnFailure stops a server the test did not get to close itself: a
// failure before the close must not leave a host or its shells running.
// (Before it, every failed run of these tests left one behind.)
func closeOnFailure(t *testing.T, close func() (time.Duration, error)) {
	t.Cleanup(func() {
		if t.Failed() {
			_, _ = close() // best effort: the test has failed already
		}
	})
}

// spawnTwo gives s a second pane, waits for both prompts and returns the
// server's and the panes' pids.
func spawnTwo(t *testing.T, ctx context.Context, s server) []int {
	t.Helper()
	if err := s.spawn(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.waitPrompts(ctx); err != nil {
		t.Fatal(err)
	}
	pids, err := s.processes(ctx)
	if err != nil || len(pids) != 3 {
		t.Fatalf("server and two panes: pids %v, %v", pids, err)
	}
	for _, p := range pids {
		if !alive(p) {
			t.Fatalf("pid %d of %v is not running before the close", p, pids)
		}
	}
	return pids
}

func checkGone(t *testing.T, pids []int, dir string) {
	t.Helper()
	for _, p := range pids {
		if alive(p) {
			t.Errorf("pid %d outlived the close", p)
		}
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s is left behind: %v", dir, err)
	}
}

func checkSane(t *testing.T, r Result) {
	t.Helper()
	first, last := r.SpawnFirstLast()
	switch {
	case r.Panes != short.Panes || len(r.Spawn) != short.Panes-1 || r.SpawnAll <= 0 || first <= 0 || last <= 0:
		t.Errorf("spawn figures: %+v", r)
	case r.RSS1 < 1<<20 || r.RSSN < 1<<20 || r.Anon1 <= 0 || r.Anon1 > r.RSS1 || r.AnonN <= 0 || r.AnonN > r.RSSN:
		t.Errorf("resident memory: %d (%d anonymous) with one pane, %d (%d) with %d", r.RSS1, r.Anon1, r.RSSN, r.AnonN, r.Panes)
	case len(r.Ls1) != short.LsRuns || len(r.LsN) != short.LsRuns || r.Ls1.Median() <= 0 || r.LsN.Median() <= 0:
		t.Errorf("ls figures: %v %v", r.Ls1, r.LsN)
	case r.Stop <= 0:
		t.Errorf("stop time %v", r.Stop)
	case r.Idle1.Over != short.Idle || r.IdleN.Over != short.Idle || r.Idle1.CPU < 0 || r.IdleN.Wakeups < 0:
		t.Errorf("idle figures: %+v %+v", r.Idle1, r.IdleN)
	}
	t.Logf("%d panes: spawn %v each (first %v, last %v), RSS %d -> %d (%d per pane), ls %v -> %v, idle %+v -> %+v, stop %v",
		r.Panes, r.SpawnPerPane(), first, last, r.RSS1, r.RSSN, r.RSSPerPane(), r.Ls1.Median(), r.LsN.Median(), r.Idle1, r.IdleN, r.Stop)
}

func needTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("needs tmux")
	}
}

func buildClowder(t *testing.T, ctx context.Context) string {
	t.Helper()
	bin, err := hostbench.BuildClowder(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return bin
}
