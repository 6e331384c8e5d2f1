package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"clowder/bench/scale"
)

// checkScale refuses a pane count with no per-pane figures before any
// benchmark runs.
func checkScale(c config) error {
	if !c.skipScale && c.scalePanes < 2 {
		return fmt.Errorf("-scale-panes %d: the scale figures need at least 2 panes (or -skip-scale)", c.scalePanes)
	}
	return nil
}

// runScale measures a host with c.scalePanes idle shells next to a tmux
// server with as many windows (tmux left out with -skip-tmux).
func runScale(w io.Writer, c config, sum *summary) error {
	ctx, cancel := context.WithTimeout(context.Background(), c.tmuxTimeout)
	defer cancel()
	cfg := scale.Config{Panes: c.scalePanes, LsRuns: c.cliRuns, Idle: c.idle}
	fmt.Fprintf(os.Stderr, "scale: %d idle shells in a clowder host\n", cfg.Panes)
	ours, err := scale.Clowder(ctx, c.bin, cfg)
	if err != nil {
		return fmt.Errorf("clowder at scale: %w", err)
	}
	sum.scale = &ours
	if !c.skipTmux {
		fmt.Fprintf(os.Stderr, "scale: %d idle shells in a tmux server\n", cfg.Panes)
		theirs, err := scale.Tmux(ctx, cfg)
		if err != nil {
			return fmt.Errorf("tmux at scale: %w", err)
		}
		sum.scaleTmux = &theirs
	}
	printScale(w, cfg, ours, sum.scaleTmux)
	return nil
}

// printScale prints the scale section: one column per side.
func printScale(w io.Writer, cfg scale.Config, r scale.Result, t *scale.Result) {
	n := r.Panes
	fmt.Fprintf(w, "\n## Scale: %d idle shells in one server\n\n", n)
	fmt.Fprintf(w, "The real host (`clowder host --foreground`) with `clowder new --shell` run %d times, next to a tmux server with `tmux new-window -d` run as often (the first pane is each server's start); every shell is `/bin/sh` at an 80x24 prompt before anything is read. `ls` is `clowder ls` and `tmux list-panes -a`, whole process, %d runs. Idle: the server's CPU and wake-ups (voluntary context switches, all threads) over %s, no client connected. Stop: `clowder host stop --force` and `tmux kill-server`.\n\n", n, cfg.LsRuns, cfg.Idle)
	fmt.Fprintln(w, "| | clowder host | tmux server | ratio |\n|---|--:|--:|--:|")
	theirs := func(f func(scale.Result) string) string {
		if t == nil {
			return "–"
		}
		return f(*t)
	}
	for _, row := range scaleRows(n) {
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", row.name, row.value(r), theirs(row.value), scaleRatio(row, r, t))
	}
	fmt.Fprintf(w, "\nPer pane: memory is (anonymous RSS with %d - anonymous RSS with 1) / %d (heap and stacks; the binary's code pages, which a clowder host drops once it is quiet after its start and its first spawns page back in, are paid once, not per pane); `ls` per pane is (median with %d - median with 1) / %d. A spawn that costs more as panes pile up shows as the last ten spawns' median above the first ten's. Server CPU comes from /proc/PID/stat in clock ticks of 10 ms, summed over all the spawns or all the runs of `ls`, then divided.\n", n, n-1, n, n-1)
}

// scaleRow is one figure of the scale table: how to print it, and its
// measure for the ratio (lower is better for every one; 0: no ratio).
type scaleRow struct {
	name    string
	value   func(scale.Result) string
	measure func(scale.Result) float64
}

func scaleRows(n int) []scaleRow {
	spawnFirst := func(r scale.Result) time.Duration { f, _ := r.SpawnFirstLast(); return f }
	spawnLast := func(r scale.Result) time.Duration { _, l := r.SpawnFirstLast(); return l }
	return []scaleRow{
		durRow(fmt.Sprintf("spawn panes 2 to %d, all", n), func(r scale.Result) time.Duration { return r.SpawnAll }),
		durRow("spawn, per pane (mean)", scale.Result.SpawnPerPane),
		durRow("spawn, median of the first ten", spawnFirst),
		durRow("spawn, median of the last ten", spawnLast),
		durRow("server CPU per spawn", scale.Result.SpawnCPUPerPane),
		mbRow("server RSS, 1 pane", func(r scale.Result) int64 { return r.RSS1 }),
		mbRow(fmt.Sprintf("server RSS, %d panes", n), func(r scale.Result) int64 { return r.RSSN }),
		kbRow("server RSS per pane (anonymous)", scale.Result.RSSPerPane),
		durRow("`ls`, 1 pane (median)", func(r scale.Result) time.Duration { return r.Ls1.Median() }),
		durRow(fmt.Sprintf("`ls`, %d panes (median)", n), func(r scale.Result) time.Duration { return r.LsN.Median() }),
		durRow(fmt.Sprintf("`ls`, %d panes (p99)", n), func(r scale.Result) time.Duration { return r.LsN.P99() }),
		durRow("`ls`, per pane", lsPerPane),
		durRow("server CPU per `ls`, 1 pane", func(r scale.Result) time.Duration { c, _ := r.LsCPU(); return c }),
		durRow(fmt.Sprintf("server CPU per `ls`, %d panes", n), func(r scale.Result) time.Duration { _, c := r.LsCPU(); return c }),
		idleRow("idle server CPU, 1 pane", func(r scale.Result) scale.Idle { return r.Idle1 }, false),
		idleRow(fmt.Sprintf("idle server CPU, %d panes", n), func(r scale.Result) scale.Idle { return r.IdleN }, false),
		idleRow("idle server wake-ups, 1 pane", func(r scale.Result) scale.Idle { return r.Idle1 }, true),
		idleRow(fmt.Sprintf("idle server wake-ups, %d panes", n), func(r scale.Result) scale.Idle { return r.IdleN }, true),
		durRow(fmt.Sprintf("stop the server with %d panes, until every shell is gone", n), func(r scale.Result) time.Duration { return r.Stop }),
	}
}

