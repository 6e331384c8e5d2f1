package tuibench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"clowder/bench/procstat"
)

// outer is the tmux server standing in for the user's terminal.
type outer struct {
	sock string
	dir  string // TMUX_TMPDIR of the outer server
	pid  int    // the outer server, 0 until known
	env  []string
}

// startOuter runs shell line cmd in a cols x rows outer window. The
// server's socket is in a directory of its own (TMUX_TMPDIR), which close
// removes: the user's tmux directory gets none of the bench's sockets.
// Programs in the window see the outer's TMUX_TMPDIR; a nested tmux is
// attached with its own (inner.attach).
func startOuter(ctx context.Context, env []string, cols, rows int, cmd string) (*outer, error) {
	dir, err := os.MkdirTemp("", "clwtui")
	if err != nil {
		return nil, fmt.Errorf("outer tmux directory: %w", err)
	}
	o := &outer{sock: fmt.Sprintf("clwtui-%d-%d", os.Getpid(), time.Now().UnixNano()), dir: dir,
		env: append(withoutVar(env, "TMUX_TMPDIR"), "TMUX_TMPDIR="+dir)}
	if _, err := o.run(ctx, "new-session", "-d", "-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows), cmd); err != nil {
		o.close()
		return nil, err
	}
	if o.pid, err = o.serverPID(ctx); err != nil {
		o.close()
		return nil, err
	}
	return o, nil
}

// withoutVar is env without name's settings.
func withoutVar(env []string, name string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
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

// close stops the outer server, waits until it is gone (killing it if it
// lingers) and removes its directory, socket included.
func (o *outer) close() {
	_, _ = o.run(context.Background(), "kill-server") // best effort: it may be gone
	if o.pid > 0 {
		waitGone(o.pid, 5*time.Second)
	}
	os.RemoveAll(o.dir)
}

// waitGone waits until pid has exited, up to d, then kills it.
func waitGone(pid int, d time.Duration) {
	deadline := time.Now().Add(d)
	for processRuns(pid) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL) // best effort: it ignored kill-server
			return
		}
		time.Sleep(5 * time.Millisecond) // polling /proc for a process we did not start
	}
}

// processRuns reports whether pid runs (neither gone nor a zombie).
func processRuns(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	_, after, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(after, "Z")
}

// serverPID is the pid of the outer tmux server.
func (o *outer) serverPID(ctx context.Context) (int, error) {
	out, err := o.run(ctx, "display-message", "-p", "#{pid}")
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(out))
}

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
