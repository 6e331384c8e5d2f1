package main

// The host process itself: `clowder host --foreground`.

import (
	"context"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"

	"clowder/supervisor/host"
)

// hostSignals end the host with the kill ladder. SIGHUP is among them: a
// foreground host whose terminal closes (its tmux window, an ssh session)
// must stop its panes and record their exits, not die on Go's default
// action and leak them (issue 7).
var hostSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// runHost serves until SIGINT, SIGTERM or SIGHUP (or the host decides to
// stop).
func runHost(parent context.Context, a *app) error {
	p, cfg, err := a.setup()
	if err != nil {
		return err
	}
	out, closeLog := hostLogWriter(a.stderr, p.LogFile())
	defer closeLog()
	logger := log.New(out, "clowder host: ", log.LstdFlags|log.Lmicroseconds)
	exe, _ := a.exe() // "" on error: agents then run without clowder's hooks
	h, err := host.New(host.Options{Paths: p, Config: cfg, Build: version, Log: logger, HookBinary: exe})
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(parent, hostSignals...)
	defer stop()
	return h.Serve(ctx)
}

// hostLogWriter is where the host logs: host.log, capped and rotated, when
// stderr is that file (a host started in the background); else stderr as
// it is (a person running the host in a terminal).
func hostLogWriter(stderr io.Writer, path string) (io.Writer, func()) {
	if f, ok := stderr.(*os.File); !ok || !host.SameFile(int(f.Fd()), path) {
		return stderr, func() {}
	}
	l, err := host.OpenLog(path, host.LogMax, 1, 2)
	if err != nil {
		return stderr, func() {}
	}
	return l, func() { _ = l.Close() } // best effort: the host is exiting
}
