package tui

// This file is the host I/O of the TUI: each function returns a tea.Cmd
// that makes one host call (or reads layout.json) on bubbletea's Cmd
// goroutine and returns what happened as a message. None of them touches
// the model.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"

	tea "charm.land/bubbletea/v2"

	"clowder/layout"
	"clowder/panes"
	"clowder/persist"
	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

// Time limits of host calls. A kill waits out the pane's grace period.
const (
	callTimeout = 10 * time.Second
	killTimeout = 60 * time.Second
)

// startMsg carries layout.json and the host's panes, read at start.
type startMsg struct {
	saved *savedLayout
	infos []proto.PaneInfo
	err   error // the host's list failed
	lerr  error // layout.json was unreadable (started fresh)
}

// eventsMsg says the event stream opened (or why not) and, when it was
// opened again after an end, carries the panes as listed right after.
type eventsMsg struct {
	stream Stream
	err    error
	again  bool             // a resubscription: infos lists the panes afresh
	infos  []proto.PaneInfo // listed after the stream opened
	lerr   error            // the list failed
}

// subscribedMsg says a pane's screen stream opened (or why not).
type subscribedMsg struct {
	pane   string
	token  int
	stream Stream
	err    error
}

// placement says where a spawned pane goes in the tree.
type placement struct {
	target  string // the pane to split; "" on an empty tree
	axis    layout.Axis
	side    layout.Side
	replace string // respawn: the pane whose place the new one takes
	pending string // the pending pane standing in for it until the reply (pending.go)
	then    *spawnSpec
	// keepFocus leaves the focus where it was (the first start's companion
	// shell opens beside the agent, which keeps the keyboard).
	keepFocus bool
	// input holds what is typed while the spawn is in flight (the spawn
	// takes the focus); it becomes the pane's input queue.
	input *inputQueue
}

// spawnSpec is a pane to start.
type spawnSpec struct {
	kind     persist.Kind
	adapter  string // agents only
	argv     []string
	cwd      string
	cwdOf    string // a pane whose current directory (if the host knows it) replaces cwd
	name     string
	label    string
	worktree bool
	size     layout.Size
}

// spawnedMsg carries a spawn's result.
type spawnedMsg struct {
	info  proto.PaneInfo
	place placement
	label string
	err   error
}

// resizedMsg says a resize call finished.
type resizedMsg struct {
	pane string
	err  error
}

// doneMsg is the result of a call whose only answer is an error.
type doneMsg struct {
	op  string
	err error
	// undo, if set, runs in Update when the call failed: it puts back
	// what the model changed before the host answered.
	undo func(*Model) tea.Cmd
}

// savedMsg says a layout.json save finished.
type savedMsg struct{ err error }

// historyMsg carries a page of scrollback for copy mode.
type historyMsg struct {
	pane string
	rows *proto.HistoryRows
	err  error
}

// startCmd reads layout.json and lists the host's panes.
func (m *Model) startCmd() tea.Cmd {
	h, path := m.host, m.saver.path
	return func() tea.Msg {
		var msg startMsg
		if path != "" {
			msg.saved, msg.lerr = loadLayout(path)
		}
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		msg.infos, msg.err = h.List(ctx)
		return msg
	}
}

// eventsCmd opens the event stream; again (a resubscription) lists the
// panes right after, so that nothing that happened while no stream was
// open is missed.
func (m *Model) eventsCmd(again bool) tea.Cmd {
	h := m.host
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		s, err := h.Events(ctx)
		msg := eventsMsg{stream: s, err: err, again: again}
		if err == nil && again {
			msg.infos, msg.lerr = h.List(ctx)
		}
		return msg
	}
}

// waitMail waits for the mailbox (mailbox.go), unless the event loop
// takes from it itself (loop.go: one goroutine hop fewer for every frame).
func (m *Model) waitMail() tea.Cmd {
	if m.mailByLoop {
		return nil
	}
	mb := m.mail
	return func() tea.Msg { return mb.wait() }
}

// subscribeCmd opens pane's screen stream; token tells it from others.
func (m *Model) subscribeCmd(pane string, token int, wantFd bool) tea.Cmd {
	h := m.host
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		s, err := h.Subscribe(ctx, pane, wantFd)
		return subscribedMsg{pane: pane, token: token, stream: s, err: err}
	}
}

// spawnCmd creates the worktree if asked, then starts the pane.
func (m *Model) spawnCmd(s spawnSpec, place placement) tea.Cmd {
	h, env, ads, base := m.host, m.opts.Env, m.opts.Adapters, m.opts.Config.WorktreesBase(m.opts.Paths)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		if dir := cwdNow(ctx, h, s.cwdOf); dir != "" {
			s.cwd = dir
		}
		req, err := spawnRequest(ctx, s, env, ads, base)
		if err != nil {
			return spawnedMsg{place: place, err: err}
		}
		r, err := h.Spawn(ctx, req)
		if err != nil && req.Worktree != nil {
			err = undoWorktree(ctx, *req.Worktree, err) // worktrees.go
		}
		return spawnedMsg{info: r.Pane, place: place, label: s.label, err: err}
	}
}

