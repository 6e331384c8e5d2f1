package scale

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"clowder/bench/isolate"
	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

// prompt is every shell's prompt, on both sides, so that a pane is known
// to have started and drawn. It is set by the file $ENV names, which every
// interactive POSIX shell reads after the profile: PS1 in the environment
// is not enough, as /etc/profile sets its own for a login shell.
const prompt = "scale> "

// shellEnv writes dir/shrc, which sets the prompt, and returns the
// variables that make every shell a pane starts /bin/sh reading it.
func shellEnv(dir string) ([]string, error) {
	rc := filepath.Join(dir, "shrc")
	if err := os.WriteFile(rc, []byte("PS1='"+prompt+"'\n"), 0o600); err != nil {
		return nil, fmt.Errorf("write the shells' rc file: %w", err)
	}
	return []string{"SHELL=/bin/sh", "ENV=" + rc}, nil
}

// Clowder measures the real binary bin's host (`clowder host
// --foreground`, on private directories) with cfg.Panes idle shells, each
// opened by `clowder new --shell`.
func Clowder(ctx context.Context, bin string, cfg Config) (r Result, err error) {
	if err := cfg.check(); err != nil {
		return Result{}, err
	}
	h, err := startHost(ctx, bin)
	if err != nil {
		return Result{}, err
	}
	defer func() {
		var cerr error
		r.Stop, cerr = h.close()
		err = errors.Join(err, cerr)
	}()
	return measure(ctx, h, cfg)
}

// host is a clowder host this process started, and the CLI's environment.
type host struct {
	bin, dir string
	env      []string
	cmd      *exec.Cmd
	ids      []string // the panes, as `clowder new` printed them
}

var _ server = (*host)(nil)

// startHost runs `bin host --foreground` on a temporary directory, waits
// until it listens and opens the first pane (as startTmux does).
func startHost(ctx context.Context, bin string) (*host, error) {
	dir, err := os.MkdirTemp("", "clwscale")
	if err != nil {
		return nil, fmt.Errorf("temp dir for the scale host: %w", err)
	}
	sh, err := shellEnv(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	h := &host{bin: bin, dir: dir, env: isolate.Env(os.Environ(), dir, sh...)}
	h.cmd = exec.Command(bin, "host", "--foreground")
	h.cmd.Env = h.env // dir/config.toml does not exist: the defaults
	if err := h.cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start %s host: %w", bin, err)
	}
	if err := waitListening(ctx, h.socket()); err != nil {
		_, _ = h.close() // best effort: already failing
		return nil, err
	}
	if err := h.spawn(ctx); err != nil {
		_, _ = h.close() // best effort: already failing
		return nil, err
	}
	return h, nil
}

func (h *host) socket() string { return filepath.Join(h.dir, "run", "host.sock") }

// waitListening dials socket until the host accepts.
func waitListening(ctx context.Context, socket string) error {
	for step := time.Millisecond; ; step = min(2*step, 50*time.Millisecond) {
		if c, err := net.Dial("unix", socket); err == nil {
			return c.Close()
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("host socket %s never came up: %w", socket, ctx.Err())
		case <-time.After(step): // polling a socket that has no other signal
		}
	}
}

func (h *host) run(ctx context.Context, args ...string) (string, error) {
	c := exec.CommandContext(ctx, h.bin, args...)
	c.Env = h.env
	out, err := c.Output()
	if err != nil {
		return "", fmt.Errorf("clowder %s: %w: %s", strings.Join(args, " "), err, stderrOf(err))
	}
	return string(out), nil
}

func (h *host) spawn(ctx context.Context) error {
	out, err := h.run(ctx, "new", "--shell", "--size", "80x24")
	if err == nil {
		h.ids = append(h.ids, strings.TrimSpace(out))
	}
	return err
}

func (h *host) ls(ctx context.Context) error {
	_, err := h.run(ctx, "ls")
	return err
}

func (h *host) pid() int { return h.cmd.Process.Pid }

// waitPrompts asks the host, through one client connection that it closes
// again (a client must not count in the idle figures), for each pane's
// screen to show the prompt, then waits until the host has judged every
// pane's attention: its settle timer (a second or two after the last
// output) has fired, so the idle period that follows is the steady state
// and not the tail of the spawns.
func (h *host) waitPrompts(ctx context.Context) error {
	c, err := client.Dial(ctx, h.socket())
	if err != nil {
		return fmt.Errorf("dial the scale host: %w", err)
	}
	defer c.Close()
	for _, id := range h.ids {
		if _, err := c.Wait(ctx, proto.WaitReq{Pane: id, Text: strings.TrimSpace(prompt), TimeoutMS: 60_000}); err != nil { // the screen trims trailing blanks
			return fmt.Errorf("wait for the prompt of pane %s: %w", id, err)
		}
	}
	return waitJudged(ctx, c)
}

// waitJudged polls the pane list until no pane is still "working".
func waitJudged(ctx context.Context, c *client.Client) error {
	for {
		panes, err := c.List(ctx)
		if err != nil {
			return fmt.Errorf("list the scale host's panes: %w", err)
		}
		if !slices.ContainsFunc(panes, func(p proto.PaneInfo) bool { return p.Attention == "working" }) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the scale host's panes never settled: %w", ctx.Err())
		case <-time.After(50 * time.Millisecond): // polling: no event says "every pane judged"
		}
	}
}

func (h *host) processes(ctx context.Context) ([]int, error) {
	c, err := client.Dial(ctx, h.socket())
	if err != nil {
		return nil, fmt.Errorf("dial the scale host: %w", err)
	}
	defer c.Close()
	panes, err := c.List(ctx)
	pids := []int{h.pid()}
	for _, p := range panes {
		pids = append(pids, p.Pid)
	}
	return pids, err
}

// close stops the host and its panes (`host stop --force`, then a kill
// should that fail), checks that the host and every pane's process are
// gone, and removes its directories. It returns how long the stop took,
// from the command until the last of those processes was gone.
func (h *host) close() (time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	pids, perr := h.processes(ctx)
	start := time.Now()
	_, serr := h.run(ctx, "host", "stop", "--force")
	if serr != nil {
		_ = h.cmd.Process.Kill() // the stop failed: the host must not outlive the run
	}
	_ = h.cmd.Wait() // its exit status after a stop or a kill says nothing more
	rerr := reap(pids, 30*time.Second)
	took := time.Since(start)
	os.RemoveAll(h.dir)
	return took, errors.Join(perr, serr, rerr)
}

func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return strings.TrimSpace(string(ee.Stderr))
	}
	return ""
}
