package tui

// This file runs the program: it builds the model, runs its event loop
// (loop.go) in the current terminal, and closes every stream afterwards.
// Quitting (detach) leaves every pane running: the host owns them, and the
// TUI owns nothing a pane needs, so even a SIGKILL of the TUI disturbs
// none of them.
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
	"runtime/debug"
	"syscall"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
)

// signalMsg says the process got a signal that ends the TUI.
type signalMsg struct{ sig os.Signal }

// forwardSignals hands SIGHUP, SIGTERM and SIGINT to Update until done is
// closed (when Run returns).
func forwardSignals(send func(tea.Msg), done <-chan struct{}) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT)
	defer signal.Stop(ch)
	for {
		select {
		case s := <-ch:
			send(signalMsg{sig: s})
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
	m.draw, m.canvasMu, m.command = t.show, &t.canvasMu, t.command
	defer m.saver.close() // after the loop: waits for a write under way
	// The TUI's live heap is a few MB, so at the default GOGC a flood's
	// decoded frames (a row of cells each, garbage once merged) kept the
	// GC running: a fifth of the TUI's CPU. Four times the headroom
	// costs a few MB and halves the TUI's share of a flood (issue 12).
	debug.SetGCPercent(400)
	return runLoop(ctx, m, t, uv.Environ(env).Getenv("TERM"))
}

// runLoop runs m's event loop on the terminal t: input decoded from
// stdin, the size told at start and on every SIGWINCH, the ending signals
// forwarded (loop.go; bubbletea's Program woke once a second for nothing).
func runLoop(ctx context.Context, m *Model, t *terminal, term string) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	l := newEventLoop(ctx)
	l.mail, m.mailByLoop = m.mail, true
	m.mail.now = l.deliverNow // before Init: no stream is followed yet
	stop, err := l.readInput(t.in, term)
	if err != nil {
		return err
	}
	defer stop()
	done := make(chan struct{})
	defer close(done)
	go t.followSize(l.send, done)
	go forwardSignals(l.send, done)
	first := m.Init()
	w, h := t.size()
	_, size := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	if err := l.run(m, tea.Batch(first, size)); err != nil {
		return fmt.Errorf("run the TUI: %w", err)
	}
	return nil
}
