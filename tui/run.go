package tui

// This file runs the program: it builds the model, runs bubbletea in the
// current terminal, and closes every stream afterwards. Quitting (detach)
// leaves every pane running: the host owns them, and the TUI owns nothing
// a pane needs, so even a SIGKILL of the TUI disturbs none of them.

import (
	"context"
	"fmt"
	"os"

	tea "charm.land/bubbletea/v2"
)

// Run runs the TUI until the user detaches or ctx ends. It closes
// opts.Host when done.
func Run(ctx context.Context, opts Options) error {
	defer func() { _ = opts.Host.Close() }() // best effort: panes keep running either way
	m, err := New(opts)
	if err != nil {
		return err
	}
	defer m.Close()
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	t, err := openTerminal(os.Stdin, os.Stdout, env)
	if err != nil {
		return fmt.Errorf("the TUI needs a terminal: %w", err)
	}
	defer t.close()
	m.draw, m.recycle, m.command = t.show, t.reuse, t.command
	// bubbletea reads and decodes input; terminal.go draws. bubbletea's
	// renderer would flush on a fixed ticker whether or not anything
	// changed (idle wake-ups, and every echo waiting for the next tick).
	// Without it, its ticker has nothing to flush (terminal commands go
	// through terminal.go too), so once a second, its minimum, is plenty.
	// Without a renderer bubbletea cannot ask the terminal its size, so it
	// is told; followSize reports every later change.
	w, h := t.size()
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithoutRenderer(), tea.WithFPS(1), tea.WithWindowSize(w, h))
	done := make(chan struct{})
	defer close(done)
	go t.followSize(p, done)
	if _, err := p.Run(); err != nil && ctx.Err() == nil {
		return fmt.Errorf("run the TUI: %w", err)
	}
	return nil
}
