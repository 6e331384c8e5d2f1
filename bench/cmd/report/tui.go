package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"clowder/bench/hostbench"
	"clowder/bench/latency"
	"clowder/bench/tuibench"
)

// runTUI measures the whole stack in an outer tmux: idle CPU with 4 idle
// panes and keystroke to screen, for clowder's TUI and for nested tmux.
func runTUI(w io.Writer, c config) error {
	ctx, cancel := context.WithTimeout(context.Background(), c.tmuxTimeout)
	defer cancel()
	dir, err := os.MkdirTemp("", "clowder-bench-tui-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin, err := hostbench.BuildClowder(ctx, dir)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "measuring idle CPU over %s, twice\n", c.idle)
	ours, err := tuibench.ClowderIdle(ctx, bin, 4, c.idle)
	if err != nil {
		return fmt.Errorf("clowder idle: %w", err)
	}
	theirs, err := tuibench.TmuxIdle(ctx, 4, c.idle)
	if err != nil {
		return fmt.Errorf("tmux idle: %w", err)
	}
	fmt.Fprintf(os.Stderr, "timing %d keystrokes through each whole stack\n", c.keys)
	ck, err := tuibench.ClowderKeys(ctx, bin, c.keys)
	if err != nil {
		return fmt.Errorf("clowder keys: %w", err)
	}
	tk, err := tuibench.TmuxKeys(ctx, c.keys)
	if err != nil {
		return fmt.Errorf("tmux keys: %w", err)
	}
	printTUI(w, ours, theirs, ck, tk)
	return nil
}

func printTUI(w io.Writer, ours, theirs tuibench.Idle, ck, tk latency.Samples) {
	fmt.Fprintf(w, "\n## The whole stack, inside an outer tmux\n\n")
	fmt.Fprintf(w, "Idle CPU over %s with 4 idle shell panes (160x48):\n\n| | UI process | server process |\n|---|--:|--:|\n", ours.Over)
	fmt.Fprintf(w, "| clowder (TUI, host) | %s (%.2f%%) | %s (%.2f%%) |\n", ours.UI, pct(ours.UI, ours.Over), ours.Server, pct(ours.Server, ours.Over))
	fmt.Fprintf(w, "| tmux (client, server) | %s (%.2f%%) | %s (%.2f%%) |\n", theirs.UI, pct(theirs.UI, theirs.Over), theirs.Server, pct(theirs.Server, theirs.Over))
	fmt.Fprintf(w, "\nKeystroke to screen: `send-keys -l` to the outer pane, then `capture-pane -p` until the echo shows (the outer tmux's own cost is in both rows), %d keys:\n\n| | median | p99 | median vs tmux |\n|---|--:|--:|--:|\n", len(ck))
	fmt.Fprintf(w, "| clowder TUI → master → cat → host → frame → TUI | %s | %s | %s |\n", ms(ck.Median()), ms(ck.P99()), ratio(float64(ck.Median()), float64(tk.Median())))
	fmt.Fprintf(w, "| tmux nested in tmux | %s | %s | 1.00x |\n", ms(tk.Median()), ms(tk.P99()))
}

func pct(d, over time.Duration) float64 { return 100 * d.Seconds() / over.Seconds() }
