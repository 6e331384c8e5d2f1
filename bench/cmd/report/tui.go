package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"clowder/bench/latency"
	"clowder/bench/streamgen"
	"clowder/bench/tuibench"
)

// runTUI measures the whole stack in an outer tmux, for clowder's TUI and
// for nested tmux: idle CPU and wake-ups with 4 idle panes, keystroke to
// screen (capture-pane polling, then a control-mode client with 2 and 8
// panes, and the bytes written per key), and a plain-text flood attached.
func runTUI(w io.Writer, c config, sum *summary) error {
	ctx, cancel := context.WithTimeout(context.Background(), c.tmuxTimeout)
	defer cancel()
	fmt.Fprintf(os.Stderr, "measuring idle CPU and wake-ups over %s, twice\n", c.idle)
	ours, err := tuibench.ClowderIdle(ctx, c.bin, 4, c.idle)
	if err != nil {
		return fmt.Errorf("clowder idle: %w", err)
	}
	theirs, err := tuibench.TmuxIdle(ctx, 4, c.idle)
	if err != nil {
		return fmt.Errorf("tmux idle: %w", err)
	}
	sum.idle, sum.idleTmux = &ours, &theirs
	printIdle(w, ours, theirs)
	if c.keys > 0 {
		if err := runTUIKeys(ctx, w, c, sum); err != nil {
			return err
		}
	}
	if c.attachedMB > 0 {
		return runAttached(ctx, w, c, sum)
	}
	return nil
}

// typingPace is the time between keys in the paced keystroke row: a fast
// typist's (120 words a minute is about 10 keys a second). Between keys
// typed back to back the machine never idles; between a typist's its
// processors sleep, and every thread a key wakes pays for that.
const typingPace = 50 * time.Millisecond

// runTUIKeys times keystrokes through both stacks, by capture-pane polling
// and by a control-mode client.
func runTUIKeys(ctx context.Context, w io.Writer, c config, sum *summary) error {
	fmt.Fprintf(os.Stderr, "timing %d keystrokes through each whole stack\n", c.keys)
	ck, err := tuibench.ClowderKeys(ctx, c.bin, c.keys)
	if err != nil {
		return fmt.Errorf("clowder keys: %w", err)
	}
	tk, err := tuibench.TmuxKeys(ctx, c.keys)
	if err != nil {
		return fmt.Errorf("tmux keys: %w", err)
	}
	printPolledKeys(w, ck, tk)
	sum.keys, sum.keysTmux = map[int]tuibench.ControlKeys{}, map[int]tuibench.ControlKeys{}
	for _, panes := range []int{2, 8} {
		fmt.Fprintf(os.Stderr, "timing %d keystrokes by control mode, %d panes\n", c.keys, panes)
		k, err := tuibench.ClowderControlKeys(ctx, c.bin, panes, c.warmKeys, c.keys, 0)
		if err != nil {
			return fmt.Errorf("clowder control-mode keys, %d panes: %w", panes, err)
		}
		t, err := tuibench.TmuxControlKeys(ctx, panes, c.warmKeys, c.keys, 0)
		if err != nil {
			return fmt.Errorf("tmux control-mode keys, %d panes: %w", panes, err)
		}
		sum.keys[panes], sum.keysTmux[panes] = k, t
	}
	fmt.Fprintf(os.Stderr, "timing %d keystrokes by control mode, 2 panes, %v apart\n", c.keys, typingPace)
	k, err := tuibench.ClowderControlKeys(ctx, c.bin, 2, c.warmKeys, c.keys, typingPace)
	if err != nil {
		return fmt.Errorf("clowder control-mode keys %v apart: %w", typingPace, err)
	}
	t, err := tuibench.TmuxControlKeys(ctx, 2, c.warmKeys, c.keys, typingPace)
	if err != nil {
		return fmt.Errorf("tmux control-mode keys %v apart: %w", typingPace, err)
	}
	sum.keysPaced, sum.keysPacedTmux = &k, &t
	printControlKeys(w, c.keys, sum)
	return runFloodKeys(ctx, w, c, sum)
}

