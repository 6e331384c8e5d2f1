package tuibench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"clowder/bench/hostbench"
	"clowder/bench/isolate"
)

// world is a clowder TUI running in an outer tmux, on private directories.
type world struct {
	bin string
	dir string
	env []string
	o   *outer
}

// startClowder starts the TUI at cols x rows whose first (focused) pane
// runs agent and whose companion is a shell; extra shells are added with
// `clowder new --shell` before the TUI starts.
func startClowder(ctx context.Context, bin string, cols, rows int, agent string, extraShells int) (*world, error) {
	dir, err := os.MkdirTemp("/tmp", "clwtui")
	if err != nil {
		return nil, err
	}
	w := &world{bin: bin, dir: dir}
	w.env = benchEnv(dir)
	cfg := fmt.Sprintf("[tui]\ndefault_adapter = \"bench\"\n[agents.bench]\ncommand = [\"sh\", \"-c\", %q]\n", agent)
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(cfg), 0o600); err != nil {
		return nil, err
	}
	line := launchLine(bin, w.env)
	if w.o, err = startOuter(ctx, w.env, cols, rows, line); err != nil { // the outer tmux too
		w.close()
		return nil, err
	}
	if err := w.o.waitFor(ctx, "help"); err != nil { // the status bar: the TUI is up
		w.close()
		return nil, err
	}
	for i := 0; i < extraShells; i++ {
		if _, err := w.clowder(ctx, "new", "--shell"); err != nil {
			w.close()
			return nil, err
		}
	}
	return w, nil
}

// clowder runs a CLI command in the world.
func (w *world) clowder(ctx context.Context, args ...string) (string, error) {
	o := &outer{env: w.env}
	_ = o
	c := commandContext(ctx, w.bin, args...)
	c.Env = w.env
	out, err := c.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("clowder %v: %w: %s", args, err, out)
	}
	return string(out), nil
}

// hostPID reads the host's pid from host status.
func (w *world) hostPID(ctx context.Context) (int, error) {
	out, err := w.clowder(ctx, "host", "status", "--json")
	if err != nil {
		return 0, err
	}
	var st struct{ Pid int }
	if err := json.Unmarshal([]byte(out), &st); err != nil || st.Pid == 0 {
		return 0, fmt.Errorf("no pid in host status: %s", out)
	}
	return st.Pid, nil
}

// waitQuiet waits until every pane has been quiet for half a second (the
// host's own idle condition, so no screen scraping), then until the host
// has judged every pane's attention: its settle timer fires a second or
// two after the last output, and the event it sends made the TUI draw
// inside the idle period (6.9 host and 10.5 TUI wake-ups a second, where
// both are 0 once judged).
func (w *world) waitQuiet(ctx context.Context) error {
	panes, err := w.panes(ctx)
	if err != nil {
		return err
	}
	for _, p := range panes {
		if _, err := w.clowder(ctx, "wait", p.ID, "--idle", "500ms", "--timeout", "10s"); err != nil {
			return err
		}
	}
	for {
		panes, err := w.panes(ctx)
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(panes, func(p lsPane) bool { return p.Attention == "working" || p.Attention == "starting" }) {
			time.Sleep(hostbench.Quiet) // the host's start-up work, after these requests
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond): // polling: no event says "every pane judged"
		}
	}
}

// close stops the TUI and the host and removes the directories.
func (w *world) close() {
	if w.o != nil {
		w.o.close()
	}
	_, _ = w.clowder(context.Background(), "host", "stop", "--force") // best effort
	os.RemoveAll(w.dir)
}

// benchEnv is the environment of the benchmark's clowder processes: none
// of the user's CLOWDER_* or XDG_* settings, its own paths under dir.
func benchEnv(dir string) []string {
	return isolate.Env(os.Environ(), dir, "SHELL=/bin/sh", "PS1=$ ")
}

// launchLine is the shell line that runs bin with env's clowder, XDG and
// shell settings, whatever the outer terminal's environment holds. The
// settings go on one env(1) command line, in env's order, so the last
// assignment of a name wins as it does for exec.Cmd.Env.
func launchLine(bin string, env []string) string {
	words := []string{"exec", "env"}
	for _, kv := range env {
		for _, p := range []string{"CLOWDER_", "XDG_", "SHELL=", "PS1="} {
			if strings.HasPrefix(kv, p) {
				words = append(words, shellQuote(kv))
			}
		}
	}
	return strings.Join(append(words, shellQuote(bin)), " ")
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
