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
		memTerms: 2, memLines: 100, keys: 5, idle: 100 * time.Millisecond, tmuxTimeout: time.Minute,
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
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	if !c.skipTmux && !strings.Contains(out.String(), "| tmux ") {
		t.Errorf("report lacks the tmux row:\n%s", out.String())
	}
}
