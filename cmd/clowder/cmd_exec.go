package main

// clowder exec: a foreground run through the host. The child runs in a
// PTY pane tied to this connection (kill_on_disconnect), its output is
// streamed to stdout from seq 0, and clowder exits as the child did: its
// code, 128+N for signal N, 124 on timeout or idle timeout, 130 when
// interrupted (Ctrl-C or SIGTERM kill the whole tree first). If clowder is
// SIGKILLed, the host sees the connection drop and kills the run.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"clowder/persist"
	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

// execOpts are the flags of `clowder exec`.
type execOpts struct {
	watchdogs     watchdogFlags
	timeout, idle time.Duration // effective, for the exit message
	pty           bool
}

func newExec(a *app) *cobra.Command {
	var o execOpts
	c := &cobra.Command{
		Use:   "exec [--timeout D] [--idle-timeout D] [--pty] -- CMD ARGS...",
		Short: "run a command in the foreground through the host; exit with its code (124 on timeout)",
		Long: "Run CMD in a pane tied to this command, stream its output to stdout and exit with its\n" +
			"exit code (128+N if signal N ended it, 124 on --timeout or --idle-timeout, 130 when\n" +
			"interrupted). Ctrl-C, SIGTERM, a timeout or this process dying kill the whole tree.\n" +
			"The run is a PTY; without --pty its CR LF line ends are printed as LF, with --pty the\n" +
			"bytes are passed through untouched. Stdin is not forwarded.",
		Args: usage(minArgs(1, "a CMD to run"), commandOperand),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.watchdogs.mark(cmd)
			return o.run(cmd.Context(), a, args)
		},
	}
	c.Flags().SetInterspersed(false) // flags end at CMD: `exec sh -c ...` needs no --
	o.watchdogs.add(c, "kill the run after D and exit 124 (0 = never, even over config.toml's timeout)",
		"kill the run after D without output and exit 124 (0 = never, even over config.toml's idle_timeout)")
	c.Flags().BoolVar(&o.pty, "pty", false, "pass the terminal output through untouched (CR LF and escapes)")
	return c
}

// run spawns, streams and exits as the child did.
func (o *execOpts) run(parent context.Context, a *app, argv []string) error {
	req, err := o.spawnReq(a, argv)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
	defer stop()
	c, err := a.connect(ctx)
	if err != nil {
		return interrupted(ctx, err)
	}
	defer func() { _ = c.Close() }() // closing also makes the host kill a run still going
	r, tied, err := a.spawnOn(ctx, c, req)
	if tied != nil && tied != c {
		defer func() { _ = tied.Close() }() // as c: the run is tied to this connection
	}
	if err != nil {
		return interrupted(ctx, err)
	}
	res, cur, err := o.stream(ctx, a, tied, req, r.Pane.ID)
	if cur != tied {
		defer func() { _ = cur.Close() }() // best effort, as c
	}
	if ctx.Err() != nil && parent.Err() == nil {
		return o.abort(cur, r.Pane.ID)
	}
	if err != nil {
		return err
	}
	return o.finish(cur, *res.Pane)
}

// spawnReq builds the run's spawn request.
func (o *execOpts) spawnReq(a *app, argv []string) (proto.SpawnReq, error) {
	nonce, err := newNonce()
	if err != nil {
		return proto.SpawnReq{}, err
	}
	cwd, err := absCwd(a, "")
	if err != nil {
		return proto.SpawnReq{}, err
	}
	req := proto.SpawnReq{Nonce: nonce, Argv: argv, Kind: persist.KindRun.String(), Cwd: cwd,
		Env: a.environ(), KillOnDisconnect: true}
	_, cfg, err := a.setup()
	if err != nil {
		return req, err
	}
	o.timeout, o.idle = o.watchdogs.effective(cfg)
	return req, o.watchdogs.apply(&req)
}

// stream copies the run's output to stdout until it has exited, across
// host upgrades (followResuming); it returns the client it ended on. On
// each new connection it sends the run's spawn again, which returns the
// same run and ties it to that connection: the old one's end (an
// upgrade) left the run untied, and this process dying after it killed
// nothing.
func (o *execOpts) stream(ctx context.Context, a *app, c *client.Client, req proto.SpawnReq, id string) (client.ReadResult, *client.Client, error) {
	var nl client.NewlineFilter
	var buf []byte
	tie := func(c *client.Client) error {
		r, err := c.Spawn(ctx, req)
		if err == nil && r.Pane.ID != id {
			err = fmt.Errorf("the host answered the run's spawn with pane %s, not %s; see clowder ls", r.Pane.ID, id)
		}
		return err
	}
	res, cur, err := followResuming(ctx, a, c, id, 0, tie, func(ch *proto.OutputChunk) error {
		data := ch.Data
		if !o.pty {
			buf = nl.Append(buf[:0], data)
			data = buf
		}
		_, err := a.stdout.Write(data)
		return err
	})
	if err == nil && !o.pty {
		_, err = a.stdout.Write(nl.Flush(nil))
	}
	if err == nil && res.Pane == nil {
		err = errors.New("the run's output ended before its exit was reported")
	}
	return res, cur, err
}

// finish removes the finished run and exits with its status.
func (o *execOpts) finish(c *client.Client, info proto.PaneInfo) error {
	ctx, cancel := background(5 * time.Second)
	defer cancel()
	_ = c.Remove(ctx, info.ID) // best effort: a finished run left listed is harmless
	code := client.ExitStatus(info)
	switch {
	case code == 0:
		return nil
	case info.ExitReason == "timeout":
		return exitError{code, fmt.Sprintf("timed out after %s; the run's process tree was killed", o.timeout)}
	case info.ExitReason == "idle-timeout":
		return exitError{code, fmt.Sprintf("no output for %s; the run's process tree was killed", o.idle)}
	}
	return exitError{code: code} // the child's own failure: no message, as a shell
}

// abort kills and forgets the run after Ctrl-C or SIGTERM, and exits 130.
func (o *execOpts) abort(c *client.Client, id string) error {
	ctx, cancel := background(30 * time.Second)
	defer cancel()
	if err := c.Remove(ctx, id); err != nil {
		return exitError{client.ExitStatusInterrupt, "interrupted; removing the run failed: " + errorLine(err)}
	}
	return exitError{code: client.ExitStatusInterrupt}
}

// interrupted maps an error caused by Ctrl-C to exit 130; the host kills
// a half-started run when this connection closes.
func interrupted(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return exitError{code: client.ExitStatusInterrupt}
	}
	return err
}