// runFloodKeys times keys into the focused pane of 8, idle and with the
// 7 others flooding, through both stacks.
func runFloodKeys(ctx context.Context, w io.Writer, c config, sum *summary) error {
	fmt.Fprintf(os.Stderr, "timing %d keystrokes by control mode, 8 panes, idle and with 7 flooding\n", c.keys)
	k, err := tuibench.ClowderFloodKeys(ctx, c.bin, c.keys)
	if err != nil {
		return fmt.Errorf("clowder keys while 7 panes flood: %w", err)
	}
	t, err := tuibench.TmuxFloodKeys(ctx, c.keys)
	if err != nil {
		return fmt.Errorf("tmux keys while 7 panes flood: %w", err)
	}
	sum.floodKeys, sum.floodKeysTmux = &k, &t
	fmt.Fprintf(w, "\nKeystroke to screen in a layout of 8 panes (control-mode timing, %d keys each), the 7 other panes idle and then all flooding at once (each cats 1 MB of digits over and over); the goal is the flooding median under 2x the idle one:\n\n", c.keys)
	fmt.Fprintln(w, "| | idle median | p99 | flooding median | p99 | flooding / idle |\n|---|--:|--:|--:|--:|--:|")
	for _, r := range []struct {
		name string
		f    tuibench.FloodKeys
	}{{"clowder TUI", k}, {"tmux nested in tmux", t}} {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %.2fx |\n", r.name, ms(r.f.Idle.Median()), ms(r.f.Idle.P99()), ms(r.f.Flood.Median()), ms(r.f.Flood.P99()), r.f.Ratio())
	}
	return nil
}

// runAttached floods plain text, then the bench stream (agent output and
// TUI redraws: SGR, wide text, cursor moves), through each stack with the
// UI attached.
func runAttached(ctx context.Context, w io.Writer, c config, sum *summary) error {
	n := c.attachedMB * 1e6
	for _, s := range []struct {
		name   string
		stream []byte
		ours   **tuibench.AttachedFlood
		theirs **tuibench.AttachedFlood
	}{
		{"plain text", streamgen.PlainText(c.seed, n), &sum.attached, &sum.attachedTmx},
		{"the bench stream", streamgen.Generate(c.seed, n), &sum.attachedMix, &sum.attachedMixTmx},
	} {
		a, t, err := attachedFlood(ctx, c.bin, s.name, s.stream)
		if err != nil {
			return err
		}
		*s.ours, *s.theirs = &a, &t
		fmt.Fprintf(w, "\nFlood of %d MB of %s in the focused pane with the UI attached (160x48 outer terminal):\n\n", c.attachedMB, s.name)
		fmt.Fprintln(w, "| | MB/s | server CPU | UI CPU | server CPU per MB | UI CPU per MB | both per MB |\n|---|--:|--:|--:|--:|--:|--:|")
		for _, f := range []tuibench.AttachedFlood{a, t} {
			fmt.Fprintf(w, "| %s, %s | %.1f | %s | %s | %s | %s | %s |\n", f.ServerName, f.UIName, f.MBps(), f.ServerCPU, f.UICPU,
				msOf(f.PerMB(f.ServerCPU)), msOf(f.PerMB(f.UICPU)), msOf(f.PerMB(f.ServerCPU+f.UICPU)))
		}
	}
	return nil
}

// attachedFlood floods stream (named name) through clowder's stack, then
// tmux's.
func attachedFlood(ctx context.Context, bin, name string, stream []byte) (ours, theirs tuibench.AttachedFlood, err error) {
	file, done, err := streamFile(stream)
	if err != nil {
		return ours, theirs, err
	}
	defer done()
	fmt.Fprintf(os.Stderr, "flooding %.0f MB of %s with each UI attached\n", float64(len(stream))/1e6, name)
	if ours, err = tuibench.ClowderAttachedFlood(ctx, bin, file); err != nil {
		return ours, theirs, fmt.Errorf("clowder attached flood of %s: %w", name, err)
	}
	if theirs, err = tuibench.TmuxAttachedFlood(ctx, file); err != nil {
		return ours, theirs, fmt.Errorf("tmux attached flood of %s: %w", name, err)
	}
	return ours, theirs, nil
}

