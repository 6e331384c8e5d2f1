// Package clibench times clowder's CLI as a script meets it, whole process
// included (exec, dial, request, print, exit), next to the tmux commands
// that do the same: `ls`, `capture`, `capture --scrollback 10000`, and a
// cold start (no server running: start one pane that runs `true` and wait
// for its exit).
package clibench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"clowder/bench/isolate"
)

// World is the real clowder binary on private directories.
type World struct {
	bin string
	dir string
	env []string
}

// NewWorld gives bin a directory of its own (no host runs there yet).
func NewWorld(bin string) (*World, error) {
	dir, err := os.MkdirTemp("", "clwcli")
	if err != nil {
		return nil, err
	}
	return &World{bin: bin, dir: dir, env: isolate.Env(os.Environ(), dir, "SHELL=/bin/sh")}, nil
}

// Run runs one clowder command and returns its standard output.
func (w *World) Run(ctx context.Context, args ...string) (string, error) {
	c := exec.CommandContext(ctx, w.bin, args...)
	c.Env = w.env
	out, err := c.Output()
	if err != nil {
		return "", fmt.Errorf("clowder %s: %w: %s", strings.Join(args, " "), err, stderrOf(err))
	}
	return string(out), nil
}

// Close stops the world's host (killing its panes) and removes its files.
func (w *World) Close() {
	_, _ = w.Run(context.Background(), "host", "stop", "--force") // best effort: no host is fine
	os.RemoveAll(w.dir)
}

// HostPID is the pid of the world's host.
func (w *World) HostPID(ctx context.Context) (int, error) {
	out, err := w.Run(ctx, "host", "status", "--json")
	if err != nil {
		return 0, err
	}
	var st struct{ Pid int }
	if err := json.Unmarshal([]byte(out), &st); err != nil || st.Pid == 0 {
		return 0, fmt.Errorf("no pid in host status: %s", out)
	}
	return st.Pid, nil
}

func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return strings.TrimSpace(string(ee.Stderr))
	}
	return ""
}
