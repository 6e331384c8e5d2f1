package vtgrid_test

// This file is the tmux side of the differential harness: it replays one
// byte stream into a pane of a private tmux server and captures the screen.
// Each server lives in its own TMUX_TMPDIR with its own -L socket, is killed
// in t.Cleanup, and the cleanup proves the server and the pane's process are
// gone.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// tmuxMarker is the pane title the pane's shell sets after the stream. tmux
// parses pane output in order, so once the title reads tmuxMarker every byte
// of the stream has been applied to the screen.
const tmuxMarker = "vtdiff-done"

// tmuxSocket is the -L name; the per-server TMUX_TMPDIR makes it unique.
const tmuxSocket = "vtdiff"

// tmuxScreen is what tmux made of a stream.
type tmuxScreen struct {
	plain    []string // capture-pane -p, one entry per row, trailing blanks trimmed
	history  []string // capture-pane -p -S - -E -1: the scrollback, oldest first, trailing blanks trimmed
	styled   string   // capture-pane -p -e -N: rows with SGR (and SO/SI) codes, "\n" separated
	cx, cy   int      // cursor; cx may equal the width in the pending-wrap state
	cursorOn bool     // DECTCEM
}

// tmuxServer is one private tmux server.
type tmuxServer struct {
	bin string
	dir string   // TMUX_TMPDIR and the config file
	env []string // the whole environment of every tmux command
}

// tmuxOrSkip returns tmux's path or skips the test.
func tmuxOrSkip(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("vtdiff: tmux not found in PATH; install tmux (CI does) to compare vtgrid with it")
	}
	return bin
}

// newTmuxServer prepares a server directory; the server starts with the
// first session.
func newTmuxServer(t *testing.T, bin string) *tmuxServer {
	t.Helper()
	// Short on purpose: the socket path must fit sun_path (about 108 bytes).
	dir, err := os.MkdirTemp("", "vtd")
	if err != nil {
		t.Fatalf("vtdiff: make tmux dir: %v", err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) }) // best effort: a temp dir
	conf := strings.Join([]string{
		"set -g status off",                      // the pane gets every row
		"set -g default-terminal xterm-256color", // the pane only runs cat
		"set -g history-limit 100",
	}, "\n") + "\n"
	// window-size manual is not set: tmux 3.3a crashes when it is set before
	// the first session, and with no client attached the size stays -x/-y.
	if err := os.WriteFile(filepath.Join(dir, "tmux.conf"), []byte(conf), 0o644); err != nil {
		t.Fatalf("vtdiff: write tmux.conf: %v", err)
	}
	env := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TMUX_TMPDIR=" + dir,
		"LC_ALL=C.UTF-8", "TERM=xterm-256color", "SHELL=/bin/sh",
	}
	return &tmuxServer{bin: bin, dir: dir, env: env}
}

