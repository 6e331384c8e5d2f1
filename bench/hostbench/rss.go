package hostbench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"clowder/bench/isolate"
	"clowder/bench/procstat"
	"clowder/supervisor/proto"
)

// IdleRSS runs the real clowder binary's host (`clowder host --foreground`)
// on private directories, opens n idle shell panes in it, waits until every
// shell has settled at its prompt, and returns the host's resident memory.
func IdleRSS(ctx context.Context, bin string, n int) (int64, error) {
	dir, err := os.MkdirTemp("", "clwrss")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	host := exec.Command(bin, "host", "--foreground")
	host.Env = isolate.Env(os.Environ(), dir) // dir/config.toml does not exist: the defaults
	if err := host.Start(); err != nil {
		return 0, fmt.Errorf("start %s host: %w", bin, err)
	}
	// HostStop (below) ends it; should that fail (or the dial, before it),
	// it is killed, so a failed run leaves no host behind.
	defer func() { _ = host.Process.Kill(); _ = host.Wait() }()
	c, err := dialWhenUp(ctx, filepath.Join(dir, "run", "host.sock"))
	if err != nil {
		return 0, err
	}
	defer c.Close()
	defer func() { _ = c.HostStop(context.Background(), true) }() // kills the shells before the host goes
	for i := 0; i < n; i++ {
		r, err := c.Spawn(ctx, proto.SpawnReq{Nonce: strconv.Itoa(i), Argv: []string{"sh"}, Kind: "shell", Cols: 80, Rows: 24})
		if err != nil {
			return 0, err
		}
		if _, err := c.Wait(ctx, proto.WaitReq{Pane: r.Pane.ID, IdleMS: 300, TimeoutMS: 10000}); err != nil {
			return 0, err
		}
	}
	time.Sleep(Quiet) // idle: the host has done its start-up work
	return procstat.RSS(host.Process.Pid)
}

// Quiet is how long a benchmark leaves a real host without requests before
// it reads the host's idle memory or CPU: the host drops its start-up
// pages once no request has come for a quarter of a second
// (supervisor/host, startQuiet).
const Quiet = time.Second

// TmuxIdleRSS starts a private tmux server with n idle shell windows and
// returns the server's resident memory.
func TmuxIdleRSS(ctx context.Context, n int) (int64, error) {
	sock := fmt.Sprintf("clwrss-%d-%d", os.Getpid(), time.Now().UnixNano())
	env, done, err := isolate.TmuxEnv()
	if err != nil {
		return 0, err
	}
	defer done()
	tmux := func(args ...string) ([]byte, error) {
		c := exec.CommandContext(ctx, "tmux", append([]string{"-L", sock, "-f", "/dev/null"}, args...)...)
		c.Env = env
		return c.Output()
	}
	const prompt = "rss> "
	shell := "PS1='" + prompt + "' sh"
	if _, err := tmux("new-session", "-d", "-x", "80", "-y", "24", shell); err != nil {
		return 0, fmt.Errorf("start tmux: %w", err)
	}
	defer func() { _, _ = tmux("kill-server") }()
	for i := 1; i < n; i++ {
		if _, err := tmux("new-window", "-d", shell); err != nil {
			return 0, err
		}
	}
	out, err := tmux("display-message", "-p", "#{pid}")
	if err != nil {
		return 0, err
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	for i := 0; i < n; i++ { // every shell at its prompt, as the host's panes are
		if err := waitPrompt(ctx, tmux, strconv.Itoa(i), prompt); err != nil {
			return 0, err
		}
	}
	return procstat.RSS(pid)
}

// waitPrompt polls a tmux window until it shows prompt.
func waitPrompt(ctx context.Context, tmux func(...string) ([]byte, error), window, prompt string) error {
	for {
		out, err := tmux("capture-pane", "-p", "-t", ":"+window)
		if err != nil {
			return err
		}
		if strings.Contains(string(out), strings.TrimSpace(prompt)) { // capture-pane trims the trailing space
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("tmux window %s never showed its prompt: %w", window, ctx.Err())
		case <-time.After(20 * time.Millisecond): // polling a screen, in a benchmark
		}
	}
}

// BuildClowder builds the clowder binary into dir from the main module (the
// bench module's replacement of clowder), so it builds with the product's
// own dependencies.
func BuildClowder(ctx context.Context, dir string) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Dir}}", "clowder").Output()
	if err != nil {
		return "", fmt.Errorf("find the clowder module: %w", err)
	}
	bin := filepath.Join(dir, "clowder")
	build := exec.CommandContext(ctx, "go", "build", "-tags", "netgo,osusergo", "-o", bin, "./cmd/clowder") // as make build does
	build.Dir = strings.TrimSpace(string(out))
	if msg, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build clowder: %w\n%s", err, msg)
	}
	return bin, nil
}
