package main

// clowder wait, kill and rm.

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

// waitOpts are the flags of `clowder wait`.
type waitOpts struct {
	exit, needsInput, json bool
	idle, timeout          time.Duration
	text                   string
}

func newWait(a *app) *cobra.Command {
	var o waitOpts
	c := &cobra.Command{
		Use:   "wait PANE [--exit] [--idle D] [--needs-input] [--text RE] [--timeout D]",
		Short: "wait until the pane exits, goes quiet, needs input or shows text (default --exit)",
		Long: "Wait until the first of the given conditions holds (default: --exit). Exits 0 when\n" +
			"one is met, 1 with a message on --timeout. --text is a Go regexp matched against\n" +
			"the screen.",
		Args:              usage(exactArgs(1, "one PANE"), paneOperand, nonEmpty("text"), positive("idle")),
		ValidArgsFunction: completePanes(a),
		RunE: func(cmd *cobra.Command, args []string) error {
			req, err := o.request(args[0])
			if err != nil {
				return err
			}
			return a.withClient(cmd.Context(), false, func(c *client.Client) error {
				r, err := c.Wait(cmd.Context(), req)
				if errors.Is(err, &proto.ErrorReply{Code: proto.CodeTimeout}) {
					return fmt.Errorf("timed out after %s waiting for pane %s to %s", o.timeout, args[0], o.describe())
				}
				if err != nil {
					return err
				}
				if o.json {
					return writeJSON(a, r)
				}
				_, err = fmt.Fprintln(a.stdout, metLine(r))
				return err
			})
		},
	}
	f := c.Flags()
	f.BoolVar(&o.exit, "exit", false, "until the pane's process exits")
	f.DurationVar(&o.idle, "idle", 0, "until the pane has written nothing for D")
	f.BoolVar(&o.needsInput, "needs-input", false, "until the pane waits for input (its attention state)")
	f.StringVar(&o.text, "text", "", "until the screen matches the regexp RE")
	f.DurationVar(&o.timeout, "timeout", 0, "give up after D (exit 1); 0 waits for ever")
	f.BoolVar(&o.json, "json", false, "print {met, match, pane} as JSON")
	return c
}

// request builds the wait request, checking the flags.
func (o *waitOpts) request(pane string) (proto.WaitReq, error) {
	if err := checkText(o.text); err != nil {
		return proto.WaitReq{}, err
	}
	req := proto.WaitReq{Pane: pane, Exit: o.exit, NeedsInput: o.needsInput, Text: o.text}
	var err error
	if req.IdleMS, err = millis("idle", o.idle); err != nil {
		return req, err
	}
	if req.TimeoutMS, err = millis("timeout", o.timeout); err != nil {
		return req, err
	}
	if !req.Exit && req.IdleMS == 0 && !req.NeedsInput && req.Text == "" {
		req.Exit, o.exit = true, true
	}
	return req, nil
}

// checkText checks --text as a regexp within the host's limit; the error
// names the regexp's fault, not the regexp again whole.
func checkText(text string) error {
	if len(text) > proto.MaxWaitTextLen {
		return usagef("--text %s is too long: at most %d bytes", clip(text), proto.MaxWaitTextLen)
	}
	_, err := regexp.Compile(text)
	var se *syntax.Error
	if errors.As(err, &se) {
		return usagef("--text %s is not a valid regexp: %s at %s", clip(text), se.Code, clip(se.Expr))
	}
	if err != nil {
		return usagef("--text %s is not a valid regexp", clip(text))
	}
	return nil
}

// describe names the awaited conditions for the timeout message.
func (o *waitOpts) describe() string {
	var parts []string
	if o.exit {
		parts = append(parts, "exit")
	}
	if o.idle > 0 {
		parts = append(parts, "go quiet for "+o.idle.String())
	}
	if o.needsInput {
		parts = append(parts, "need input")
	}
	if o.text != "" {
		parts = append(parts, fmt.Sprintf("show %q", o.text))
	}
	return strings.Join(parts, " or ")
}

// metLine says which condition was met.
func metLine(r proto.WaitDoneReply) string {
	s := r.Pane.ID + " " + r.Met
	if r.Match != "" {
		s += " " + fmt.Sprintf("%q", r.Match)
	}
	if r.Met == "exit" {
		s += " " + exitColumn(r.Pane)
	}
	return s
}

func newKill(a *app) *cobra.Command {
	var sig string
	var grace time.Duration
	c := &cobra.Command{
		Use:               "kill PANE [--signal S] [--grace D]",
		Short:             "kill the pane's whole process tree (signal, grace, then SIGKILL)",
		Args:              usage(exactArgs(1, "one PANE"), paneOperand, nonEmpty("signal"), signalFlag, positive("grace")),
		ValidArgsFunction: completePanes(a),
		RunE: func(cmd *cobra.Command, args []string) error {
			ms, err := millis("grace", grace)
			if err != nil {
				return err
			}
			req := proto.KillReq{Pane: args[0], Signal: sig, GraceMS: ms}
			return a.withClient(cmd.Context(), false, func(c *client.Client) error {
				return killVerified(cmd.Context(), c, req)
			})
		},
	}
	c.Flags().StringVar(&sig, "signal", "", "first signal to send (e.g. INT, TERM; default HUP then TERM)")
	c.Flags().DurationVar(&grace, "grace", 0, "time to wait before SIGKILL (default 3s)")
	return c
}

// killVerified kills a running pane by its leader's identity (pid, start
// time, boot id), so that the kill may be sent again, and is, if the host
// dies under it: the next host refuses it if the pid now names another
// process (supervisor/client/retry.go). A pane not running (lost with
// survivors, orphaned) is killed by reference, as before.
func killVerified(ctx context.Context, c *client.Client, req proto.KillReq) error {
	info, err := onePane(ctx, c, req.Pane)
	if err != nil {
		return err
	}
	if info.State == "running" && info.Pid > 0 && info.BootID != "" {
		req.Pane, req.Pid, req.PidStart, req.BootID = info.ID, info.Pid, info.PidStart, info.BootID
	}
	return c.Kill(ctx, req)
}

func newRm(a *app) *cobra.Command {
	var worktree bool
	c := &cobra.Command{
		Use:               "rm PANE [--worktree]",
		Short:             "kill the pane if it runs, then forget it (--worktree: and remove its clean worktree)",
		Args:              usage(exactArgs(1, "one PANE"), paneOperand),
		ValidArgsFunction: completePanes(a),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withRecordedHost(cmd.Context(), args[0], func(c *client.Client) error {
				if worktree {
					return a.rmWorktree(cmd.Context(), c, args[0]) // cmd_land.go
				}
				return c.Remove(cmd.Context(), args[0])
			})
		},
	}
	c.Flags().BoolVar(&worktree, "worktree", false, "also remove the pane's worktree, keeping its branch; refused if it has uncommitted changes")
	return c
}

// newRename is `clowder rename PANE NAME`.
func newRename(a *app) *cobra.Command {
	return &cobra.Command{
		Use:               "rename PANE NAME",
		Short:             "give a pane a new unique name",
		Args:              usage(exactArgs(2, "PANE and NAME"), paneOperand, nameOperand),
		ValidArgsFunction: completePanes(a),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withRecordedHost(cmd.Context(), args[0], func(c *client.Client) error {
				return c.Rename(cmd.Context(), args[0], args[1])
			})
		},
	}
}

// background is a context for cleanup that must outlive a cancelled one.
func background(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d)
}
