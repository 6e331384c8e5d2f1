package tuibench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"clowder/bench/latency"
)

// FloodKeys is keystroke to screen in a layout of 8 panes, by a
// control-mode client of the outer tmux, first with every other pane idle
// and then with all 7 of them flooding at once, in one world: issue 12's
// "the focused pane's keystroke latency stays under 2x its idle value".
type FloodKeys struct {
	Idle, Flood latency.Samples
}

// Ratio is the flood's median over the idle median.
func (f FloodKeys) Ratio() float64 {
	if f.Idle.Median() <= 0 {
		return 0
	}
	return float64(f.Flood.Median()) / float64(f.Idle.Median())
}

// floodPanes is the layout of the flood row: the focused echo pane and 7
// that flood.
const floodPanes = 8

// floodKeyLetters are the keys typed in the flood row: letters that
// neither the flood (digits) nor any title, badge or status text of the
// UIs prints ("working" has w and k, "exited" x).
const floodKeyLetters = "qzjv"

// floodLines is the text each flooding pane cats over and over: digits and
// spaces only, so no flooded byte looks like a typed key.
func floodLines() []byte {
	var b strings.Builder
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "%08d %s\r\n", i, strings.Repeat("0123456789 ", 1+i%13))
	}
	return []byte(b.String())
}

// floodWorld is what the flood row's panes share: the file they cat, and
// the file whose creation starts them.
type floodWorld struct {
	dir, file, start string
}

func newFloodWorld() (*floodWorld, error) {
	dir, err := os.MkdirTemp("", "clwfloodkeys")
	if err != nil {
		return nil, err
	}
	f := &floodWorld{dir: dir, file: filepath.Join(dir, "digits"), start: filepath.Join(dir, "go")}
	if err := os.WriteFile(f.file, floodLines(), 0o600); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return f, nil
}

// script is the flooding panes' shell line: wait for the start file (a
// bench script's poll, 20 times a second, before any timing), then cat
// the digits over and over.
func (f *floodWorld) script() string {
	return "stty raw -echo; until [ -e " + shellQuote(f.start) + " ]; do sleep 0.05; done; while :; do cat " + shellQuote(f.file) + "; done"
}

// begin starts every flooding pane.
func (f *floodWorld) begin() error { return os.WriteFile(f.start, nil, 0o600) }

func (f *floodWorld) close() { os.RemoveAll(f.dir) }

// ClowderFloodKeys times n keys into the TUI's focused pane (cat) with 7
// more panes on the layout, idle and then all flooding.
func ClowderFloodKeys(ctx context.Context, bin string, n int) (FloodKeys, error) {
	fw, err := newFloodWorld()
	if err != nil {
		return FloodKeys{}, err
	}
	defer fw.close()
	w, err := startClowder(ctx, bin, 160, 48, catScript, 0)
	if err != nil {
		return FloodKeys{}, err
	}
	defer w.close()
	if err := w.o.waitFor(ctx, "cat-ready"); err != nil {
		return FloodKeys{}, err
	}
	if err := w.floodCompanion(ctx, fw); err != nil {
		return FloodKeys{}, err
	}
	for i := 2; i < floodPanes; i++ {
		if _, err := w.clowder(ctx, "new", "--", "sh", "-c", fw.script()); err != nil {
			return FloodKeys{}, err
		}
	}
	if err := w.o.waitFor(ctx, fmt.Sprintf(" %d ", floodPanes)); err != nil { // the last pane's number in its title
		return FloodKeys{}, err
	}
	return floodKeys(ctx, w.o, fw, n)
}

