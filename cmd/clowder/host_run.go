package main

// The host process itself: `clowder host --foreground`.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"clowder/persist"
	"clowder/supervisor/client"
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
	handover, back := handedState(host.EnvUpgradeState), handedState(host.EnvUpgradeBack)
	p, err := a.paths()
	if err != nil {
		return err
	}
	cfg, cfgErr := persist.LoadConfig(p.ConfigFile)
	switch {
	case cfgErr != nil && handover != nil:
		// Handed live panes by an upgrade: failing here would end them
		// all. Take over with the defaults; the log says why.
		cfg = persist.DefaultConfig()
	case cfgErr != nil:
		return cfgErr
	}
	out, closeLog := hostLogWriter(a.stderr, p.LogFile())
	defer closeLog()
	logger := log.New(out, "clowder host: ", log.LstdFlags|log.Lmicroseconds)
	if cfgErr != nil {
		logger.Printf("took over from an upgrade with the default config, as this one has an error: %v", cfgErr)
	}
	ready := readyPipe()
	exe, _ := a.exe() // "" on error: agents then run without clowder's hooks
	h, err := host.New(host.Options{Paths: p, Config: cfg, Build: version, Log: logger, HookBinary: exe, ManageProcs: true,
		Listening: func(err error) { tellStarter(ready, err) }, StartWork: dropStartupPagesQuietly, Handover: handover, UpgradeBack: back})
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(parent, hostSignals...)
	defer stop()
	return h.Serve(ctx)
}

// readyPipe is the pipe of client.EnvReadyFD if the client that started
// this host gave one, else nil. It is taken out of the environment and
// made close-on-exec, so no pane inherits either.
func readyPipe() *os.File {
	v, ok := os.LookupEnv(client.EnvReadyFD)
	if !ok {
		return nil
	}
	_ = os.Unsetenv(client.EnvReadyFD) // cannot fail for a valid name
	fd, err := strconv.Atoi(v)
	if err != nil || fd < 3 {
		return nil
	}
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		return nil // not our pipe: leave whatever that fd is alone
	}
	syscall.CloseOnExec(fd)
	return os.NewFile(uintptr(fd), "host-ready")
}

// handedState is the descriptor an upgrading host image handed this one
// under env (host.EnvUpgradeState: the state's memory file;
// host.EnvUpgradeBack: its own binary), else nil. Like the ready pipe it
// is taken out of the environment and made close-on-exec, so no pane
// inherits it.
func handedState(env string) *os.File {
	v, ok := os.LookupEnv(env)
	if !ok {
		return nil
	}
	_ = os.Unsetenv(env) // cannot fail for a valid name
	fd, err := strconv.Atoi(v)
	if err != nil || fd < 3 {
		return nil
	}
	syscall.CloseOnExec(fd)
	return os.NewFile(uintptr(fd), env)
}

// tellStarter writes the client's line on the ready pipe and closes it:
// ready, busy when another host holds the lock, nothing on any other
// failure (the client reads the log).
func tellStarter(ready *os.File, err error) {
	if ready == nil {
		return
	}
	switch {
	case err == nil:
		_, _ = fmt.Fprintln(ready, client.HostReady) // best effort: the client may be gone
	case errors.Is(err, persist.ErrLocked):
		_, _ = fmt.Fprintln(ready, client.HostBusy)
	}
	_ = ready.Close() // best effort: as above
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

// printStateFormat answers `clowder host --state-format`: the state
// format an upgrading host checks before it execs this binary. A config
// this binary would not start with fails it, so the upgrade is refused
// with the config's error before anything stops.
func printStateFormat(a *app) error {
	if _, _, err := a.setup(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(a.stdout, host.StateFormat())
	return err
}