// cwdNow asks the host where pane is now ("" if unknown or no pane).
func cwdNow(ctx context.Context, h Host, pane string) string {
	if pane == "" {
		return ""
	}
	infos, err := h.List(ctx)
	if err != nil {
		return ""
	}
	for _, in := range infos {
		if in.ID == pane {
			return in.CwdNow
		}
	}
	return ""
}

// spawnRequest builds the host's request for s.
func spawnRequest(ctx context.Context, s spawnSpec, env []string, ads *panes.Adapters, wtBase string) (proto.SpawnReq, error) {
	sz := s.size
	if sz != (layout.Size{}) { // none: the host's default
		sz = paneSize(sz)
	}
	req := proto.SpawnReq{Nonce: nonce(), Argv: s.argv, Name: s.name, Kind: s.kind.String(),
		Adapter: s.adapter, Cwd: s.cwd, Env: env, Cols: uint16(sz.W), Rows: uint16(sz.H)}
	if s.kind == persist.KindAgent && s.adapter != "" {
		ad, err := ads.Get(s.adapter)
		if err != nil {
			return req, err
		}
		if len(req.Argv) == 0 {
			req.Argv = ad.Argv()
		}
		for k, v := range ad.Env {
			req.Env = append(req.Env, k+"="+v)
		}
	}
	if s.worktree {
		wt, err := panes.CreateWorktree(ctx, panes.WorktreeRequest{Dir: s.cwd, Name: s.name, Root: wtBase})
		if err != nil {
			return req, err
		}
		req.Worktree = &wt
		if req.Cwd, err = panes.WorktreeCwd(ctx, s.cwd, wt); err != nil {
			return req, undoWorktree(ctx, wt, err)
		}
	}
	if s.kind != persist.KindAgent {
		return req, nil // a shell's or a command's argv is the user's own, never a template
	}
	return expandProfile(ctx, req) // worktrees.go
}

// nonce makes spawns idempotent on the host.
func nonce() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b) // never fails (crypto/rand panics instead)
	return hex.EncodeToString(b)
}

// resizeCmd sets a pane's size on the master dup the TUI holds, so the
// program gets SIGWINCH at once, and on the host, so its screen follows
// even if the program draws nothing (the same size twice is no second
// SIGWINCH).
func (m *Model) resizeCmd(pane string, sz layout.Size) tea.Cmd {
	h := m.host
	var master *client.Master
	if p := m.panes[pane]; p != nil && p.master != nil {
		// A dup of its own: Update may close the pane's master while the
		// Cmd runs, and the number could then name another file.
		master = dupMaster(p.master)
	}
	return func() tea.Msg {
		if master != nil {
			_ = client.SetTermSize(master, sz.W, sz.H) // best effort: the host call below sets it too
			_ = master.Close()
		}
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		return resizedMsg{pane: pane, err: h.Resize(ctx, pane, uint16(sz.W), uint16(sz.H))}
	}
}

// callCmd runs one host call whose answer is only an error.
func (m *Model) callCmd(op string, timeout time.Duration, call func(context.Context, Host) error) tea.Cmd {
	h := m.host
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		return doneMsg{op: op, err: call(ctx, h)}
	}
}

// historyCmd fetches count scrollback lines before line end (or the last
// count if end is 0 and fromEnd).
func (m *Model) historyCmd(pane string, from uint64, count int, fromEnd bool) tea.Cmd {
	h := m.host
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		rows, err := h.History(ctx, proto.HistoryReq{Pane: pane, From: from, Count: count, FromEnd: fromEnd})
		return historyMsg{pane: pane, rows: rows, err: err}
	}
}

// saveCmd writes layout.json now (structure changes and drag ends).
func (m *Model) saveCmd() tea.Cmd {
	if m.saver.path == "" || !m.started {
		return nil
	}
	doc, err := encodeLayout(m.tree, m.panes)
	if err != nil {
		return func() tea.Msg { return savedMsg{err: err} }
	}
	m.saveSeq++
	seq, s := m.saveSeq, m.saver
	return func() tea.Msg { return savedMsg{err: s.save(seq, doc)} }
}

// dupMaster is a close-on-exec duplicate of f, or nil if it cannot be made.
func dupMaster(f *client.Master) *client.Master {
	d, err := f.Dup()
	if err != nil {
		return nil
	}
	return d
}
