package tuibench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"clowder/bench/procstat"
)

// outer is the tmux server standing in for the user's terminal.
type outer struct {
	sock string
	env  []string
}

// startOuter runs shell line cmd in a cols x rows outer window.
func startOuter(ctx context.Context, env []string, cols, rows int, cmd string) (*outer, error) {
	o := &outer{sock: fmt.Sprintf("clwtui-%d-%d", os.Getpid(), time.Now().UnixNano()), env: env}
	_, err := o.run(ctx, "new-session", "-d", "-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows), cmd)
	return o, err
}

func (o *outer) run(ctx context.Context, args ...string) (string, error) {
	c := exec.CommandContext(ctx, "tmux", append([]string{"-L", o.sock, "-f", "/dev/null"}, args...)...)
	c.Env = o.env
	out, err := c.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("tmux %v: %w: %s", args, err, out)
	}
	return string(out), nil
}

func (o *outer) screen(ctx context.Context) (string, error) { return o.run(ctx, "capture-pane", "-p") }

// waitFor polls the outer screen until it contains want.
func (o *outer) waitFor(ctx context.Context, want string) error { return o.waitForCount(ctx, want, 1) }

// waitForCount polls the outer screen until want shows n times.
func (o *outer) waitForCount(ctx context.Context, want string, n int) error {
	for {
		s, err := o.screen(ctx)
		if err != nil {
			return err
		}
		if strings.Count(s, want) >= n {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%q never showed in the outer terminal:\n%s", want, s)
		}
		time.Sleep(20 * time.Millisecond) // polling a screen, in a benchmark
	}
}

// panePID is the pid of the program the outer window runs.
func (o *outer) panePID(ctx context.Context) (int, error) {
	out, err := o.run(ctx, "display-message", "-p", "#{pane_pid}")
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(out))
}

func (o *outer) close() { _, _ = o.run(context.Background(), "kill-server") }

// cpuOver measures the CPU each pid uses during d.
func cpuOver(ctx context.Context, d time.Duration, pids ...int) ([]time.Duration, error) {
	before := make([]time.Duration, len(pids))
	for i, p := range pids {
		c, err := procstat.CPU(p)
		if err != nil {
			return nil, err
		}
		before[i] = c
	}
	select {
	case <-time.After(d):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	out := make([]time.Duration, len(pids))
	for i, p := range pids {
		c, err := procstat.CPU(p)
		if err != nil {
			return nil, err
		}
		out[i] = c - before[i]
	}
	return out, nil
}
