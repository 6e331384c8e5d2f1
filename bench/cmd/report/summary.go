package main

import (
	"fmt"
	"io"
	"time"

	"clowder/bench/clibench"
	"clowder/bench/scale"
	"clowder/bench/tuibench"
)

// summary collects the figures of issue 12's table as the sections run;
// nil or zero means the part was skipped.
type summary struct {
	plain                       *plainResult
	attached, attachedTmx       *tuibench.AttachedFlood      // plain text
	attachedMix, attachedMixTmx *tuibench.AttachedFlood      // the bench stream
	keys, keysTmux              map[int]tuibench.ControlKeys // by panes on the layout
	keysPaced, keysPacedTmux    *tuibench.ControlKeys        // 2 panes, typingPace apart
	floodKeys                   *tuibench.FloodKeys          // 8 panes, idle then 7 flooding
	floodKeysTmux               *tuibench.FloodKeys
	cli, cliTmux                *clibench.CLI
	cold, coldTmux              time.Duration
	rss, rssTmux                int64
	idle, idleTmux              *tuibench.Idle
	scale, scaleTmux            *scale.Result
}

// printSummary prints the table: clowder, tmux and the ratio for
// each row, all measured in this run.
func printSummary(w io.Writer, s *summary) {
	fmt.Fprintln(w, "\n## Summary: the figures users feel, clowder next to tmux in this run")
	fmt.Fprintln(w, "\n| figure | clowder | tmux | ratio |\n|---|--:|--:|--:|")
	if p := s.plain; p != nil {
		tw, tc := 0.0, 0.0
		if p.tmux != nil {
			tw, tc = p.tmux.MBps(), p.tmux.MBperCPUs()
		}
		row(w, "plain text lines, no client (MB/s; bare PTY reader: "+fmt.Sprintf("%.1f MB/s", p.bare.MBps())+")", fmt.Sprintf("%.1f MB/s", p.host.MBps()), fmt.Sprintf("%.1f MB/s", tw), ratio(p.host.MBps(), tw))
		row(w, "same, per CPU second (bare PTY reader: "+rate(p.bare.MBperCPUs())+")", rate(p.host.MBperCPUs())+" MB/CPU-s", rate(tc)+" MB/CPU-s", ratio(p.host.MBperCPUs(), tc))
	}
	if a, t := s.attached, s.attachedTmx; a != nil && t != nil {
		row(w, "plain text, UI attached", fmt.Sprintf("%.1f MB/s", a.MBps()), fmt.Sprintf("%.1f MB/s", t.MBps()), ratio(a.MBps(), t.MBps()))
		ours, theirs := a.PerMB(a.ServerCPU+a.UICPU), t.PerMB(t.ServerCPU)
		row(w, "host + TUI CPU per MB, attached (tmux: server; its client adds "+msOf(t.PerMB(t.UICPU))+")", msOf(ours), msOf(theirs), ratioLower(ours, theirs))
		row(w, "UI CPU while one pane floods, share of the server's", pctOf(a.UICPU, a.ServerCPU), pctOf(t.UICPU, t.ServerCPU), "–")
	}
	if a, t := s.attachedMix, s.attachedMixTmx; a != nil && t != nil {
		ours, theirs := a.PerMB(a.ServerCPU+a.UICPU), t.PerMB(t.ServerCPU)
		row(w, "the bench stream (SGR, wide text, redraws), UI attached: MB/s", fmt.Sprintf("%.1f MB/s", a.MBps()), fmt.Sprintf("%.1f MB/s", t.MBps()), ratio(a.MBps(), t.MBps()))
		row(w, "same, host + TUI CPU per MB (tmux: server; its client adds "+msOf(t.PerMB(t.UICPU))+"; UI share "+pctOf(a.UICPU, a.ServerCPU)+")", msOf(ours), msOf(theirs), ratioLower(ours, theirs))
	}
	for _, n := range []int{2, 8} {
		if k, ok := s.keys[n]; ok {
			t := s.keysTmux[n]
			tl := "–"
			if len(t.Samples) > 0 {
				tl = ms(t.Samples.Median())
			}
			row(w, fmt.Sprintf("keystroke to screen through the UI, %d panes (control-mode timing, median)", n), ms(k.Samples.Median()), tl, ratioLower(k.Samples.Median(), t.Samples.Median()))
		}
	}
	if k, t := s.keysPaced, s.keysPacedTmux; k != nil && t != nil {
		row(w, fmt.Sprintf("same, 2 panes, a key every %v: the processors idle between keys (control-mode timing, median)", typingPace), ms(k.Samples.Median()), ms(t.Samples.Median()), ratioLower(k.Samples.Median(), t.Samples.Median()))
	}
	if k, t := s.floodKeys, s.floodKeysTmux; k != nil && t != nil {
		row(w, "keystroke to screen, 8 panes with the 7 others flooding (control mode, median; in parentheses: idle median and flooding / idle, goal under 2x)",
			fmt.Sprintf("%s (%s, %.2fx)", ms(k.Flood.Median()), ms(k.Idle.Median()), k.Ratio()),
			fmt.Sprintf("%s (%s, %.2fx)", ms(t.Flood.Median()), ms(t.Idle.Median()), t.Ratio()), ratioLower(k.Flood.Median(), t.Flood.Median()))
	}
	if k, ok := s.keys[2]; ok {
		row(w, "bytes the UI writes to the terminal per echoed key", fmt.Sprintf("%.1f", k.BytesPerKey), fmt.Sprintf("%.1f", s.keysTmux[2].BytesPerKey), ratio(s.keysTmux[2].BytesPerKey, k.BytesPerKey))
	}
	if c, t := s.cli, s.cliTmux; c != nil && t != nil {
		row(w, "`ls` (whole process, median)", ms(c.Ls.Median()), ms(t.Ls.Median()), ratioLower(c.Ls.Median(), t.Ls.Median()))
		row(w, "`capture` (whole process, median)", ms(c.Capture.Median()), ms(t.Capture.Median()), ratioLower(c.Capture.Median(), t.Capture.Median()))
		row(w, fmt.Sprintf("`capture --scrollback 10000` (server CPU: %s / %s)", msOf(c.ServerCPU), msOf(t.ServerCPU)), ms(c.CaptureHistory.Median()), ms(t.CaptureHistory.Median()), ratioLower(c.CaptureHistory.Median(), t.CaptureHistory.Median()))
		row(w, "server memory per history line (RSS grown over 10,000 lines of a second pane; clowder: ring included; in parentheses the first pane, with what the server grows once)", fmt.Sprintf("%.0f B (%.0f B)", c.SecondPerLine(), c.HistoryPerLine()), fmt.Sprintf("%.0f B (%.0f B)", t.SecondPerLine(), t.HistoryPerLine()), ratio(t.SecondPerLine(), c.SecondPerLine()))
	}
	if s.cold > 0 {
		row(w, "cold start: `new -- true` and wait for its exit (median)", ms(s.cold), ms(s.coldTmux), ratioLower(s.cold, s.coldTmux))
	}
	if s.rss > 0 {
		row(w, fmt.Sprintf("host RSS, %d idle shells", idlePanes), fmt.Sprintf("%.1f MB", float64(s.rss)/1e6), fmt.Sprintf("%.1f MB", float64(s.rssTmux)/1e6), ratio(float64(s.rssTmux), float64(s.rss)))
	}
	if i, t := s.idle, s.idleTmux; i != nil && t != nil {
		row(w, "server wake-ups per second, idle panes", wakeRate(*i, i.ServerWakeups), wakeRate(*t, t.ServerWakeups), "–")
		row(w, "UI wake-ups per second, idle panes", wakeRate(*i, i.UIWakeups), wakeRate(*t, t.UIWakeups), "–")
	}
	scaleSummary(w, s.scale, s.scaleTmux)
	fmt.Fprintln(w, "\nEvery ratio reads the same way: above 1.00x clowder is ahead (clowder over tmux for rates, tmux over clowder for times, bytes and memory).")
}

func row(w io.Writer, name, ours, theirs, r string) {
	fmt.Fprintf(w, "| %s | %s | %s | %s |\n", name, ours, theirs, r)
}

// ratioLower is theirs over ours for figures where lower is better.
func ratioLower(ours, theirs time.Duration) string { return ratio(float64(theirs), float64(ours)) }

func msOf(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/1e6) }

func pctOf(d, of time.Duration) string {
	if of <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f%%", 100*d.Seconds()/of.Seconds())
}

func wakeRate(i tuibench.Idle, n int64) string {
	if n < 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f /s", i.PerSecond(n))
}
