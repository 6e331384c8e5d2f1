package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"clowder/bench/hostbench"
	"clowder/bench/ptyread"
	"clowder/bench/streamgen"
	"clowder/bench/tmuxbench"
)

// plainResult is the plain-text flood with no client: the bare PTY reader,
// the host and tmux on the same file in the same run.
type plainResult struct {
	bytes int64
	bare  ptyread.Result
	host  hostbench.FloodResult
	tmux  *tmuxbench.ParseResult
}

// runPlain writes c.plainMB of plain text lines and floods it through a
// bare PTY reader, a host pane and a tmux pane.
func runPlain(w io.Writer, c config, sum *summary) error {
	ctx, cancel := context.WithTimeout(context.Background(), c.tmuxTimeout)
	defer cancel()
	file, done, err := streamFile(streamgen.PlainText(c.seed, c.plainMB*1e6))
	if err != nil {
		return err
	}
	defer done()
	var r plainResult
	r.bytes = int64(c.plainMB * 1e6)
	fmt.Fprintf(os.Stderr, "plain-text flood of %d MB: bare PTY reader, host, tmux\n", c.plainMB)
	if r.bare, err = ptyread.Read(ctx, file, c.cols, c.rows); err != nil {
		return err
	}
	if r.host, err = hostbench.Flood(ctx, file, c.cols, c.rows); err != nil {
		return fmt.Errorf("host plain flood: %w", err)
	}
	if !c.skipTmux {
		t, err := tmuxbench.Parse(ctx, file, c.cols, c.rows, c.scrollback)
		if err != nil {
			return fmt.Errorf("tmux plain flood: %w", err)
		}
		r.tmux = &t
	}
	printPlain(w, r)
	sum.plain = &r
	return nil
}

func printPlain(w io.Writer, r plainResult) {
	fmt.Fprintf(w, "\n## Plain-text flood, no client attached: %.0f MB of ASCII lines (CR LF, no escapes)\n\n", float64(r.bytes)/1e6)
	fmt.Fprintln(w, "| reader | MB/s | MB/CPU-s | MB/s vs tmux | MB/CPU-s vs tmux | MB/s vs bare PTY |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|")
	var tw, tc float64
	if r.tmux != nil {
		tw, tc = r.tmux.MBps(), r.tmux.MBperCPUs()
	}
	bw := r.bare.MBps()
	fmt.Fprintf(w, "| bare PTY reader (reads the master, discards) | %.1f | %s | %s | %s | 1.00x |\n", bw, rate(r.bare.MBperCPUs()), ratio(bw, tw), ratio(r.bare.MBperCPUs(), tc))
	fmt.Fprintf(w, "| clowder host (ring, screen, scrollback) | %.1f | %s | %s | %s | %s |\n", r.host.MBps(), rate(r.host.MBperCPUs()), ratio(r.host.MBps(), tw), ratio(r.host.MBperCPUs(), tc), ratio(r.host.MBps(), bw))
	if r.tmux != nil {
		fmt.Fprintf(w, "| %s server | %.1f | %s | 1.00x | 1.00x | %s |\n", tmuxVersion(), tw, rate(tc), ratio(tw, bw))
	}
	fmt.Fprintf(w, "\nThe bare reader does %d reads (%.0f B each): the PTY hands over about 4 KiB at a time. MB/CPU-s counts the reader's process only (the host's runs in the report's process: its reader, parser and ring, and an idle client), never cat.\n",
		r.bare.Reads, float64(r.bare.Bytes)/float64(max(r.bare.Reads, 1)))
}
