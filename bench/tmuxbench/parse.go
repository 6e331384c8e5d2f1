package tmuxbench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// ParseResult is one timed run of a file through a tmux pane.
type ParseResult struct {
	Bytes    int64         // size of the file
	Raw      time.Duration // from the start signal until the pane title is the end marker
	Overhead time.Duration // the same for an empty file: tmux round trips, process starts
	Cat      time.Duration // cat FILE > /dev/null outside tmux
	// ServerCPU is the CPU time the tmux server used on the file (0 where
	// it cannot be read).
	ServerCPU time.Duration
	// Screen is the pane's text afterwards (capture-pane -p): the picture
	// an emulator fed the same bytes plus a CAN should show.
	Screen string
}

// Net is the time tmux spent on the bytes: Raw minus the round-trip overhead
// and minus what cat itself costs.
func (r ParseResult) Net() time.Duration { return r.Raw - r.Overhead - r.Cat }

// MBperCPUs is megabytes per CPU second of the tmux server: steadier than
// MBps on a busy machine. It is 0 when the CPU time is unknown.
func (r ParseResult) MBperCPUs() float64 {
	if r.ServerCPU <= 0 {
		return 0
	}
	return float64(r.Bytes) / 1e6 / r.ServerCPU.Seconds()
}

// MBps is the net throughput in megabytes (10^6 bytes) per second.
func (r ParseResult) MBps() float64 { return float64(r.Bytes) / 1e6 / r.Net().Seconds() }

// paneScript runs in the pane. The tty is put in raw mode without output
// processing or echo, so it adds nothing to the bytes. The script says it is
// ready, waits for the start signal, cats the file, then cancels any
// sequence the cut left open (CAN) and sets the pane title to an end marker
// (OSC 2, which leaves the screen alone), and signals done. $1 is tmux with
// its socket, $2 the file, $3 the marker, $4 the channel prefix.
const paneScript = `stty -opost -echo raw
eval "$1 wait-for -S $4-ready"
eval "$1 wait-for $4-go"
cat "$2"
printf '\030\033]2;%s\033\\' "$3"
eval "$1 wait-for -S $4-done"
exec sleep 2147483647`

// Parse measures tmux parsing file in a detached cols x rows pane: the time
// from the start signal until the pane has consumed the file and its title
// is the end marker (so tmux has read and parsed every byte before it),
// minus an empty-file run and minus cat to /dev/null.
func Parse(ctx context.Context, file string, cols, rows, history int) (ParseResult, error) {
	st, err := os.Stat(file)
	if err != nil {
		return ParseResult{}, fmt.Errorf("tmux parse: %w", err)
	}
	s, err := StartServer(ctx, cols, rows, history)
	if err != nil {
		return ParseResult{}, err
	}
	defer s.Close()
	empty := filepath.Join(filepath.Dir(file), "empty")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		return ParseResult{}, fmt.Errorf("tmux parse: %w", err)
	}
	defer os.Remove(empty)
	r := ParseResult{Bytes: st.Size()}
	if r.Overhead, _, err = s.timeCat(ctx, empty, cols, rows, "e"); err != nil {
		return r, err
	}
	before, okBefore := s.serverCPU(ctx)
	var pane string
	if r.Raw, pane, err = s.timeCat(ctx, file, cols, rows, "f"); err != nil {
		return r, err
	}
	if r.Screen, err = s.Capture(ctx, pane); err != nil {
		return r, err
	}
	if after, ok := s.serverCPU(ctx); ok && okBefore {
		r.ServerCPU = after - before
	}
	r.Cat, err = timeCatDevNull(ctx, file)
	return r, err
}

// timeCat runs paneScript on file in a new pane, times it and returns the
// pane.
func (s *Server) timeCat(ctx context.Context, file string, cols, rows int, channel string) (time.Duration, string, error) {
	marker := fmt.Sprintf("CLOWDER-BENCH-END-%s-%d", channel, time.Now().UnixNano())
	pane, err := s.NewPane(ctx, paneScript, s.Tmux(), file, marker, channel)
	if err != nil {
		return 0, "", err
	}
	if c, r, err := s.PaneSize(ctx, pane); err != nil || c != cols || r != rows {
		return 0, "", fmt.Errorf("tmux pane %s is %dx%d, want %dx%d (%v)", pane, c, r, cols, rows, err)
	}
	if _, err := s.Run(ctx, "wait-for", channel+"-ready"); err != nil {
		return 0, "", err
	}
	start := time.Now()
	if _, err := s.Run(ctx, "wait-for", "-S", channel+"-go", ";", "wait-for", channel+"-done"); err != nil {
		return 0, "", err
	}
	if err := s.waitForTitle(ctx, pane, marker); err != nil {
		return 0, "", err
	}
	return time.Since(start), pane, nil
}

// waitForTitle polls the title of pane until it is title. Each poll is a
// tmux client round trip, so the loop needs no sleep; ctx bounds it.
func (s *Server) waitForTitle(ctx context.Context, pane, title string) error {
	for {
		out, err := s.Run(ctx, "display-message", "-p", "-t", pane, "#{pane_title}")
		if err != nil {
			return err
		}
		if strings.TrimSpace(string(out)) == title {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("tmux pane %s never got title %q: %w", pane, title, ctx.Err())
		}
	}
}

// timeCatDevNull is the floor: reading the file with cat, writing nowhere.
func timeCatDevNull(ctx context.Context, file string) (time.Duration, error) {
	cmd := exec.CommandContext(ctx, "cat", file)
	start := time.Now()
	if err := cmd.Run(); err != nil { // stdout nil is /dev/null
		return 0, fmt.Errorf("cat %s > /dev/null: %w", file, err)
	}
	return time.Since(start), nil
}
