package tui

// This file is land and discard in the TUI: the end of the focused pane's
// own git worktree, as `clowder land` and `clowder discard` do it
// (docs/cli.md). Both ask first; the question says when the pane's process
// will be killed, and a yes is what allows it (the CLI's --kill). The
// work runs in a Cmd: kill the pane if it runs, do the git part (panes),
// then remove the pane on the host. A failure keeps the pane and says why.

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"clowder/panes"
	"clowder/persist"
	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

// worktreeTimeout bounds a land or discard: a kill, git (a commit runs the
// repository's hooks) and a remove.
const worktreeTimeout = 2 * time.Minute

// worktreeEndedMsg says a land or discard finished.
type worktreeEndedMsg struct {
	pane, what string // what was done, for the status line
	err        error
}

// confirmLand asks, then lands the focused pane's worktree: its changes
// committed on its branch, the worktree and the pane removed.
func (m *Model) confirmLand() tea.Cmd {
	p, wt, ok := m.focusedWorktree("land")
	if !ok {
		return nil
	}
	q := fmt.Sprintf("land %s: commit its worktree on %s, remove it%s? y/n", p.name(), wt.Branch, killNote(p))
	return m.confirm(q, func(m *Model) tea.Cmd {
		return m.endWorktreeCmd(p, "landed on "+wt.Branch, func(ctx context.Context) error {
			_, err := panes.LandWorktree(ctx, wt, hostName(p))
			return err
		})
	})
}

// confirmDiscard asks, then discards the focused pane's worktree and its
// branch with every change.
func (m *Model) confirmDiscard() tea.Cmd {
	p, wt, ok := m.focusedWorktree("discard")
	if !ok {
		return nil
	}
	q := fmt.Sprintf("discard %s: delete its worktree and branch %s with every change%s? y/n", p.name(), wt.Branch, killNote(p))
	return m.confirm(q, func(m *Model) tea.Cmd {
		return m.endWorktreeCmd(p, "discarded with "+wt.Branch, func(ctx context.Context) error {
			return panes.DiscardWorktree(ctx, wt)
		})
	})
}

// focusedWorktree is the focused pane and its worktree; without one it
// says so on the status line.
func (m *Model) focusedWorktree(verb string) (*pane, persist.Worktree, bool) {
	p := m.focused()
	if p == nil || p.state == panePending {
		return nil, persist.Worktree{}, false
	}
	if p.info.Worktree == nil {
		m.setStatus(fmt.Sprintf("%s: %s has no worktree of its own (it was not started in one)", verb, p.name()), true)
		return nil, persist.Worktree{}, false
	}
	return p, *p.info.Worktree, true
}

// killNote is the question's mention of the kill a running pane needs.
func killNote(p *pane) string {
	if p.state.gone() {
		return " and close the pane"
	}
	return " and kill and close the pane"
}

// hostName is the pane's name on the host (the commit message's), or its id.
func hostName(p *pane) string {
	if p.info.Name != "" {
		return p.info.Name
	}
	return p.id
}

// endWorktreeCmd kills p if it runs, runs git, then removes p on the host.
func (m *Model) endWorktreeCmd(p *pane, what string, git func(context.Context) error) tea.Cmd {
	h, id, name, running := m.host, p.id, p.name(), !p.state.gone()
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), worktreeTimeout)
		defer cancel()
		msg := worktreeEndedMsg{pane: id, what: name + " " + what}
		if running {
			if err := h.Kill(ctx, id); err != nil {
				msg.err = fmt.Errorf("kill %s: %w", name, err)
				return msg
			}
		}
		if err := git(ctx); err != nil {
			msg.err = fmt.Errorf("%s: %w; the pane is kept", name, err)
			return msg
		}
		if err := h.Remove(ctx, id); err != nil {
			msg.err = fmt.Errorf("%s: the worktree is done, but closing the pane failed: %w", name, err)
		}
		return msg
	}
}

// onWorktreeEnded reports a land or discard, and drops the pane it ended.
func (m *Model) onWorktreeEnded(msg worktreeEndedMsg) tea.Cmd {
	if msg.err != nil {
		m.setStatus(msg.err.Error(), true)
		return nil
	}
	m.setStatus(msg.what, false)
	return m.dropPane(msg.pane)
}

// undoWorktree removes the worktree and branch a failed spawn made (err is
// that failure), so the same name can be tried again at once. A spawn
// that lost its connection may have started, so its worktree is kept.
func undoWorktree(ctx context.Context, wt persist.Worktree, err error) error {
	if errors.Is(err, client.ErrConnectionLost) {
		return fmt.Errorf("%w; its worktree %s is kept, as the pane may have started", err, wt.Path)
	}
	if derr := panes.DiscardWorktree(ctx, wt); derr != nil {
		return fmt.Errorf("%w; and removing the worktree it made failed: %v", err, derr)
	}
	return fmt.Errorf("%w; the worktree and branch %s it made are removed", err, wt.Branch)
}

// expandProfile expands the {{templates}} of a profile's args in req's
// argv (panes.Templates); a failure undoes the worktree made for it.
func expandProfile(ctx context.Context, req proto.SpawnReq) (proto.SpawnReq, error) {
	if !panes.HasTemplates(req.Argv) {
		return req, nil
	}
	t := panes.Templates{Name: req.Name, Project: panes.ProjectName(ctx, req.Cwd, req.Worktree)}
	if wt := req.Worktree; wt != nil {
		t.Worktree, t.Branch = wt.Path, wt.Branch
	}
	argv, err := t.Expand(req.Argv)
	if err != nil {
		err = fmt.Errorf("%s: %w", req.Adapter, err)
		if req.Worktree != nil {
			err = undoWorktree(ctx, *req.Worktree, err)
		}
		return req, err
	}
	req.Argv = argv
	return req, nil
}