// floodCompanion makes the default layout's companion shell a flooding
// pane too.
func (w *world) floodCompanion(ctx context.Context, fw *floodWorld) error {
	panes, err := w.panes(ctx)
	if err != nil {
		return err
	}
	if len(panes) < 2 {
		return fmt.Errorf("no companion shell in clowder ls")
	}
	shell := panes[1].ID
	if _, err := w.clowder(ctx, "wait", shell, "--text", `(?m)^\$`, "--timeout", "30s"); err != nil { // its prompt: it reads its input
		return err
	}
	_, err = w.clowder(ctx, "send-keys", shell, "-l", "exec sh -c '"+strings.ReplaceAll(fw.script(), "'", `'\''`)+"'\r")
	return err
}

// TmuxFloodKeys does the same through tmux nested in the outer tmux: 8
// tiled panes, the first (focused) running cat and the others flooding.
func TmuxFloodKeys(ctx context.Context, n int) (FloodKeys, error) {
	fw, err := newFloodWorld()
	if err != nil {
		return FloodKeys{}, err
	}
	defer fw.close()
	cmds := []string{catScript}
	for i := 1; i < floodPanes; i++ {
		cmds = append(cmds, fw.script())
	}
	in, err := innerTmuxCmds(ctx, cmds)
	if err != nil {
		return FloodKeys{}, err
	}
	defer in.stop()
	o, err := startOuter(ctx, os.Environ(), 160, 48, in.attach())
	if err != nil {
		return FloodKeys{}, err
	}
	defer o.close()
	if err := o.waitFor(ctx, "cat-ready"); err != nil {
		return FloodKeys{}, err
	}
	return floodKeys(ctx, o, fw, n)
}

// floodKeys times n keys idle, starts the flood, lets it run for a second
// and times n keys again, then checks the keys reached the echo pane.
func floodKeys(ctx context.Context, o *outer, fw *floodWorld, n int) (FloodKeys, error) {
	c, err := startControl(ctx, o)
	if err != nil {
		return FloodKeys{}, err
	}
	defer c.close()
	var r FloodKeys
	if err := c.drainFor(ctx, 500*time.Millisecond); err != nil {
		return r, err
	}
	if r.Idle, err = c.timeKeys(ctx, n, 0); err != nil {
		return r, fmt.Errorf("idle: %w", err)
	}
	if err := fw.begin(); err != nil {
		return r, err
	}
	if err := c.drainFor(ctx, time.Second); err != nil { // every pane is flooding, every badge has changed
		return r, err
	}
	if r.Flood, err = c.timeKeys(ctx, n, n); err != nil {
		return r, fmt.Errorf("flooding: %w", err)
	}
	if err := o.waitFor(ctx, floodTail(2*n)); err != nil {
		return r, fmt.Errorf("the keys did not reach the echo pane: %w", err)
	}
	return r, nil
}

// timeKeys types n keys of floodKeyLetters, from the from-th, each once
// the previous one's echo was written, and times each from its send-keys
// until the UI's output carries it as text.
func (c *control) timeKeys(ctx context.Context, n, from int) (latency.Samples, error) {
	s := make(latency.Samples, 0, n)
	for i := from; i < from+n; i++ {
		key := string(floodKeyLetters[i%len(floodKeyLetters)])
		start := time.Now()
		if err := c.send("send-keys -l " + key); err != nil {
			return s, err
		}
		got, err := c.waitEcho(ctx, key)
		if err != nil {
			return s, fmt.Errorf("key %d (%q): %w", i, key, err)
		}
		s = append(s, got.at.Sub(start))
	}
	return s, nil
}

// floodTail is the last keys of n typed in the flood row.
func floodTail(n int) string {
	var b strings.Builder
	for i := max(n-6, 0); i < n; i++ {
		b.WriteByte(floodKeyLetters[i%len(floodKeyLetters)])
	}
	return b.String()
}

// drainFor discards output for d, whether or not it stops coming.
func (c *control) drainFor(ctx context.Context, d time.Duration) error {
	end := time.After(d)
	for {
		select {
		case <-c.lines:
		case <-end:
			return nil
		case <-c.done:
			return fmt.Errorf("the control-mode client ended")
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
