package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"clowder/bench/hostbench"
	"clowder/bench/latency"
	"clowder/bench/streamgen"
)

// runHost floods the same stream through a clowder pane and times spawn to
// first output. tmuxMBps is tmux's figure on the stream, for the ratio.
func runHost(w io.Writer, c config, tmuxMBps float64, sum *summary) error {
	ctx, cancel := context.WithTimeout(context.Background(), c.tmuxTimeout)
	defer cancel()
	file, done, err := streamFile(streamgen.Generate(c.seed, c.mb*1e6))
	if err != nil {
		return err
	}
	defer done()
	fmt.Fprintf(os.Stderr, "flooding %d MB through a clowder pane\n", c.mb)
	fl, err := hostbench.Flood(ctx, file, c.cols, c.rows)
	if err != nil {
		return fmt.Errorf("host flood: %w", err)
	}
	spawn, err := hostbench.SpawnToFirstOutput(ctx, 20)
	if err != nil {
		return fmt.Errorf("spawn to first output: %w", err)
	}
	printHost(w, fl, tmuxMBps, spawn)
	return runRSS(ctx, w, c.bin, sum)
}

// idlePanes is how many idle shells the memory comparison opens.
const idlePanes = 10

// runRSS compares the resident memory of the real host binary and of a tmux
// server, each with idlePanes idle shells.
func runRSS(ctx context.Context, w io.Writer, bin string, sum *summary) error {
	fmt.Fprintf(os.Stderr, "measuring host memory with %d idle panes\n", idlePanes)
	// The smallest of three runs: the first of a cold binary counts page
	// faults of its start-up (measured here: 21 MB once, 12.5-12.8 MB after).
	ours, err := smallest(3, func() (int64, error) { return hostbench.IdleRSS(ctx, bin, idlePanes) })
	if err != nil {
		return fmt.Errorf("clowder host RSS: %w", err)
	}
	theirs, err := smallest(3, func() (int64, error) { return hostbench.TmuxIdleRSS(ctx, idlePanes) })
	if err != nil {
		return fmt.Errorf("tmux RSS: %w", err)
	}
	sum.rss, sum.rssTmux = ours, theirs
	fmt.Fprintf(w, "\n## Resident memory with %d idle shell panes (80x24), smallest of 3 runs\n\n| process | RSS | vs tmux |\n|---|--:|--:|\n", idlePanes)
	fmt.Fprintf(w, "| clowder host | %.1f MB | %s |\n| tmux server | %.1f MB | 1.00x |\n",
		float64(ours)/1e6, ratio(float64(ours), float64(theirs)), float64(theirs)/1e6)
	return nil
}

// smallest runs f n times and returns the smallest result.
func smallest(n int, f func() (int64, error)) (int64, error) {
	var best int64
	for i := 0; i < n; i++ {
		v, err := f()
		if err != nil {
			return 0, err
		}
		if i == 0 || v < best {
			best = v
		}
	}
	return best, nil
}

func printHost(w io.Writer, fl hostbench.FloodResult, tmuxMBps float64, spawn latency.Samples) {
	fmt.Fprintf(w, "\n## The host: flood through a pane\n\n")
	fmt.Fprintf(w, "`cat` of the same stream in a raw-mode pane: the host reads it, parses it into the pane's screen and keeps it in the ring; timed from the spawn request to the reported exit (after the final drain), minus an empty file's run (%s).\n\n", fl.Overhead.Round(1e5))
	fmt.Fprintf(w, "| | MB | MB/s | vs tmux |\n|---|--:|--:|--:|\n")
	fmt.Fprintf(w, "| clowder host | %.1f | %.1f | %s |\n", float64(fl.Bytes)/1e6, fl.MBps(), ratio(fl.MBps(), tmuxMBps))
	if tmuxMBps > 0 {
		fmt.Fprintf(w, "| tmux (detached pane, above) | | %.1f | 1.00x |\n", tmuxMBps)
	}
	fmt.Fprintf(w, "\nSpawn to first output (`echo` in a new pane, seen on the host's screen), %d runs: median %s, p99 %s.\n",
		len(spawn), spawn.Median().Round(1e4), spawn.P99().Round(1e4))
}
