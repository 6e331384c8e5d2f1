package clibench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"clowder/bench/isolate"
	"clowder/bench/latency"
	"clowder/bench/procstat"
)

// historyLines is what the scrollback capture asks for; the pane printed
// more than that, so the history is full.
const historyLines = 10000

// fillScript waits for a line on its input (so the server's memory can be
// read first), then prints numbered lines past a 10,000-line history and
// a screen, then idles.
const fillScript = `read go; i=0; while [ $i -lt 10100 ]; do echo "line $i of the history, as a build prints it"; i=$((i+1)); done; echo filled; exec sleep 2147483647`

// CLI is one side's whole-process command times.
type CLI struct {
	Ls, Capture, CaptureHistory latency.Samples
	// ServerCPU is the server's CPU time per history capture (0 where
	// unknown).
	ServerCPU time.Duration
	// HistoryRSS is how much the server's resident anonymous memory grew
	// while the pane printed its history (its scrollback, and for clowder
	// the raw output ring as well; not the code pages the printing ran).
	// It includes what the server grows once, whatever the pane: for a Go
	// host, the runtime's bookkeeping of a heap that output first exercised.
	HistoryRSS int64
	// SecondRSS is the same for a second pane filled after the first: what
	// another line of history costs.
	SecondRSS int64
}

// HistoryPerLine is HistoryRSS over the lines the history holds.
func (c CLI) HistoryPerLine() float64 { return float64(c.HistoryRSS) / historyLines }

// SecondPerLine is SecondRSS over the lines the history holds.
func (c CLI) SecondPerLine() float64 { return float64(c.SecondRSS) / historyLines }

// ClowderCLI starts a host with a pane whose history is full and times n
// runs of `ls`, `capture` and `capture --scrollback 10000`.
func ClowderCLI(ctx context.Context, bin string, n int) (CLI, error) {
	w, err := NewWorld(bin)
	if err != nil {
		return CLI{}, err
	}
	defer w.Close()
	newPane := func() (string, error) {
		id, err := w.Run(ctx, "new", "--size", "200x50", "--", "sh", "-c", fillScript)
		return strings.TrimSpace(id), err
	}
	fill := func(id string) func() error {
		return func() error {
			if _, err := w.Run(ctx, "send-keys", id, "Enter"); err != nil {
				return err
			}
			_, err := w.Run(ctx, "wait", id, "--text", "filled", "--timeout", "60s")
			return err
		}
	}
	id, err := newPane()
	if err != nil {
		return CLI{}, err
	}
	pid, err := w.HostPID(ctx)
	if err != nil {
		return CLI{}, err
	}
	var r CLI
	if err := grownBy(pid, &r.HistoryRSS, fill(id)); err != nil {
		return CLI{}, err
	}
	// A second pane, filled before the commands below make garbage of
	// their own.
	second, err := newPane()
	if err != nil {
		return CLI{}, err
	}
	if err := grownBy(pid, &r.SecondRSS, fill(second)); err != nil {
		return CLI{}, err
	}
	run := func(args ...string) func() error {
		return func() error { _, err := w.Run(ctx, args...); return err }
	}
	if r.Ls, err = latency.TimeN(n, run("ls")); err != nil {
		return r, err
	}
	if r.Capture, err = latency.TimeN(n, run("capture", id)); err != nil {
		return r, err
	}
	before, _ := procstat.CPU(pid)
	if r.CaptureHistory, err = latency.TimeN(n, run("capture", id, "--scrollback", fmt.Sprint(historyLines))); err != nil {
		return r, err
	}
	after, _ := procstat.CPU(pid)
	r.ServerCPU = (after - before) / time.Duration(n)
	return r, nil
}

