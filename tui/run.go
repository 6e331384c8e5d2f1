package tui

// This file runs the program: it builds the model, runs bubbletea in the
// current terminal, and closes every stream afterwards. Quitting (detach)
// leaves every pane running: the host owns them, and the TUI owns nothing
// a pane needs, so even a SIGKILL of the TUI disturbs none of them.

import (
	"context"
	"fmt"

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
	// bubbletea flushes the view on a fixed ticker, not on change. At its
	// default 60 Hz that ticker adds up to 16 ms to every keystroke's
	// echo; 120 Hz (its maximum) halves that at the price of twice the idle
	// wake-ups (both measured by make bench).
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithFPS(120))
	if _, err := p.Run(); err != nil && ctx.Err() == nil {
		return fmt.Errorf("run the TUI: %w", err)
	}
	return nil
}
