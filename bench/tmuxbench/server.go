package tmuxbench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"clowder/bench/isolate"
)

// Server is a private tmux server with one idle session. It is not safe for
// concurrent use.
type Server struct {
	tmux   string // path of the tmux binary
	socket string // the -L name
	path   string // the socket file, removed on Close
	env    []string
}

// StartServer starts a tmux server on a socket of its own with a detached
// session whose windows are cols x rows and keep history lines. The caller
// must Close it.
func StartServer(ctx context.Context, cols, rows, history int) (*Server, error) {
	bin, err := exec.LookPath("tmux")
	if err != nil {
		return nil, fmt.Errorf("find tmux: %w (install tmux to run the tmux benchmarks)", err)
	}
	s := &Server{
		tmux:   bin,
		socket: fmt.Sprintf("clowder-bench-%d-%d", os.Getpid(), time.Now().UnixNano()),
		env:    isolate.WithoutTMUX(os.Environ()),
	}
	size := strconv.Itoa(cols) + "x" + strconv.Itoa(rows)
	_, err = s.Run(ctx, "new-session", "-d", "-s", "bench", "-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows), "sleep 2147483647",
		";", "set", "-g", "history-limit", strconv.Itoa(history),
		";", "set", "-g", "default-size", size)
	if err != nil {
		return nil, err
	}
	out, err := s.Run(ctx, "display-message", "-p", "#{socket_path}")
	if err != nil {
		_ = s.Close() // best effort: already failing
		return nil, err
	}
	s.path = strings.TrimSpace(string(out))
	return s, nil
}

// Tmux returns the tmux command line prefix for this server, for use in a
// shell script that runs inside one of its panes.
func (s *Server) Tmux() string {
	return shellQuote(s.tmux) + " -L " + shellQuote(s.socket)
}

// Run runs one tmux command (or a ";"-separated list) on this server and
// returns its standard output.
func (s *Server) Run(ctx context.Context, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, s.tmux, append([]string{"-L", s.socket, "-f", "/dev/null"}, args...)...)
	cmd.Env = s.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("tmux %s: %w: %s", strings.Join(args, " "), err, bytes.TrimSpace(stderr.Bytes()))
	}
	return out, nil
}

// NewPane opens a detached window running script under sh with args as $1...
// and returns its pane id (like %3).
func (s *Server) NewPane(ctx context.Context, script string, args ...string) (string, error) {
	argv := append([]string{"new-window", "-d", "-P", "-F", "#{pane_id}", "sh", "-c", script, "sh"}, args...)
	out, err := s.Run(ctx, argv...)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// PaneSize returns the size of pane.
func (s *Server) PaneSize(ctx context.Context, pane string) (cols, rows int, err error) {
	out, err := s.Run(ctx, "display-message", "-p", "-t", pane, "#{pane_width} #{pane_height}")
	if err != nil {
		return 0, 0, err
	}
	if _, err := fmt.Sscan(string(out), &cols, &rows); err != nil {
		return 0, 0, fmt.Errorf("parse size of pane %s from %q: %w", pane, out, err)
	}
	return cols, rows, nil
}

// Capture returns the visible text of pane.
func (s *Server) Capture(ctx context.Context, pane string) (string, error) {
	out, err := s.Run(ctx, "capture-pane", "-p", "-t", pane)
	return string(out), err
}

// Close kills the server and everything in it, and removes its socket file
// (tmux 3.3a leaves it behind).
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := s.Run(ctx, "kill-server")
	if s.path != "" {
		if rmErr := os.Remove(s.path); rmErr != nil && !errors.Is(rmErr, fs.ErrNotExist) && err == nil {
			err = fmt.Errorf("remove tmux socket: %w", rmErr)
		}
	}
	return err
}

// shellQuote quotes s for sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