func printIdle(w io.Writer, ours, theirs tuibench.Idle) {
	fmt.Fprintf(w, "\n## The whole stack, inside an outer tmux\n\n")
	fmt.Fprintf(w, "Idle over %s with 4 idle shell panes (160x48): CPU, and wake-ups (voluntary context switches of all threads, /proc/PID/task/*/status):\n\n", ours.Over)
	fmt.Fprintln(w, "| | UI CPU | server CPU | UI wake-ups | server wake-ups |\n|---|--:|--:|--:|--:|")
	for _, r := range []struct {
		name string
		i    tuibench.Idle
	}{{"clowder (TUI, host)", ours}, {"tmux (client, server)", theirs}} {
		fmt.Fprintf(w, "| %s | %s (%.2f%%) | %s (%.2f%%) | %s | %s |\n", r.name, r.i.UI, pct(r.i.UI, r.i.Over), r.i.Server, pct(r.i.Server, r.i.Over),
			wakeRate(r.i, r.i.UIWakeups), wakeRate(r.i, r.i.ServerWakeups))
	}
}

func printPolledKeys(w io.Writer, ck, tk latency.Samples) {
	fmt.Fprintf(w, "\nKeystroke to screen: `send-keys -l` to the outer pane, then `capture-pane -p` until the echo shows (two tmux client processes per sample, in both rows), %d keys:\n\n| | median | p99 | median vs tmux |\n|---|--:|--:|--:|\n", len(ck))
	fmt.Fprintf(w, "| clowder TUI → master → cat → host → frame → TUI | %s | %s | %s |\n", ms(ck.Median()), ms(ck.P99()), ratio(float64(ck.Median()), float64(tk.Median())))
	fmt.Fprintf(w, "| tmux nested in tmux | %s | %s | 1.00x |\n", ms(tk.Median()), ms(tk.P99()))
}

func printControlKeys(w io.Writer, n int, sum *summary) {
	fmt.Fprintf(w, "\nKeystroke to screen timed by a control-mode client of the outer tmux (`send-keys -l` on its stdin, until a `%%output` of the UI carries the key as text; no process per sample), %d keys, and every byte the UI wrote to the outer terminal meanwhile per key:\n\n", n)
	fmt.Fprintln(w, "| layout | clowder median | p99 | tmux median | p99 | median vs tmux | clowder bytes/key | tmux bytes/key |\n|---|--:|--:|--:|--:|--:|--:|--:|")
	for _, panes := range []int{2, 8} {
		k, t := sum.keys[panes], sum.keysTmux[panes]
		fmt.Fprintf(w, "| %d panes | %s | %s | %s | %s | %s | %.1f | %.1f |\n", panes, ms(k.Samples.Median()), ms(k.Samples.P99()),
			ms(t.Samples.Median()), ms(t.Samples.P99()), ratio(float64(k.Samples.Median()), float64(t.Samples.Median())), k.BytesPerKey, t.BytesPerKey)
	}
	if k, t := sum.keysPaced, sum.keysPacedTmux; k != nil && t != nil {
		fmt.Fprintf(w, "| 2 panes, a key every %v | %s | %s | %s | %s | %s | %.1f | %.1f |\n", typingPace, ms(k.Samples.Median()), ms(k.Samples.P99()),
			ms(t.Samples.Median()), ms(t.Samples.P99()), ratio(float64(k.Samples.Median()), float64(t.Samples.Median())), k.BytesPerKey, t.BytesPerKey)
	}
	fmt.Fprintf(w, "\nclowder's 2 panes are its default layout (the agent pane, where cat runs, and its companion shell); tmux's are two panes of cat, the first focused. 8 panes: six more idle shells (clowder) or cats (tmux), tiled. The first two rows type each key as soon as the previous one's echo is out; the paced row waits %v after each echo, as a typist does, so the processors idle between keys and every thread a key wakes pays for that.\n", typingPace)
}

func pct(d, over time.Duration) float64 { return 100 * d.Seconds() / over.Seconds() }
