package clibench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"clowder/bench/isolate"
	"clowder/bench/latency"
)

// ColdStart times n cold starts of clowder: with no host running, `clowder
// new -- true` (which starts the host) and `clowder wait ID --exit`. Each
// run has a world of its own, stopped afterwards (untimed).
func ColdStart(ctx context.Context, bin string, n int) (latency.Samples, error) {
	s := make(latency.Samples, 0, n)
	for i := 0; i < n; i++ {
		d, err := coldOnce(ctx, bin)
		if err != nil {
			return s, err
		}
		s = append(s, d)
	}
	return s, nil
}

func coldOnce(ctx context.Context, bin string) (time.Duration, error) {
	w, err := NewWorld(bin)
	if err != nil {
		return 0, err
	}
	defer w.Close()
	start := time.Now()
	id, err := w.Run(ctx, "new", "--", "true")
	if err != nil {
		return 0, err
	}
	if _, err := w.Run(ctx, "wait", strings.TrimSpace(id), "--exit", "--timeout", "30s"); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}

// TmuxColdStart is the same with tmux and no server running: one client
// starts the server with a session whose command runs `true` and then
// signals a channel the client waits on (`new-session -d ... \; wait-for`),
// so it ends when the command has run, as `wait --exit` does.
func TmuxColdStart(ctx context.Context, n int) (latency.Samples, error) {
	s := make(latency.Samples, 0, n)
	env, done, err := isolate.TmuxEnv()
	if err != nil {
		return s, err
	}
	defer done()
	for i := 0; i < n; i++ {
		sock := "clwcold-" + strconv.Itoa(os.Getpid()) + "-" + strconv.Itoa(i) + "-" + strconv.FormatInt(time.Now().UnixNano(), 10)
		tm := "tmux -L " + sock + " -f /dev/null"
		c := exec.CommandContext(ctx, "tmux", "-L", sock, "-f", "/dev/null", "new-session", "-d", "true; "+tm+" wait-for -S done", ";", "wait-for", "done")
		c.Env = env
		start := time.Now()
		out, err := c.CombinedOutput()
		d := time.Since(start)
		kill := exec.Command("tmux", "-L", sock, "kill-server")
		kill.Env = env
		_ = kill.Run() // best effort: the server may already have exited with its last session
		if err != nil {
			return s, fmt.Errorf("tmux cold start: %w: %s", err, out)
		}
		s = append(s, d)
	}
	return s, nil
}
