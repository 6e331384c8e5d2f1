package latency

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Samples are measured durations in the order taken.
type Samples []time.Duration

// Percentile returns the p-th percentile (0 < p <= 100) by the nearest-rank
// method, or 0 for no samples.
func (s Samples) Percentile(p float64) time.Duration {
	if len(s) == 0 {
		return 0
	}
	sorted := slices.Clone(s)
	slices.Sort(sorted)
	rank := int(p/100*float64(len(sorted))+0.999999) - 1
	return sorted[min(max(rank, 0), len(sorted)-1)]
}

// Median is the 50th percentile.
func (s Samples) Median() time.Duration { return s.Percentile(50) }

// P99 is the 99th percentile.
func (s Samples) P99() time.Duration { return s.Percentile(99) }

// Driver is a pane whose program echoes what it reads, byte for byte, in
// raw mode (for example `stty raw -echo; exec cat`). Its methods are called
// from one goroutine.
type Driver interface {
	// SendKey types one key, given as literal text, into the pane.
	SendKey(ctx context.Context, key string) error
	// Screen returns the pane's visible text as the multiplexer shows it.
	Screen(ctx context.Context) (string, error)
	// Reset clears the pane's screen (untimed), so echoes start at the
	// top-left again.
	Reset(ctx context.Context) error
}

// keys are typed in turn; letters, so no shell or key-name meaning applies.
const keys = "abcdefghijklmnopqrstuvwxyz"

// lineMax is how many keys go on one screen line before a Reset, well under
// any pane width.
const lineMax = 60

// RoundTrip types n keys into d one at a time and, for each, times from just
// before SendKey until Screen shows the echo. Screen is polled without
// sleeping: each poll is a round trip to the multiplexer, and ctx bounds it.
func RoundTrip(ctx context.Context, d Driver, n int) (Samples, error) {
	if err := d.Reset(ctx); err != nil {
		return nil, err
	}
	var typed strings.Builder
	samples := make(Samples, 0, n)
	for i := 0; i < n; i++ {
		if typed.Len() == lineMax {
			if err := d.Reset(ctx); err != nil {
				return samples, err
			}
			typed.Reset()
		}
		key := string(keys[i%len(keys)])
		typed.WriteString(key)
		start := time.Now()
		if err := d.SendKey(ctx, key); err != nil {
			return samples, err
		}
		if err := waitScreen(ctx, d, typed.String()); err != nil {
			return samples, err
		}
		samples = append(samples, time.Since(start))
	}
	return samples, nil
}

// waitScreen polls until the first line of the screen is want.
func waitScreen(ctx context.Context, d Driver, want string) error {
	for {
		screen, err := d.Screen(ctx)
		if err != nil {
			return err
		}
		first, _, _ := strings.Cut(screen, "\n")
		if strings.TrimRight(first, " ") == want {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("echo of %q never showed (screen starts %q): %w", want, first, ctx.Err())
		}
	}
}

// WaitBlank polls d until its first screen line is blank: what a Reset
// waits for after it had the pane clear its screen.
func WaitBlank(ctx context.Context, d Driver) error {
	for {
		screen, err := d.Screen(ctx)
		if err != nil {
			return err
		}
		first, _, _ := strings.Cut(screen, "\n")
		if strings.TrimSpace(first) == "" {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("the screen never cleared (it starts %q): %w", first, ctx.Err())
		}
	}
}

// TimeN runs f n times and returns how long each run took.
func TimeN(n int, f func() error) (Samples, error) {
	s := make(Samples, 0, n)
	for i := 0; i < n; i++ {
		start := time.Now()
		if err := f(); err != nil {
			return s, err
		}
		s = append(s, time.Since(start))
	}
	return s, nil
}
