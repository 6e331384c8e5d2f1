package main

// clowder new: start a pane and print its id.

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"clowder/panes"
	"clowder/persist"
	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

// newOpts are the flags of `clowder new`.
type newOpts struct {
	name, agent, cwd, size string
	shell, worktree, json  bool
	allowSecret            bool
	watchdogs              watchdogFlags
	templated              int // how many words of the argv are the adapter's, whose templates are expanded
}

// watchdogFlags are --timeout and --idle-timeout of new and exec. An
// explicit 0 means none, even where config.toml sets a default; an absent
// flag takes that default.
type watchdogFlags struct {
	timeout, idle       time.Duration
	timeoutSet, idleSet bool
}

// add declares the flags on c.
func (w *watchdogFlags) add(c *cobra.Command, timeoutHelp, idleHelp string) {
	c.Flags().DurationVar(&w.timeout, "timeout", 0, timeoutHelp)
	c.Flags().DurationVar(&w.idle, "idle-timeout", 0, idleHelp)
}

// mark notes which flags the command line set.
func (w *watchdogFlags) mark(c *cobra.Command) {
	w.timeoutSet, w.idleSet = c.Flags().Changed("timeout"), c.Flags().Changed("idle-timeout")
}

// apply puts the watchdogs in req: an explicit 0 as "none".
func (w *watchdogFlags) apply(req *proto.SpawnReq) (err error) {
	if req.TimeoutMS, err = millis("timeout", w.timeout); err != nil {
		return err
	}
	if req.IdleTimeoutMS, err = millis("idle-timeout", w.idle); err != nil {
		return err
	}
	req.NoTimeout = w.timeoutSet && req.TimeoutMS == 0
	req.NoIdleTimeout = w.idleSet && req.IdleTimeoutMS == 0
	return nil
}

// effective are the watchdogs the host applies: the flags, else cfg's
// defaults.
func (w *watchdogFlags) effective(cfg persist.Config) (timeout, idle time.Duration) {
	timeout, idle = w.timeout, w.idle
	if !w.timeoutSet {
		timeout = cfg.Supervisor.Timeout.Std()
	}
	if !w.idleSet {
		idle = cfg.Supervisor.IdleTimeout.Std()
	}
	return timeout, idle
}

func newNew(a *app) *cobra.Command {
	var o newOpts
	c := &cobra.Command{
		Use:   "new [--name N] [--agent ADAPTER | --shell] [--cwd DIR] [--worktree] [--size COLSxROWS] [--timeout D] [--idle-timeout D] [-- CMD ARGS...]",
		Short: "start a pane (agent, shell or command) and print its id",
		Long: "Start a pane in the host (starting the host if none runs) and print its id.\n" +
			"With --agent the adapter's command runs, with any CMD ARGS appended; with --shell\n" +
			"(the default without a command) your $SHELL, or with one SCRIPT after --,\n" +
			"$SHELL -c SCRIPT; otherwise CMD ARGS.",
		Args: usage(cobra.ArbitraryArgs, nonEmpty("name", "agent", "cwd", "size"), nameFlag, spawnFlags, commandOperand),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.watchdogs.mark(cmd)
			req, err := o.spawnReq(cmd.Context(), a, args)
			if err != nil {
				return err
			}
			err = a.withClient(cmd.Context(), true, func(c *client.Client) error {
				r, err := a.spawnRetry(cmd.Context(), c, req)
				if err != nil {
					return err
				}
				return printPane(a, r.Pane, o.json)
			})
			return undoWorktree(req.Worktree, err)
		},
	}
	f := c.Flags()
	f.SetInterspersed(false) // flags end at CMD: `new sh -c ...` needs no --
	f.StringVar(&o.name, "name", "", "pane name (letters, digits, - _ .); default: chosen by the host")
	f.StringVar(&o.agent, "agent", "", "agent adapter or profile to run: claude, codex, gemini, aider, or an [agents] or [profiles] name from config.toml")
	_ = c.RegisterFlagCompletionFunc("agent", completeAgents(a)) // fails only for an unknown flag
	f.BoolVar(&o.shell, "shell", false, "run your login shell ($SHELL); with -- SCRIPT, $SHELL -c SCRIPT")
	f.StringVar(&o.cwd, "cwd", "", "working directory (default: the current one)")
	f.BoolVar(&o.worktree, "worktree", false, "run in a new git worktree of the repository at --cwd, on branch clowder/NAME (needs --name)")
	f.StringVar(&o.size, "size", "", "initial size COLSxROWS (default 80x24 until a client shows it)")
	o.watchdogs.add(c, "kill the pane after this long (e.g. 30m; 0 = never, even over config.toml's timeout)",
		"kill the pane after this long without output (0 = never, even over config.toml's idle_timeout)")
	f.BoolVar(&o.allowSecret, "allow-secret-args", false, "allow credentials in the command line (redacted on disk; the pane cannot be resumed)")
	f.BoolVar(&o.json, "json", false, "print the new pane as JSON")
	return c
}

