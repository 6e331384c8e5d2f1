package tmuxbench

import (
	"context"
	"fmt"

	"clowder/bench/latency"
)

// EchoPane is a tmux pane running cat in raw mode without tty echo, so every
// key typed into it comes back once, from cat. It implements latency.Driver
// through the tmux CLI (send-keys, capture-pane), as a script driving tmux
// would.
type EchoPane struct {
	s    *Server
	pane string
}

var _ latency.Driver = (*EchoPane)(nil)

// NewEchoPane opens the pane on s and waits until cat is running in raw mode.
func NewEchoPane(ctx context.Context, s *Server) (*EchoPane, error) {
	script := `stty raw -echo; eval "$1 wait-for -S echo-ready"; exec cat`
	pane, err := s.NewPane(ctx, script, s.Tmux())
	if err != nil {
		return nil, err
	}
	if _, err := s.Run(ctx, "wait-for", "echo-ready"); err != nil {
		return nil, err
	}
	return &EchoPane{s: s, pane: pane}, nil
}

// SendKey types key literally (send-keys -l).
func (e *EchoPane) SendKey(ctx context.Context, key string) error {
	_, err := e.s.Run(ctx, "send-keys", "-t", e.pane, "-l", key)
	return err
}

// Screen returns capture-pane -p.
func (e *EchoPane) Screen(ctx context.Context) (string, error) {
	return e.s.Capture(ctx, e.pane)
}

// Reset has cat echo RIS (ESC c), which clears the screen and homes the
// cursor, and waits until the screen is blank.
func (e *EchoPane) Reset(ctx context.Context) error {
	if _, err := e.s.Run(ctx, "send-keys", "-t", e.pane, "-l", "\x1bc"); err != nil {
		return err
	}
	if err := latency.WaitBlank(ctx, e); err != nil {
		return fmt.Errorf("tmux pane %s: %w", e.pane, err)
	}
	return nil
}

// KeyRoundTrip measures n keystroke round trips through tmux at cols x rows
// on a server of its own: send-keys, then capture-pane until the echo shows.
func KeyRoundTrip(ctx context.Context, cols, rows, n int) (latency.Samples, error) {
	s, err := StartServer(ctx, cols, rows, 2000)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	p, err := NewEchoPane(ctx, s)
	if err != nil {
		return nil, err
	}
	return latency.RoundTrip(ctx, p, n)
}