// TmuxCLI does the same with tmux: `tmux ls`, `capture-pane -p` and
// `capture-pane -p -S -10000`, history-limit 10000.
func TmuxCLI(ctx context.Context, n int) (CLI, error) {
	t, err := startTmux(ctx)
	if err != nil {
		return CLI{}, err
	}
	defer t.close()
	if _, err := t.run(ctx, "set", "-g", "history-limit", fmt.Sprint(historyLines), ";",
		"new-window", "-d", "-t", ":1", fillScript); err != nil {
		return CLI{}, err
	}
	pid, err := t.serverPID(ctx)
	if err != nil {
		return CLI{}, err
	}
	fill := func(window string) func() error {
		return func() error {
			if _, err := t.run(ctx, "send-keys", "-t", window, "Enter"); err != nil {
				return err
			}
			return t.waitFor(ctx, window, "filled")
		}
	}
	var r CLI
	if err := grownBy(pid, &r.HistoryRSS, fill(":1")); err != nil {
		return CLI{}, err
	}
	if _, err := t.run(ctx, "new-window", "-d", "-t", ":2", fillScript); err != nil {
		return CLI{}, err
	}
	if err := grownBy(pid, &r.SecondRSS, fill(":2")); err != nil {
		return CLI{}, err
	}
	run := func(args ...string) func() error {
		return func() error { _, err := t.run(ctx, args...); return err }
	}
	if r.Ls, err = latency.TimeN(n, run("ls")); err != nil {
		return r, err
	}
	if r.Capture, err = latency.TimeN(n, run("capture-pane", "-p", "-t", ":1")); err != nil {
		return r, err
	}
	before, _ := procstat.CPU(pid)
	if r.CaptureHistory, err = latency.TimeN(n, run("capture-pane", "-p", "-t", ":1", "-S", fmt.Sprint(-historyLines))); err != nil {
		return r, err
	}
	after, _ := procstat.CPU(pid)
	r.ServerCPU = (after - before) / time.Duration(n)
	return r, nil
}

// tmux is a private tmux server.
type tmux struct {
	sock string
	env  []string
	done func() // removes its socket's directory
}

func startTmux(ctx context.Context) (*tmux, error) {
	env, done, err := isolate.TmuxEnv()
	if err != nil {
		return nil, err
	}
	t := &tmux{sock: fmt.Sprintf("clwcli-%d-%d", os.Getpid(), time.Now().UnixNano()), env: env, done: done}
	_, err = t.run(ctx, "new-session", "-d", "-x", "200", "-y", "50", "sleep 2147483647")
	return t, err
}

func (t *tmux) run(ctx context.Context, args ...string) (string, error) {
	c := exec.CommandContext(ctx, "tmux", append([]string{"-L", t.sock, "-f", "/dev/null"}, args...)...)
	c.Env = t.env
	out, err := c.Output()
	if err != nil {
		return "", fmt.Errorf("tmux %s: %w: %s", strings.Join(args, " "), err, stderrOf(err))
	}
	return string(out), nil
}

func (t *tmux) close() {
	_, _ = t.run(context.Background(), "kill-server")
	t.done()
}

func (t *tmux) serverPID(ctx context.Context) (int, error) {
	out, err := t.run(ctx, "display-message", "-p", "#{pid}")
	if err != nil {
		return 0, err
	}
	var pid int
	_, err = fmt.Sscan(out, &pid)
	return pid, err
}

// waitFor polls a pane's screen until a line starts with want; each poll is
// a client round trip, so it needs no sleep.
func (t *tmux) waitFor(ctx context.Context, pane, want string) error {
	for {
		out, err := t.run(ctx, "capture-pane", "-p", "-t", pane)
		if err != nil {
			return err
		}
		if strings.Contains("\n"+out, "\n"+want) {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("tmux pane %s never showed %q: %w", pane, want, ctx.Err())
		}
	}
}

// settle is how long grownBy waits after fn before it reads the memory
// again: a clowder host gives what a flood freed back to the system once
// its panes have been quiet for a second (supervisor/host/release.go).
const settle = 2 * time.Second

// grownBy runs fn and sets *grew to how much pid's resident anonymous
// memory grew meanwhile, read settle after fn.
func grownBy(pid int, grew *int64, fn func() error) error {
	before, err := procstat.AnonRSS(pid)
	if err != nil {
		return err
	}
	if err := fn(); err != nil {
		return err
	}
	time.Sleep(settle) // the server settling, in a benchmark
	after, err := procstat.AnonRSS(pid)
	*grew = after - before
	return err
}