// spawnReq turns the flags and command line into a spawn request.
func (o *newOpts) spawnReq(ctx context.Context, a *app, args []string) (proto.SpawnReq, error) {
	if o.agent != "" && o.shell {
		return proto.SpawnReq{}, usagef("--agent and --shell exclude each other; give one")
	}
	p, cfg, err := a.setup()
	if err != nil {
		return proto.SpawnReq{}, err
	}
	req := proto.SpawnReq{Name: o.name, AllowSecretArgs: o.allowSecret, Env: a.environ()}
	if err := o.command(&req, cfg, a, args); err != nil {
		return req, err
	}
	if err := o.common(&req, a); err != nil {
		return req, err
	}
	if err := o.expandTemplates(ctx, &req, true); err != nil {
		return req, err
	}
	if o.worktree {
		wt, err := o.makeWorktree(ctx, req.Cwd, cfg.WorktreesBase(p))
		if err != nil {
			return req, err
		}
		req.Worktree = &wt
		if req.Cwd, err = panes.WorktreeCwd(ctx, req.Cwd, wt); err != nil {
			return req, undoWorktree(&wt, err)
		}
	}
	if err := o.expandTemplates(ctx, &req, false); err != nil {
		return req, undoWorktree(req.Worktree, err)
	}
	return req, nil
}

// expandTemplates expands the {{templates}} of the adapter's words of
// req's argv (a profile's args). A dry run, before the worktree is made,
// only checks that each has a value, so that nothing is made for a
// request that must fail.
func (o *newOpts) expandTemplates(ctx context.Context, req *proto.SpawnReq, dry bool) error {
	words := req.Argv[:o.templated]
	if !panes.HasTemplates(words) {
		return nil
	}
	pending := ""
	if dry {
		pending = "(worktree)"
	}
	expanded, err := o.templates(ctx, *req, pending).Expand(words)
	if err != nil {
		return usagef("--agent %s: %v", o.agent, err)
	}
	if !dry {
		copy(req.Argv, expanded)
	}
	return nil
}

// templates are the values of a profile's {{tokens}} for req; before the
// worktree is made, its path and branch are stood in for by pending.
func (o *newOpts) templates(ctx context.Context, req proto.SpawnReq, pending string) panes.Templates {
	t := panes.Templates{Name: o.name, Project: panes.ProjectName(ctx, req.Cwd, req.Worktree)}
	if o.worktree {
		t.Worktree, t.Branch = pending, pending
	}
	if wt := req.Worktree; wt != nil {
		t.Worktree, t.Branch = wt.Path, wt.Branch
	}
	return t
}

