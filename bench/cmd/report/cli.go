package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"clowder/bench/clibench"
)

// runCLI times clowder's CLI commands and a cold start next to tmux's.
func runCLI(w io.Writer, c config, sum *summary) error {
	ctx, cancel := context.WithTimeout(context.Background(), c.tmuxTimeout)
	defer cancel()
	fmt.Fprintf(os.Stderr, "timing the CLI, %d runs of each command and %d cold starts\n", c.cliRuns, c.coldRuns)
	ours, err := clibench.ClowderCLI(ctx, c.bin, c.cliRuns)
	if err != nil {
		return fmt.Errorf("clowder CLI: %w", err)
	}
	theirs, err := clibench.TmuxCLI(ctx, c.cliRuns)
	if err != nil {
		return fmt.Errorf("tmux CLI: %w", err)
	}
	cold, err := clibench.ColdStart(ctx, c.bin, c.coldRuns)
	if err != nil {
		return fmt.Errorf("clowder cold start: %w", err)
	}
	coldTmux, err := clibench.TmuxColdStart(ctx, c.coldRuns)
	if err != nil {
		return fmt.Errorf("tmux cold start: %w", err)
	}
	sum.cli, sum.cliTmux, sum.cold, sum.coldTmux = &ours, &theirs, cold.Median(), coldTmux.Median()
	fmt.Fprintf(w, "\n## The CLI, whole process (exec to exit), %d runs each\n\n", c.cliRuns)
	fmt.Fprintln(w, "| command | clowder median | p99 | tmux command | median | p99 |\n|---|--:|--:|---|--:|--:|")
	fmt.Fprintf(w, "| `ls` | %s | %s | `tmux ls` | %s | %s |\n", ms(ours.Ls.Median()), ms(ours.Ls.P99()), ms(theirs.Ls.Median()), ms(theirs.Ls.P99()))
	fmt.Fprintf(w, "| `capture` (200x50) | %s | %s | `capture-pane -p` | %s | %s |\n", ms(ours.Capture.Median()), ms(ours.Capture.P99()), ms(theirs.Capture.Median()), ms(theirs.Capture.P99()))
	fmt.Fprintf(w, "| `capture --scrollback 10000` | %s | %s | `capture-pane -p -S -10000` | %s | %s |\n", ms(ours.CaptureHistory.Median()), ms(ours.CaptureHistory.P99()), ms(theirs.CaptureHistory.Median()), ms(theirs.CaptureHistory.P99()))
	fmt.Fprintf(w, "| cold start: `new -- true`, `wait --exit`, no host running | %s | %s | `new-session -d 'true; wait-for -S' \\; wait-for`, no server | %s | %s |\n", ms(cold.Median()), ms(cold.P99()), ms(coldTmux.Median()), ms(coldTmux.P99()))
	fmt.Fprintf(w, "\nServer CPU per history capture: clowder host %s, tmux server %s.\n", msOf(ours.ServerCPU), msOf(theirs.ServerCPU))
	fmt.Fprintf(w, "\nServer memory per history line (resident anonymous memory grown while a pane printed 10,100 build-like lines of about 45 columns, over the 10,000 its history keeps; clowder's raw output ring included): a second pane filled after the first, clowder host %.0f B, tmux server %.0f B; the first pane, with what the server grows once, clowder host %.0f B, tmux server %.0f B.\n", ours.SecondPerLine(), theirs.SecondPerLine(), ours.HistoryPerLine(), theirs.HistoryPerLine())
	return nil
}
