package tuibench

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"clowder/bench/latency"
)

// ControlKeys is keystroke to screen timed by a control-mode client of the
// outer tmux, and what the UI wrote to the outer terminal for them.
type ControlKeys struct {
	Samples latency.Samples
	// BytesPerKey is every byte the UI wrote to its terminal while the keys
	// were typed and echoed, over the number of keys.
	BytesPerKey float64
	Panes       int
}

// keyLetters are the keys typed, in turn: letters that no redraw of an idle
// layout prints by itself.
const keyLetters = "qzxjvkwy"

// catScript runs in the timed pane: cat in raw mode without tty echo.
const catScript = "stty raw -echo; printf cat-ready; exec cat"

// timeControlKeys types n keys into the outer pane through c, each pace
// after the previous one's echo was written (0: at once), and times from
// the send-keys until the UI's output carries the key as text.
func timeControlKeys(ctx context.Context, c *control, n int, pace time.Duration) (ControlKeys, error) {
	if _, err := c.drain(ctx, 300*time.Millisecond); err != nil {
		return ControlKeys{}, err
	}
	r := ControlKeys{Samples: make(latency.Samples, 0, n)}
	total := 0
	for i := 0; i < n; i++ {
		if i > 0 && pace > 0 {
			time.Sleep(pace) // the machine goes idle between keys, as between a typist's
		}
		key := string(keyLetters[i%len(keyLetters)])
		start := time.Now()
		if err := c.send("send-keys -l " + key); err != nil {
			return r, err
		}
		got, err := c.waitEcho(ctx, key)
		total += got.bytes
		if err != nil {
			return r, fmt.Errorf("key %d (%q): %w", i, key, err)
		}
		r.Samples = append(r.Samples, got.at.Sub(start))
	}
	rest, err := c.drain(ctx, 300*time.Millisecond)
	r.BytesPerKey = float64(total+rest) / float64(n)
	return r, err
}

type echo struct {
	at    time.Time
	bytes int
}

// waitEcho reads output until its visible text holds key.
func (c *control) waitEcho(ctx context.Context, key string) (echo, error) {
	var e echo
	timeout := time.After(10 * time.Second)
	for {
		select {
		case o := <-c.lines:
			e.bytes += len(o.data)
			if strings.Contains(visibleText(o.data), key) {
				e.at = o.at
				return e, nil
			}
		case <-timeout:
			return e, fmt.Errorf("no echo within 10s")
		case <-c.done:
			return e, fmt.Errorf("the control-mode client ended")
		case <-ctx.Done():
			return e, ctx.Err()
		}
	}
}

// typedTail is the last keys of n typed, as the echo pane shows them.
func typedTail(n int) string {
	var b strings.Builder
	for i := max(n-6, 0); i < n; i++ {
		b.WriteByte(keyLetters[i%len(keyLetters)])
	}
	return b.String()
}

// ClowderControlKeys times n keys, typed pace apart, through the whole
// clowder stack with panes panes on the layout (the agent pane running
// cat, its companion shell, and panes-2 more shells), by a control-mode
// client of the outer tmux.
func ClowderControlKeys(ctx context.Context, bin string, panes, warm, n int, pace time.Duration) (ControlKeys, error) {
	w, err := startClowder(ctx, bin, 160, 48, catScript, max(panes-2, 0))
	if err != nil {
		return ControlKeys{}, err
	}
	defer w.close()
	if err := w.o.waitFor(ctx, "cat-ready"); err != nil {
		return ControlKeys{}, err
	}
	if err := w.waitQuiet(ctx); err != nil {
		return ControlKeys{}, err
	}
	return controlKeys(ctx, w.o, panes, warm, n, pace)
}

// TmuxControlKeys does the same through tmux nested in the outer tmux,
// with panes panes (each running cat; the first has the focus).
func TmuxControlKeys(ctx context.Context, panes, warm, n int, pace time.Duration) (ControlKeys, error) {
	o, stop, err := nestedTmux(ctx, panes, catScript)
	if err != nil {
		return ControlKeys{}, err
	}
	defer stop()
	if err := o.waitForCount(ctx, "cat-ready", panes); err != nil {
		return ControlKeys{}, err
	}
	return controlKeys(ctx, o, panes, warm, n, pace)
}

// controlKeys attaches a control-mode client to o, types warm keys
// untimed (warmUp), times n keys typed pace apart and checks that they
// reached the echo pane.
func controlKeys(ctx context.Context, o *outer, panes, warm, n int, pace time.Duration) (ControlKeys, error) {
	c, err := startControl(ctx, o)
	if err != nil {
		return ControlKeys{}, err
	}
	defer c.close()
	if err := warmUp(ctx, c, warm); err != nil {
		return ControlKeys{}, err
	}
	r, err := timeControlKeys(ctx, c, n, pace)
	if err != nil {
		return r, err
	}
	r.Panes = panes
	if err := o.waitFor(ctx, typedTail(n)); err != nil {
		return r, fmt.Errorf("the keys did not reach the echo pane: %w", err)
	}
	return r, nil
}

// warmUp types n keys, untimed, as the timed ones are typed, through either
// stack alike: what a user types into goes through a host or a tmux server
// that has been running a while, and a young Go process faults on fresh
// heap pages until its first garbage collection (2-3 faults per echo,
// 25-35 us of the host's step: bench/profiles/keys.md, "Host step, session
// 18"); the report's thousand echoes allocate more than the host's first
// heap goal. n is cut to a multiple of len(keyLetters), so the timed keys'
// letters are the same as without it. It then starts a blank line in the
// echo pane (a timed key typed over the same letter would change no cell,
// and the UI would write nothing) and types the ready mark cat printed, so
// the timed keys take the same columns as without it.
func warmUp(ctx context.Context, c *control, n int) error {
	n -= n % len(keyLetters)
	if n <= 0 {
		return nil
	}
	if _, err := timeControlKeys(ctx, c, n, 0); err != nil {
		return fmt.Errorf("warming up: %w", err)
	}
	if err := c.send("send-keys C-j Enter"); err != nil { // raw: LF moves down a line, CR to its start
		return err
	}
	return c.send("send-keys -l cat-ready")
}

// nestedTmux starts an inner tmux with panes panes running cmd, attached
// in an outer tmux of 160x48.
func nestedTmux(ctx context.Context, panes int, cmd string) (o *outer, stop func(), err error) {
	in, err := innerTmux(ctx, panes, cmd)
	if err != nil {
		return nil, nil, err
	}
	o, err = startOuter(ctx, os.Environ(), 160, 48, in.attach())
	if err != nil {
		in.stop()
		return nil, nil, err
	}
	return o, func() { o.close(); in.stop() }, nil
}