// undoWorktree removes the worktree and branch a failed `new` made (err
// is that failure), so that the same name can be tried again at once. A
// lost connection is the exception: the host may have started the pane,
// which then runs in the worktree, so it is kept and the error says so.
func undoWorktree(wt *persist.Worktree, err error) error {
	if err == nil || wt == nil {
		return err
	}
	if errors.Is(err, client.ErrConnectionLost) {
		return fmt.Errorf("%s; the worktree %s (branch %s) is kept, as the pane may have started: see clowder ls", errorLine(err), wt.Path, wt.Branch)
	}
	ctx, cancel := background(slowCallTimeout)
	defer cancel()
	if derr := panes.DiscardWorktree(ctx, *wt); derr != nil {
		return fmt.Errorf("%s; and removing the worktree it made failed: %v", errorLine(err), derr)
	}
	// errorLine: the host's message, which the one line shown would
	// otherwise keep alone, dropping what was done about the worktree.
	return fmt.Errorf("%s; the worktree and branch %s it made are removed", errorLine(err), wt.Branch)
}

// command fills argv, kind and adapter from --agent, --shell or CMD ARGS.
func (o *newOpts) command(req *proto.SpawnReq, cfg persist.Config, a *app, args []string) error {
	shell, _ := a.lookup("SHELL")
	ads := panes.NewAdaptersFromConfig(cfg, shell)
	name := o.agent
	switch {
	case o.shell && len(args) > 0:
		return shellScript(req, ads, "--shell", args)
	case o.agent == panes.AdapterShell && len(args) > 0:
		// the shell adapter by name takes a SCRIPT as --shell does: given
		// to the shell as its argument, it would be read as a file
		return shellScript(req, ads, "--agent shell", args)
	case o.shell || (o.agent == "" && len(args) == 0):
		name = panes.AdapterShell
	case o.agent == "":
		req.Argv, req.Kind = args, persist.KindRun.String()
		return nil
	}
	ad, err := ads.Get(name)
	if err != nil {
		return usageError{err}
	}
	if len(ad.Command) == 0 {
		return fmt.Errorf("adapter %s has no command; set [agents.%s] command in config.toml", name, name)
	}
	if o.agent != "" {
		if err := panes.CheckInstalled(ad); err != nil {
			return err
		}
		req.Adapter = ad.Name
	}
	req.Argv, o.templated = append(ad.Argv(), args...), len(ad.Command)
	req.Kind = ad.Kind.String()
	for k, v := range ad.Env {
		req.Env = append(req.Env, k+"="+v)
	}
	return nil
}

// shellScript runs `--shell -- SCRIPT` as `$SHELL -c SCRIPT`, a command
// pane: the shell's own argument is a script file, so `bash ls` would
// read a file named ls. It takes one word: joining several would lose
// their quoting (`ls 'a b'`), so that is refused, showing the one word.
// flag is how the shell was asked for (--shell, --agent shell).
func shellScript(req *proto.SpawnReq, ads *panes.Adapters, flag string, args []string) error {
	words := strings.Join(args, " ")
	switch {
	case strings.HasPrefix(args[0], "-"):
		return usagef("%s -- %s: a SCRIPT cannot start with '-'; to give the shell options, run it as a command: clowder new -- \"$SHELL\" %s", flag, cut(words), cut(words))
	case len(args) > 1:
		return usagef("%s runs one SCRIPT with $SHELL -c, not %d words; quote them as one: clowder new %s -- %s (or, with no shell, clowder new -- %s)", flag, len(args), flag, cut(shellQuote(words)), cut(words))
	}
	ad, err := ads.Get(panes.AdapterShell)
	if err != nil {
		return err
	}
	req.Argv, req.Kind = append(ad.Argv(), "-c", args[0]), persist.KindRun.String()
	return nil
}

// shellQuote quotes s as one word for a POSIX shell.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// common fills the fields every spawn has: nonce, cwd, size, watchdogs.
func (o *newOpts) common(req *proto.SpawnReq, a *app) error {
	nonce, err := newNonce()
	if err != nil {
		return err
	}
	req.Nonce = nonce
	if req.Cwd, err = absCwd(a, o.cwd); err != nil {
		return err
	}
	if o.size != "" {
		sz, err := panes.ParseSize(o.size)
		if err != nil {
			return usagef("--size: %v", err)
		}
		req.Cols, req.Rows = uint16(sz.Cols), uint16(sz.Rows)
	}
	return o.watchdogs.apply(req)
}