// run runs one tmux command against the server.
func (s *tmuxServer) run(ctx context.Context, args ...string) (string, error) {
	full := append([]string{"-L", tmuxSocket, "-f", filepath.Join(s.dir, "tmux.conf")}, args...)
	cmd := exec.CommandContext(ctx, s.bin, full...)
	cmd.Env = s.env
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("tmux %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out.String(), nil
}

// replayInTmux plays file into a cols x rows pane and captures the result.
func replayInTmux(t *testing.T, bin, file string, cols, rows int) tmuxScreen {
	t.Helper()
	s := newTmuxServer(t, bin)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	abs, err := filepath.Abs(file)
	if err != nil {
		t.Fatalf("vtdiff: %v", err)
	}
	// raw -echo -opost: bytes reach tmux unchanged and tmux's answers to the
	// stream's queries are not echoed onto the screen. CAN ends any control
	// string the stream left open so the title sequence is parsed.
	script := fmt.Sprintf(`stty raw -echo -opost && cat '%s'; printf '\030\033]2;%s\033\\'; '%s' wait-for -S done; exec sleep 2147483647`,
		abs, tmuxMarker, bin)
	if _, err := s.run(ctx, "new-session", "-d", "-s", "vtd", "-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows), script); err != nil {
		t.Fatalf("vtdiff: %v", err)
	}
	info := s.waitDone(t, ctx)
	t.Cleanup(func() { s.kill(t, info.serverPID, info.panePID) })
	if info.w != cols || info.h != rows {
		t.Fatalf("vtdiff: tmux pane is %dx%d, want %dx%d", info.w, info.h, cols, rows)
	}
	plain, err := s.run(ctx, "capture-pane", "-p", "-t", "vtd")
	if err != nil {
		t.Fatalf("vtdiff: %v", err)
	}
	styled, err := s.run(ctx, "capture-pane", "-p", "-e", "-N", "-t", "vtd")
	if err != nil {
		t.Fatalf("vtdiff: %v", err)
	}
	history, err := s.run(ctx, "capture-pane", "-p", "-S", "-", "-E", "-1", "-t", "vtd")
	if err != nil {
		t.Fatalf("vtdiff: %v", err)
	}
	return tmuxScreen{
		plain: captureRows(plain, rows), styled: styled, cx: info.cx, cy: info.cy, cursorOn: info.cursorOn,
		history: captureRows(history, strings.Count(history, "\n")),
	}
}

// paneInfo is display-message's view of the pane.
type paneInfo struct {
	w, h, cx, cy       int
	cursorOn           bool
	serverPID, panePID int
	title              string
}

const paneFormat = "#{pane_width} #{pane_height} #{cursor_x} #{cursor_y} #{cursor_flag} #{pid} #{pane_pid} #{pane_title}"

func (s *tmuxServer) info(ctx context.Context) (paneInfo, error) {
	out, err := s.run(ctx, "display-message", "-p", "-t", "vtd", paneFormat)
	if err != nil {
		return paneInfo{}, err
	}
	f := strings.SplitN(strings.TrimSuffix(out, "\n"), " ", 8)
	if len(f) < 8 {
		return paneInfo{}, fmt.Errorf("tmux display-message: unexpected %q", out)
	}
	n := make([]int, 7)
	for i := range n {
		if n[i], err = strconv.Atoi(f[i]); err != nil {
			return paneInfo{}, fmt.Errorf("tmux display-message %q: %w", out, err)
		}
	}
	return paneInfo{w: n[0], h: n[1], cx: n[2], cy: n[3], cursorOn: n[4] == 1, serverPID: n[5], panePID: n[6], title: f[7]}, nil
}

// waitDone blocks until the pane has sent the whole stream (wait-for) and
// tmux has parsed it (the title marker, polled with a deadline).
func (s *tmuxServer) waitDone(t *testing.T, ctx context.Context) paneInfo {
	t.Helper()
	if _, err := s.run(ctx, "wait-for", "done"); err != nil {
		t.Fatalf("vtdiff: waiting for the stream to be sent: %v", err)
	}
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		info, err := s.info(ctx)
		if err != nil {
			t.Fatalf("vtdiff: %v", err)
		}
		if info.title == tmuxMarker {
			return info
		}
		select {
		case <-ctx.Done():
			t.Fatalf("vtdiff: tmux never parsed the end marker (title %q)", info.title)
		case <-tick.C:
		}
	}
}

// kill stops the server and proves that it and the pane's process are gone.
func (s *tmuxServer) kill(t *testing.T, pids ...int) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := s.run(ctx, "kill-server"); err != nil {
		t.Errorf("vtdiff: %v", err)
	}
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for _, pid := range pids {
		for !processGone(pid) {
			select {
			case <-ctx.Done():
				t.Errorf("vtdiff: process %d still alive after tmux kill-server", pid)
				return
			case <-tick.C:
			}
		}
	}
}

// processGone reports whether pid no longer runs: it does not exist, or it
// is a zombie waiting for its (init) parent to reap it.
func processGone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return errors.Is(err, os.ErrNotExist)
	}
	// The state follows the parenthesised command name: "pid (comm) S ...".
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && i+2 < len(stat) && (stat[i+2] == 'Z' || stat[i+2] == 'X')
}

// captureRows splits capture-pane -p output into exactly rows rows with
// trailing spaces trimmed.
func captureRows(out string, rows int) []string {
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	got := make([]string, rows)
	for i := range got {
		if i < len(lines) {
			got[i] = strings.TrimRight(lines[i], " ")
		}
	}
	return got
}
