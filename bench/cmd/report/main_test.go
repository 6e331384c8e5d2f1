package main

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestRunPrintsEveryTableOnATinyStream(t *testing.T) {
	c := config{
		mb: 1, xvtMB: 1, seed: 1, cols: 200, rows: 50, scrollback: 1000,
		memTerms: 2, memLines: 100, keys: 5, idle: 100 * time.Millisecond, tmuxTimeout: 2 * time.Minute,
		plainMB: 1, attachedMB: 1, cliRuns: 2, coldRuns: 1, scalePanes: 3,
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		c.skipTmux = true
	}
	var out strings.Builder
	if err := run(&out, c); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"### Parse throughput", "| clowder vtgrid |", "| hinshun/vt10x ", "| charmbracelet/x/vt ",
		"### Keystroke round trip", "### Memory", "n/a: keeps no scrollback",
		"## Plain-text flood", "| bare PTY reader", "## Summary", "| plain text lines, no client",
		"## Scale: 3 idle shells", "| server RSS per pane (anonymous) |",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	if c.skipTmux {
		return
	}
	for _, want := range []string{"| keystroke to screen, 8 panes with the 7 others flooding", "| tmux nested in tmux |"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks the flood-keys row %q:\n%s", want, out.String())
		}
	}
	for _, want := range []string{
		"| tmux ", "control-mode client", "| 8 panes |", "| 2 panes, a key every 50ms |", "| same, 2 panes, a key every 50ms", "with the UI attached", "## The CLI", "cold start",
		"| keystroke to screen through the UI, 8 panes", "| bytes the UI writes to the terminal per echoed key",
		"| `capture --scrollback 10000`", "| server wake-ups per second", "| server memory per history line",
		"of the bench stream in the focused pane", "| the bench stream (SGR, wide text, redraws), UI attached",
		"| 3 panes: spawn time per pane", "| 3 panes: server RSS per pane", "| 3 panes: `ls`", "| 3 panes: server wake-ups per second, idle",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}

func TestTooFewScalePanesAreRefusedBeforeAnyRun(t *testing.T) {
	err := run(&strings.Builder{}, config{scalePanes: 1, tmuxTimeout: time.Minute})
	if err == nil || !strings.Contains(err.Error(), "-scale-panes 1") {
		t.Fatalf("-scale-panes 1: %v", err)
	}
}