// makeWorktree creates the pane's worktree.
func (o *newOpts) makeWorktree(ctx context.Context, dir, root string) (persist.Worktree, error) {
	if o.name == "" {
		return persist.Worktree{}, usagef("--worktree needs --name: the name is the worktree's directory and its branch clowder/NAME")
	}
	return panes.CreateWorktree(ctx, panes.WorktreeRequest{Dir: dir, Name: o.name, Root: root})
}

// absCwd is dir made absolute, or the current directory.
func absCwd(a *app, dir string) (string, error) {
	wd, err := a.getwd()
	if err != nil {
		return "", fmt.Errorf("find the current directory: %w", err)
	}
	if dir == "" {
		return wd, nil
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(wd, dir)
	}
	return filepath.Clean(dir), nil
}

// newNonce is a random spawn idempotency key.
func newNonce() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("make a spawn nonce: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// spawnRetry spawns, and if the connection breaks under the call,
// reconnects (starting a host if none runs) and sends the same request
// until a host answers: its nonce makes the host return the pane the
// first attempt made, if it made one, even after a host crash (the nonce
// is in agents.json). So a failure has started nothing, or says where to
// look.
func (a *app) spawnRetry(ctx context.Context, c *client.Client, req proto.SpawnReq) (proto.SpawnedReply, error) {
	r, answered, err := a.spawnOn(ctx, c, req)
	if answered != nil && answered != c {
		_ = answered.Close() // best effort: the spawn is done
	}
	return r, err
}

// spawnOn is spawnRetry that also returns the connection that answered:
// c, or a new one for the caller to close. A run tied to its client
// (kill_on_disconnect) is tied to that connection.
func (a *app) spawnOn(ctx context.Context, c *client.Client, req proto.SpawnReq) (proto.SpawnedReply, *client.Client, error) {
	r, err := c.Spawn(ctx, req)
	if !errors.Is(err, client.ErrConnectionLost) {
		return r, c, err
	}
	first := err
	for wait := 50 * time.Millisecond; wait < 3*time.Second; wait *= 2 {
		nc, cerr := a.connect(ctx)
		if cerr == nil {
			r, err = nc.Spawn(ctx, req)
			if !errors.Is(err, client.ErrConnectionLost) {
				return r, nc, err
			}
			_ = nc.Close() // best effort: lost already
		} else {
			err = cerr
		}
		select { // a host that was dying as we reconnected: give the next one time to start
		case <-ctx.Done():
			return r, nil, ctx.Err()
		case <-time.After(wait):
		}
	}
	return r, nil, fmt.Errorf("%w (and retrying failed: %v); the host may have started the pane before it stopped: see clowder ls", first, err)
}

// printPane prints a pane's id, or the pane as JSON.
func printPane(a *app, p proto.PaneInfo, asJSON bool) error {
	if asJSON {
		return writeJSON(a, p)
	}
	_, err := fmt.Fprintln(a.stdout, p.ID)
	return err
}

// writeJSON prints v as indented JSON, with DEL and the C1 controls
// escaped too: encoding/json leaves them raw, and a pane's name or title
// could then reach the user's terminal as a control sequence (CSI is
// U+009B).
func writeJSON(a *app, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := a.stdout.Write(escapeControls(buf.Bytes()))
	return err
}

// escapeControls rewrites DEL and U+0080..U+009F in encoded JSON as \u
// escapes. Both occur only inside strings, and their UTF-8 bytes (0x7F;
// 0xC2 0x80..0x9F) are never part of another character.
func escapeControls(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == 0x7f:
			out = append(out, `\u007f`...)
		case b[i] == 0xc2 && i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] <= 0x9f:
			out = fmt.Appendf(out, `\u%04x`, b[i+1])
			i++
		default:
			out = append(out, b[i])
		}
	}
	return out
}
