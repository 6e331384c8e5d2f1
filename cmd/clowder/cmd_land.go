package main

// clowder land, discard and rm --worktree: the end of a pane's own git
// worktree (docs/cli.md). The git work is done here, with the panes
// package; the host is only asked for the pane, to kill it and to forget
// it. The order keeps what a failure must not lose: the pane is checked
// first, the worktree changed next, and the pane forgotten last, so a
// failure leaves the pane and (unless git itself removed it) the worktree.
//
// A running pane is refused unless --kill: its agent may be writing to the
// worktree, and a careful user stops it on purpose, not as a side effect.

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"clowder/panes"
	"clowder/persist"
	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

// worktreeEnd is one way of ending a worktree: verb names it in messages
// and finish does the git part, returning what to print.
type worktreeEnd struct {
	verb   string
	finish func(ctx context.Context, wt persist.Worktree, name string) (string, error)
}

var (
	landEnd = worktreeEnd{verb: "land", finish: func(ctx context.Context, wt persist.Worktree, name string) (string, error) {
		_, err := panes.LandWorktree(ctx, wt, name)
		return wt.Branch, err
	}}
	discardEnd = worktreeEnd{verb: "discard", finish: func(ctx context.Context, wt persist.Worktree, _ string) (string, error) {
		return "", panes.DiscardWorktree(ctx, wt)
	}}
	removeEnd = worktreeEnd{verb: "rm --worktree", finish: func(ctx context.Context, wt persist.Worktree, _ string) (string, error) {
		return "", panes.RemoveWorktree(ctx, wt)
	}}
)

func newLand(a *app) *cobra.Command {
	return newEndCommand(a, landEnd, "land PANE [--kill]",
		"commit the pane's worktree as \"clowder: NAME\", remove it and the pane; keep the branch (printed)")
}

func newDiscard(a *app) *cobra.Command {
	return newEndCommand(a, discardEnd, "discard PANE [--kill]",
		"remove the pane, its worktree with every change, and its branch clowder/NAME")
}

// newEndCommand builds land or discard.
func newEndCommand(a *app, end worktreeEnd, use, short string) *cobra.Command {
	var kill bool
	c := &cobra.Command{
		Use:               use,
		Short:             short,
		Args:              usage(exactArgs(1, "one PANE"), paneOperand),
		ValidArgsFunction: completePanes(a),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withRecordedHost(cmd.Context(), args[0], func(c *client.Client) error {
				return a.endWorktree(cmd.Context(), c, args[0], end, kill)
			})
		},
	}
	c.Flags().BoolVar(&kill, "kill", false, "kill the pane first if it runs (without it, a running pane is refused)")
	return c
}

// endWorktree ends the worktree of pane ref the way end says, then
// forgets the pane. kill allows killing a running pane first.
func (a *app) endWorktree(ctx context.Context, c *client.Client, ref string, end worktreeEnd, kill bool) error {
	p, wt, err := paneWorktree(ctx, c, ref, end.verb)
	if err != nil {
		return err
	}
	if err := a.stopForEnd(ctx, c, p, end.verb, kill); err != nil {
		return err
	}
	out, err := end.finish(ctx, wt, paneName(p))
	if err != nil {
		return fmt.Errorf("%s %s: %w; the pane is kept", end.verb, paneName(p), err)
	}
	if err := c.Remove(ctx, p.ID); err != nil {
		return fmt.Errorf("%s %s: the worktree is done, but forgetting the pane failed: %s; run clowder rm %s", end.verb, paneName(p), errorLine(err), p.ID)
	}
	if out != "" {
		_, err = fmt.Fprintln(a.stdout, safe(out))
	}
	return err
}

// rmWorktree is `rm --worktree`: it refuses, before it kills anything, a
// worktree with uncommitted changes; then it kills the pane as rm does,
// removes the worktree (keeping its branch) and forgets the pane.
func (a *app) rmWorktree(ctx context.Context, c *client.Client, ref string) error {
	p, wt, err := paneWorktree(ctx, c, ref, removeEnd.verb)
	if err != nil {
		return err
	}
	if changes, err := panes.Changes(ctx, wt.Path); err == nil && len(changes) > 0 {
		return fmt.Errorf("rm --worktree %s: worktree %s %w; commit them, `clowder land %s` to commit and keep them, or `clowder discard %s` to throw them away",
			paneName(p), wt.Path, panes.ErrDirtyWorktree, p.ID, p.ID)
	}
	return a.endWorktree(ctx, c, p.ID, removeEnd, true)
}

// paneWorktree finds pane ref and its worktree.
func paneWorktree(ctx context.Context, c *client.Client, ref, verb string) (proto.PaneInfo, persist.Worktree, error) {
	list, err := c.List(ctx, ref)
	if err != nil {
		return proto.PaneInfo{}, persist.Worktree{}, err
	}
	if len(list) != 1 {
		return proto.PaneInfo{}, persist.Worktree{}, fmt.Errorf("%s: no pane %q; see clowder ls", verb, ref)
	}
	p := list[0]
	if p.Worktree == nil {
		return p, persist.Worktree{}, fmt.Errorf("%s %s: the pane has no worktree of its own (it was not started with --worktree); use clowder rm", verb, paneName(p))
	}
	return p, *p.Worktree, nil
}

// stopForEnd kills p when it runs and kill allows it; else a running p is
// an error that says what to do. It never kills the pane this command runs
// in: the kill would end the command before its git work.
func (a *app) stopForEnd(ctx context.Context, c *client.Client, p proto.PaneInfo, verb string, kill bool) error {
	if !paneRuns(p) {
		return nil
	}
	if self, _ := a.lookup("CLOWDER_PANE_ID"); self == p.ID {
		return fmt.Errorf("%s %s: this command runs inside that pane; run it from another pane or a terminal", verb, paneName(p))
	}
	if !kill {
		return fmt.Errorf("%s %s: the pane is running; stop it first (clowder kill %s), or pass --kill", verb, paneName(p), p.ID)
	}
	if err := c.Kill(ctx, proto.KillReq{Pane: p.ID}); err != nil {
		return fmt.Errorf("%s %s: kill the pane: %s", verb, paneName(p), errorLine(err))
	}
	return nil
}

// paneRuns reports whether p's process may still be running.
func paneRuns(p proto.PaneInfo) bool {
	switch p.State {
	case persist.StateExited.String(), persist.StateLost.String():
		return false
	}
	return true
}

// paneName is p's name, or its id when it has none; safe for a terminal.
func paneName(p proto.PaneInfo) string {
	if p.Name != "" {
		return safe(p.Name)
	}
	return safe(p.ID)
}
