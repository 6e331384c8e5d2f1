package main

// This file is what every command shares: the process's environment,
// streams and paths (injected, so tests run commands in-process with their
// own), connecting to the host, and the argument helpers that turn bad
// input into usage errors (exit 2).

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"clowder/persist"
	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

// app is the world a command runs in.
type app struct {
	lookup  persist.LookupEnv
	environ func() []string
	getwd   func() (string, error)
	stdin   io.Reader
	stdout  io.Writer
	stderr  io.Writer
	exe     func() (string, error) // the binary a host is started from
	// callTimeout is each request's deadline (nil: callDeadline); tests
	// shorten it.
	callTimeout func(proto.Message) time.Duration
	// grace is config.toml's kill grace, read once for the command
	// (killGrace).
	grace struct {
		once sync.Once
		d    time.Duration
	}
}

// newOSApp is the real process's world.
func newOSApp() *app {
	return &app{lookup: os.LookupEnv, environ: os.Environ, getwd: os.Getwd,
		stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, exe: os.Executable}
}

// paths resolves clowder's locations from the environment.
func (a *app) paths() (persist.Paths, error) { return persist.ResolvePaths(a.lookup) }

// setup resolves clowder's locations and loads config.toml from them.
func (a *app) setup() (persist.Paths, persist.Config, error) {
	p, err := a.paths()
	if err != nil {
		return p, persist.Config{}, err
	}
	cfg, err := persist.LoadConfig(p.ConfigFile)
	return p, cfg, err
}

// dial connects to a running host and never starts one: commands about
// existing panes have nothing to do without a host.
func (a *app) dial(ctx context.Context) (*client.Client, error) {
	p, err := a.paths()
	if err != nil {
		return nil, err
	}
	c, err := a.dialSocket(ctx, p)
	if errors.Is(err, client.ErrNoHost) {
		return nil, noHostError(p) // cmd_recorded.go
	}
	return c, err
}

// dialSocket dials the host of p (ErrNoHost if none runs) and gives the
// client the CLI's request deadlines.
func (a *app) dialSocket(ctx context.Context, p persist.Paths) (*client.Client, error) {
	c, err := client.Dial(ctx, p.SocketFile())
	if err != nil {
		return nil, err
	}
	return a.withDeadlines(c), nil
}

// withDeadlines gives c the CLI's request deadlines.
func (a *app) withDeadlines(c *client.Client) *client.Client {
	c.SetCallTimeouts(a.deadlines())
	return c
}

// deadlines is the deadline of each request: callTimeout if a test set
// one, else callDeadline.
func (a *app) deadlines() func(proto.Message) time.Duration {
	if a.callTimeout != nil {
		return a.callTimeout
	}
	return func(m proto.Message) time.Duration { return callDeadline(m, a.killGrace) }
}

// killGrace is the grace the host gives a kill or rm with none of its
// own: config.toml's supervisor.kill_grace, read only for them and only
// once a command (every request's deadline and every client of the
// command share it), or the default when the config does not load (nor
// would a host start with it).
func (a *app) killGrace() time.Duration {
	a.grace.once.Do(func() {
		a.grace.d = defaultKillGrace
		if _, cfg, err := a.setup(); err == nil {
			a.grace.d = cfg.Supervisor.KillGrace.Std()
		}
	})
	return a.grace.d
}

// Request deadlines (issue 7 §3): a host that does not answer is reported,
// never waited on forever. They are generous because they only bound
// failure, on machines that may be heavily loaded; connecting and the
// handshake have their own (supervisor.HandshakeTimeout).
const (
	quickCallTimeout = 15 * time.Second // list, status, capture, input, paste, subscribe, ...
	slowCallTimeout  = 60 * time.Second // spawn (it may create a git worktree), host stop --force
	killSlack        = 30 * time.Second // a kill or rm: on top of the ladder's grace
	defaultKillGrace = 3 * time.Second  // the host's default grace (docs/cli.md, kill), if config.toml's is unknown
)

