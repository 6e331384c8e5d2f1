package tui

// This file runs the program: it builds the model, runs bubbletea in the
// current terminal, and closes every stream afterwards. Quitting (detach)
// leaves every pane running: the host owns them, and the TUI owns nothing
// a pane needs, so even a SIGKILL of the TUI disturbs none of them.
//
// SIGHUP (the terminal closed), SIGTERM and SIGINT detach as the detach
// key does: layout.json is written, the terminal restored, and a write
// under way finishes before the process ends, so no .layout.json.tmp-*
// is left behind.

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	tea "charm.land/bubbletea/v2"
)

// signalMsg says the process got a signal that ends the TUI.
type signalMsg struct{ sig os.Signal }

// forwardSignals hands SIGHUP, SIGTERM and SIGINT to Update until done is
// closed (when Run returns).
func forwardSignals(p *tea.Program, done <-chan struct{}) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT)
	defer signal.Stop(ch)
	for {
		select {
		case s := <-ch:
			p.Send(signalMsg{sig: s})
		case <-done:
			return
		}
	}
}

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
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithoutRenderer(), tea.WithFPS(1), tea.WithWindowSize(w, h),
		tea.WithoutSignalHandler())
	defer m.saver.close() // after the program: waits for a write under way
	done := make(chan struct{})
	defer close(done)
	go t.followSize(p, done)
	go forwardSignals(p, done)
	if _, err := p.Run(); err != nil && ctx.Err() == nil {
		return fmt.Errorf("run the TUI: %w", err)
	}
	return nil
}
