package scale

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"clowder/bench/isolate"
)

// Tmux measures a private tmux server (TMUX_TMPDIR in a temporary
// directory, no config file) with cfg.Panes windows of the same idle shell,
// each opened by `tmux new-window -d`.
func Tmux(ctx context.Context, cfg Config) (r Result, err error) {
	if err := cfg.check(); err != nil {
		return Result{}, err
	}
	t, err := startTmux(ctx)
	if err != nil {
		return Result{}, err
	}
	defer func() {
		var cerr error
		r.Stop, cerr = t.close()
		err = errors.Join(err, cerr)
	}()
	return measure(ctx, t, cfg)
}

// tmux is a private tmux server.
type tmux struct {
	dir    string
	env    []string
	server int
}

var _ server = (*tmux)(nil)

// startTmux starts the server with its first window, 80x24, running $SHELL
// (/bin/sh), as clowder's panes do.
func startTmux(ctx context.Context) (*tmux, error) {
	dir, err := os.MkdirTemp("", "clwscale-tmux")
	if err != nil {
		return nil, fmt.Errorf("temp dir for the scale tmux: %w", err)
	}
	sh, err := shellEnv(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	t := &tmux{dir: dir, env: append(append(isolate.WithoutTMUX(os.Environ()), "TMUX_TMPDIR="+dir), sh...)}
	if _, err := t.run(ctx, "new-session", "-d", "-x", "80", "-y", "24"); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	out, err := t.run(ctx, "display-message", "-p", "#{pid}")
	if err == nil {
		t.server, err = strconv.Atoi(strings.TrimSpace(out))
	}
	if err != nil {
		_, _ = t.close() // best effort: already failing
		return nil, fmt.Errorf("tmux server pid: %w", err)
	}
	return t, nil
}

func (t *tmux) run(ctx context.Context, args ...string) (string, error) {
	c := exec.CommandContext(ctx, "tmux", append([]string{"-L", "scale", "-f", "/dev/null"}, args...)...)
	c.Env = t.env
	out, err := c.Output()
	if err != nil {
		return "", fmt.Errorf("tmux %s: %w: %s", strings.Join(args, " "), err, stderrOf(err))
	}
	return string(out), nil
}

func (t *tmux) spawn(ctx context.Context) error {
	_, err := t.run(ctx, "new-window", "-d")
	return err
}

func (t *tmux) ls(ctx context.Context) error {
	_, err := t.run(ctx, "list-panes", "-a")
	return err
}

func (t *tmux) pid() int { return t.server }

// waitPrompts polls each pane's screen until it shows the prompt; each
// poll is a client round trip, so it needs no sleep.
func (t *tmux) waitPrompts(ctx context.Context) error {
	out, err := t.run(ctx, "list-panes", "-a", "-F", "#{pane_id}")
	if err != nil {
		return err
	}
	for _, pane := range strings.Fields(out) {
		if err := t.waitPrompt(ctx, pane); err != nil {
			return err
		}
	}
	return nil
}

func (t *tmux) waitPrompt(ctx context.Context, pane string) error {
	for {
		out, err := t.run(ctx, "capture-pane", "-p", "-t", pane)
		if err != nil {
			return err
		}
		if strings.Contains(out, strings.TrimSpace(prompt)) { // capture-pane trims the trailing space
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("tmux pane %s never showed its prompt: %w", pane, ctx.Err())
		}
	}
}

func (t *tmux) processes(ctx context.Context) ([]int, error) {
	out, err := t.run(ctx, "list-panes", "-a", "-F", "#{pane_pid}")
	pids := []int{t.server}
	for _, f := range strings.Fields(out) {
		if p, err := strconv.Atoi(f); err == nil {
			pids = append(pids, p)
		}
	}
	return pids, err
}

// close kills the server (its panes get SIGHUP), checks that the server
// and every pane's process are gone, and removes its socket directory. It
// returns how long that took, as the host's close does.
func (t *tmux) close() (time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	pids, perr := t.processes(ctx)
	start := time.Now()
	_, kerr := t.run(ctx, "kill-server")
	gone := reap(pids, 30*time.Second)
	took := time.Since(start)
	os.RemoveAll(t.dir)
	return took, errors.Join(perr, kerr, gone)
}