// callDeadline is the deadline of one CLI request; grace is the host's
// kill grace, asked only for a kill without one of its own or a remove.
// Waits without a timeout have none: waiting is what they are for (and
// streams such as log --follow and attach are not requests once
// subscribed).
func callDeadline(m proto.Message, grace func() time.Duration) time.Duration {
	switch r := m.(type) {
	case proto.WaitReq:
		if r.TimeoutMS <= 0 {
			return 0
		}
		return time.Duration(r.TimeoutMS)*time.Millisecond + quickCallTimeout
	case proto.HostStopReq:
		if r.Force { // it kills every pane, with the grace
			return max(slowCallTimeout, grace()+killSlack)
		}
		return slowCallTimeout
	case proto.SpawnReq, proto.UpgradeReq:
		return slowCallTimeout
	case proto.KillReq:
		if r.GraceMS > 0 {
			return time.Duration(r.GraceMS)*time.Millisecond + defaultKillGrace + killSlack
		}
		return grace() + killSlack
	case proto.RemoveReq:
		return grace() + killSlack
	case proto.PasteReq:
		if r.Submit {
			return proto.MaxSubmitHold + proto.FirstSubmitConfirm + proto.DurationMS(r.WaitMS) + quickCallTimeout
		}
	}
	return quickCallTimeout
}

// connect connects to the host, starting one if none runs.
func (a *app) connect(ctx context.Context) (*client.Client, error) {
	p, err := a.paths()
	if err != nil {
		return nil, err
	}
	exe, err := a.exe()
	if err != nil {
		return nil, fmt.Errorf("find the clowder binary to start a host: %w", err)
	}
	c, err := client.Connect(ctx, p, exe)
	if err != nil {
		return nil, err
	}
	return a.withDeadlines(c), nil
}

// oneShot prepares a client of a one-shot command: the CLI's request
// deadlines, and its requests sent again across a host that goes away
// (supervisor/client/retry.go).
func (a *app) oneShot(c *client.Client) {
	a.withDeadlines(c)
	c.RetryAcrossHostLoss()
}

// withClient runs fn with a client from dial (or connect when start is
// set) and closes it afterwards.
func (a *app) withClient(ctx context.Context, start bool, fn func(*client.Client) error) error {
	get := a.dial
	if start {
		get = a.connect
	}
	c, err := get(ctx)
	if err != nil {
		return err
	}
	c.RetryAcrossHostLoss()          // exactly-once across an upgrade (supervisor/client/retry.go)
	defer func() { _ = c.Close() }() // best effort: the work is done
	return fn(c)
}

// exactArgs is cobra.ExactArgs with a usage error that names the operands.
func exactArgs(n int, names string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usagef("%s takes %s (got %d argument%s); see clowder %s --help",
				commandPath(cmd), names, len(args), plural(len(args)), commandPath(cmd))
		}
		return nil
	}
}

// commandPath is the command's words after "clowder" ("host stop"), so
// that a nested command's usage error names a command that exists.
func commandPath(cmd *cobra.Command) string {
	return strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
}

// rangeArgs accepts lo..hi arguments.
func rangeArgs(lo, hi int, names string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < lo || len(args) > hi {
			return usagef("%s takes %s (got %d argument%s); see clowder %s --help",
				commandPath(cmd), names, len(args), plural(len(args)), commandPath(cmd))
		}
		return nil
	}
}

// minArgs accepts at least lo arguments.
func minArgs(lo int, names string) cobra.PositionalArgs {
	return rangeArgs(lo, int(^uint(0)>>1), names)
}

// plural is "s" unless n is 1.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// millis converts a duration flag to protocol milliseconds, refusing
// values out of the protocol's range before anything is sent.
func millis(flag string, d time.Duration) (int64, error) {
	if d < 0 {
		return 0, usagef("--%s %s: a duration cannot be negative", flag, d)
	}
	if max := time.Duration(proto.MaxDurationMS) * time.Millisecond; d > max {
		return 0, usagef("--%s %s: too long; give at most %s (366 days)", flag, d, max)
	}
	ms := d.Milliseconds()
	if d > 0 && ms == 0 {
		ms = 1
	}
	return ms, nil
}

// isNoHost reports whether err says no host is running.
func isNoHost(err error) bool { return errors.Is(err, client.ErrNoHost) }