func durRow(name string, f func(scale.Result) time.Duration) scaleRow {
	return scaleRow{name, func(r scale.Result) string { return ms(f(r)) }, func(r scale.Result) float64 { return float64(f(r)) }}
}

func mbRow(name string, f func(scale.Result) int64) scaleRow {
	return scaleRow{name, func(r scale.Result) string { return fmt.Sprintf("%.2f MB", float64(f(r))/1e6) }, func(r scale.Result) float64 { return float64(f(r)) }}
}

func kbRow(name string, f func(scale.Result) int64) scaleRow {
	return scaleRow{name, func(r scale.Result) string { return kb(f(r)) }, func(r scale.Result) float64 { return float64(f(r)) }}
}

// idleRow prints CPU (with its share of the period) or wake-ups per
// second; neither has a ratio, as tmux's are often zero.
func idleRow(name string, of func(scale.Result) scale.Idle, wake bool) scaleRow {
	v := func(r scale.Result) string {
		i := of(r)
		if wake {
			return fmt.Sprintf("%.1f /s", i.PerSecond())
		}
		return fmt.Sprintf("%s (%.2f%%)", msOf(i.CPU), 100*i.CPU.Seconds()/i.Over.Seconds())
	}
	return scaleRow{name: name, value: v}
}

// lsPerPane is what each pane after the first adds to `ls`.
func lsPerPane(r scale.Result) time.Duration {
	return (r.LsN.Median() - r.Ls1.Median()) / time.Duration(r.Panes-1)
}

// scaleRatio is tmux's figure over clowder's: above 1.00x clowder is ahead.
func scaleRatio(row scaleRow, r scale.Result, t *scale.Result) string {
	if t == nil || row.measure == nil {
		return "–"
	}
	return ratio(row.measure(*t), row.measure(r))
}

// scaleSummary adds the scale rows to issue 12's table.
func scaleSummary(w io.Writer, r, t *scale.Result) {
	if r == nil || t == nil {
		return
	}
	n := r.Panes
	row(w, fmt.Sprintf("%d panes: spawn time per pane (whole process, mean over panes 2 to %d)", n, n), ms(r.SpawnPerPane()), ms(t.SpawnPerPane()), ratioLower(r.SpawnPerPane(), t.SpawnPerPane()))
	row(w, fmt.Sprintf("%d panes: server RSS per pane ((anonymous RSS %d - anonymous RSS 1) / %d)", n, n, n-1), kb(r.RSSPerPane()), kb(t.RSSPerPane()), ratio(float64(t.RSSPerPane()), float64(r.RSSPerPane())))
	row(w, fmt.Sprintf("%d panes: server RSS", n), fmt.Sprintf("%.1f MB", float64(r.RSSN)/1e6), fmt.Sprintf("%.1f MB", float64(t.RSSN)/1e6), ratio(float64(t.RSSN), float64(r.RSSN)))
	row(w, fmt.Sprintf("%d panes: `ls` (whole process, median; `tmux list-panes -a`)", n), ms(r.LsN.Median()), ms(t.LsN.Median()), ratioLower(r.LsN.Median(), t.LsN.Median()))
	row(w, fmt.Sprintf("%d panes: idle server CPU over %s", n, r.IdleN.Over), msOf(r.IdleN.CPU), msOf(t.IdleN.CPU), "–")
	row(w, fmt.Sprintf("%d panes: stop the server, until every shell is gone", n), ms(r.Stop), ms(t.Stop), ratioLower(r.Stop, t.Stop))
	row(w, fmt.Sprintf("%d panes: server wake-ups per second, idle", n), fmt.Sprintf("%.1f /s", r.IdleN.PerSecond()), fmt.Sprintf("%.1f /s", t.IdleN.PerSecond()), "–")
}

func kb(b int64) string { return fmt.Sprintf("%.1f kB", float64(b)/1e3) }
