package tuibench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// inner is a tmux server nested in the outer one, on a TMUX_TMPDIR of its
// own (removed by stop), so no socket of the bench is left in the user's
// tmux directory.
type inner struct {
	sock, dir string
	pid       int // the server, 0 until known
}

// newInner names an inner server and makes its directory.
func newInner(prefix string) (*inner, error) {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return nil, fmt.Errorf("inner tmux directory: %w", err)
	}
	return &inner{sock: fmt.Sprintf("%s-%d-%d", prefix, os.Getpid(), time.Now().UnixNano()), dir: dir}, nil
}

// env is the environment of the inner server's commands.
func (in *inner) env() []string {
	return append(withoutVar(os.Environ(), "TMUX_TMPDIR"), "TMUX_TMPDIR="+in.dir)
}

// cmd is a tmux command to the inner server.
func (in *inner) cmd(ctx context.Context, args ...string) *exec.Cmd {
	c := exec.CommandContext(ctx, "tmux", append([]string{"-L", in.sock, "-f", "/dev/null"}, args...)...)
	c.Env = in.env()
	return c
}

// start runs the server with a 160x47 session running cmd and learns its
// pid.
func (in *inner) start(ctx context.Context, cmd string) error {
	if err := in.cmd(ctx, "new-session", "-d", "-x", "160", "-y", "47", cmd).Run(); err != nil {
		return fmt.Errorf("start inner tmux: %w", err)
	}
	out, err := in.cmd(ctx, "display-message", "-p", "#{pid}").Output()
	if err != nil {
		return fmt.Errorf("inner tmux pid: %w", err)
	}
	in.pid, err = strconv.Atoi(strings.TrimSpace(string(out)))
	return err
}

// attach is the outer window's shell line that attaches to the server.
func (in *inner) attach() string {
	return "exec env -u TMUX TMUX_TMPDIR=" + shellQuote(in.dir) + " tmux -L " + in.sock + " attach"
}

// shellFor is a shell line that runs a tmux command on the server from
// inside one of its panes.
func (in *inner) shellFor(args string) string {
	return "TMUX_TMPDIR=" + shellQuote(in.dir) + " tmux -L " + in.sock + " " + args
}

// stop kills the server, waits until it is gone and removes its directory.
func (in *inner) stop() {
	_ = in.cmd(context.Background(), "kill-server").Run() // best effort: it may be gone
	if in.pid > 0 {
		waitGone(in.pid, 5*time.Second)
	}
	os.RemoveAll(in.dir)
}

// innerTmuxCmds starts an inner server with a pane per command, tiled,
// the first focused.
func innerTmuxCmds(ctx context.Context, cmds []string) (*inner, error) {
	in, err := newInner("clwinner")
	if err != nil {
		return nil, err
	}
	if err := in.start(ctx, cmds[0]); err != nil {
		in.stop()
		return nil, err
	}
	for i, cmd := range cmds[1:] { // tiled after each split, so eight fit
		if err := in.cmd(ctx, "split-window", "-d", cmd, ";", "select-layout", "tiled").Run(); err != nil {
			in.stop() // already failing
			return nil, fmt.Errorf("split inner tmux for pane %d: %w", i+2, err)
		}
	}
	return in, nil
}

// innerTmux starts an inner server with panes panes, each running cmd.
func innerTmux(ctx context.Context, panes int, cmd string) (*inner, error) {
	cmds := make([]string, panes)
	for i := range cmds {
		cmds[i] = cmd
	}
	return innerTmuxCmds(ctx, cmds)
}
