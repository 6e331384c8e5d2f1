package tui

// This file runs the actions of the keymap. Each is a small method; the
// ones that ask something first open a prompt (prompt.go).

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"clowder/layout"
	"clowder/persist"
	"clowder/supervisor/proto"
)

// resizeStep is how many cells one resize key moves a border.
const resizeStep = 2

// run performs action a; k is the key that chose it (for focus-number).
func (m *Model) run(a Action, k tea.KeyPressMsg) tea.Cmd {
	m.dirty = true
	switch a {
	case ActSplitRight:
		return m.split(layout.Horizontal)
	case ActSplitDown:
		return m.split(layout.Vertical)
	case ActNewShell:
		_, axis := m.splitAxisOfFocus()
		return m.split(axis)
	case ActNewAgent:
		return m.openAgentPrompt()
	case ActClose:
		return m.closeFocused()
	case ActKill:
		return m.confirmKill()
	case ActRespawn:
		return m.respawn(m.focused())
	case ActLand:
		return m.confirmLand() // worktrees.go
	case ActDiscard:
		return m.confirmDiscard()
	case ActRename:
		return m.openRename()
	case ActSendKeys:
		return m.openSendKeys()
	case ActZoom:
		return m.toggleZoom()
	case ActCopyMode:
		return m.enterCopy(k)
	case ActPaste:
		return m.pasteClipboard()
	case ActHelp:
		m.help = m.help.show()
		return nil
	case ActDetach:
		return m.quitSafely(true)
	case ActKillAll:
		return m.confirmKillAll()
	}
	return m.runLayout(a, k)
}

// runLayout performs the actions that move focus or change the layout.
func (m *Model) runLayout(a Action, k tea.KeyPressMsg) tea.Cmd {
	switch a {
	case ActFocusLeft:
		return m.focusDir(layout.Left)
	case ActFocusRight:
		return m.focusDir(layout.Right)
	case ActFocusUp:
		return m.focusDir(layout.Up)
	case ActFocusDown:
		return m.focusDir(layout.Down)
	case ActFocusNext:
		return m.focusOffset(1)
	case ActFocusNumber:
		return m.focusNumber(k.String())
	case ActNextAttention:
		return m.nextAttention()
	case ActResizeLeft:
		return m.resize(layout.Left)
	case ActResizeRight:
		return m.resize(layout.Right)
	case ActResizeUp:
		return m.resize(layout.Up)
	case ActResizeDown:
		return m.resize(layout.Down)
	case ActSwapNext:
		return m.swap(1)
	case ActSwapPrev:
		return m.swap(-1)
	case ActNextPreset:
		return m.nextPreset()
	}
	return nil
}

// splitAxisOfFocus is the axis that cuts the focused pane across its
// longer side (a cell counts as twice as tall as wide).
func (m *Model) splitAxisOfFocus() (layout.Rect, layout.Axis) {
	r, _ := m.geometry().Pane(m.tree.Focus())
	if r.W > 2*r.H {
		return r, layout.Horizontal
	}
	return r, layout.Vertical
}

// split starts a shell beside the focused pane, in the directory that pane
// is in now (where it started if the host cannot tell).
func (m *Model) split(axis layout.Axis) tea.Cmd {
	dir := m.opts.Cwd
	if p := m.focused(); p != nil && p.meta.Cwd != "" {
		dir = p.meta.Cwd
	}
	s := m.shellSpec(dir)
	s.cwdOf = m.tree.Focus()
	return m.spawn(s, placement{target: m.tree.Focus(), axis: axis, side: layout.After})
}

// closeFocused closes the focused pane: a running one after confirmation
// (it is removed on the host, which kills it); an exited or missing one at
// once.
func (m *Model) closeFocused() tea.Cmd {
	p := m.focused()
	if p == nil {
		return nil
	}
	if p.state.gone() || p.state == panePending {
		return m.removePane(p)
	}
	return m.confirm(fmt.Sprintf("close %s (its process is killed)? y/n", p.name()), func(m *Model) tea.Cmd {
		return m.removePane(p)
	})
}

// removePane forgets p here and on the host.
func (m *Model) removePane(p *pane) tea.Cmd {
	id := p.id
	cmd := m.dropPane(id)
	if p.state == paneMissing || p.state == panePending {
		return cmd
	}
	return tea.Batch(cmd, m.callCmd("close "+p.name(), killTimeout, func(ctx context.Context, h Host) error {
		return h.Remove(ctx, id)
	}))
}

// confirmKill kills the focused pane's process tree after confirmation;
// the pane stays, shown as exited.
func (m *Model) confirmKill() tea.Cmd {
	p := m.focused()
	if p == nil || p.state.gone() || p.state == panePending {
		return nil
	}
	id := p.id
	return m.confirm(fmt.Sprintf("kill %s? y/n", p.name()), func(m *Model) tea.Cmd {
		return m.callCmd("kill "+p.name(), killTimeout, func(ctx context.Context, h Host) error { return h.Kill(ctx, id) })
	})
}

// respawn starts the focused pane's process again in its place. A pane
// the host has (exited, lost, or an orphan whose process ended) is
// respawned by the host under the same id and name (respawnInPlace); an
// orphan that still runs is killed first, once the user says so. A pane
// the host no longer has (missing) is spawned anew in its place: the same
// argv and cwd, an agent through its adapter's "continue".
func (m *Model) respawn(p *pane) tea.Cmd {
	switch {
	case p == nil || p.state == panePending:
		return nil
	case p.state == paneMissing:
		return m.respawnMissing(p)
	case p.info.State == "orphaned":
		return m.confirm(fmt.Sprintf("%s still runs, outside this host; kill it first? y/n", p.name()), func(m *Model) tea.Cmd {
			return m.respawnInPlace(p, true)
		})
	case p.state.gone():
		return m.respawnInPlace(p, false)
	}
	m.setStatus(fmt.Sprintf("%s is running; kill it first (%s %s)", p.name(), m.km.Prefix.Help().Key, firstKey(m.km.Bindings[ActKill].Help().Key)), false)
	return nil
}

// respawnedMsg carries a respawn's result.
type respawnedMsg struct {
	pane  string
	reply proto.RespawnedReply
	err   error
}

// respawnInPlace asks the host to start p again under its id, killing it
// first if kill is set (a live orphan).
func (m *Model) respawnInPlace(p *pane, kill bool) tea.Cmd {
	h, id, env := m.host, p.id, m.opts.Env
	m.setStatus("respawning "+p.name()+"…", false)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), killTimeout)
		defer cancel()
		if kill {
			if err := h.Kill(ctx, id); err != nil {
				return respawnedMsg{pane: id, err: fmt.Errorf("kill it first: %w", err)}
			}
		}
		r, err := h.Respawn(ctx, proto.RespawnReq{Pane: id, Env: env})
		return respawnedMsg{pane: id, reply: r, err: err}
	}
}

// onRespawned shows what the respawn could not do as before (or why it
// failed) and shows the pane running again.
func (m *Model) onRespawned(msg respawnedMsg) tea.Cmd {
	if msg.err != nil {
		m.setStatus(fmt.Sprintf("respawn: %v", msg.err), true)
		return nil
	}
	m.setStatus("respawned "+msg.reply.Pane.Name, false)
	if len(msg.reply.Notes) > 0 {
		m.setStatus(strings.Join(msg.reply.Notes, "; "), false)
	}
	return m.onPaneEvent(proto.PaneEvent{Kind: proto.EventRespawned, Pane: msg.pane, Info: &msg.reply.Pane})
}

// respawnMissing spawns a pane the host no longer has anew in its place.
func (m *Model) respawnMissing(p *pane) tea.Cmd {
	s := spawnSpec{kind: persist.KindShell, adapter: p.meta.Adapter, argv: p.meta.Argv, cwd: p.meta.Cwd,
		label: p.meta.Label}
	if k, ok := parseKind(p.meta.Kind); ok {
		s.kind = k
	}
	if s.kind == persist.KindAgent && s.adapter != "" {
		if ad, err := m.opts.Adapters.Get(s.adapter); err == nil {
			if argv, ok := ad.ResumeArgv(""); ok {
				s.argv = argv
			}
		}
	}
	if r, ok := m.geometry().Pane(p.id); ok {
		s.size = layout.Size{W: r.W, H: r.H}
	}
	return m.spawn(s, placement{replace: p.id})
}

// toggleZoom zooms the focused pane or unzooms.
func (m *Model) toggleZoom() tea.Cmd {
	if m.tree.Zoomed() != "" {
		m.tree.Unzoom()
	} else if id := m.tree.Focus(); id != "" {
		_ = m.tree.Zoom(id) // checked: the focus is a leaf
	}
	return tea.Batch(m.syncSizes(), m.saveCmd())
}

// focusDir moves the focus to the neighbour in dir.
func (m *Model) focusDir(dir layout.Direction) tea.Cmd {
	id, ok, err := m.tree.Neighbor(m.tree.Focus(), dir, m.area(), minPane)
	if err != nil || !ok {
		return nil
	}
	return m.focus(id)
}

// focusOffset moves the focus n panes on in Leaves order, wrapping.
func (m *Model) focusOffset(n int) tea.Cmd {
	ids := m.tree.Leaves()
	if len(ids) == 0 {
		return nil
	}
	i := slices.Index(ids, m.tree.Focus())
	return m.focus(ids[((i+n)%len(ids)+len(ids))%len(ids)])
}

// focusNumber focuses pane N (1-based, in Leaves order) for key "N". With
// ten panes or more, the digit opens a prompt holding it, so that a
// number past 9 can be typed (Enter focuses).
func (m *Model) focusNumber(s string) tea.Cmd {
	ids := m.tree.Leaves()
	if len(s) != 1 || s[0] < '1' || s[0] > '9' {
		return nil
	}
	if len(ids) >= 10 {
		return m.ask("pane number:", s, func(m *Model, answer string) tea.Cmd { return m.focusIndex(answer) })
	}
	return m.focusIndex(s)
}

// focusIndex focuses pane number s (1-based), or says there is none.
func (m *Model) focusIndex(s string) tea.Cmd {
	ids := m.tree.Leaves()
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 1 || n > len(ids) {
		m.setStatus(fmt.Sprintf("no pane %s (there are %d)", strings.TrimSpace(s), len(ids)), false)
		return nil
	}
	return m.focus(ids[n-1])
}

// nextAttention focuses the pane that has needed input longest, other
// than the focused one (notify.go).
func (m *Model) nextAttention() tea.Cmd {
	if id := m.waitedLongest(); id != "" {
		return m.focus(id)
	}
	m.setStatus("no other pane needs input", false)
	return nil
}

// focus moves the focus to id, telling the panes that asked (mode 1004).
func (m *Model) focus(id string) tea.Cmd {
	old := m.focused()
	if old != nil && old.id == id {
		return nil
	}
	if err := m.tree.SetFocus(id); err != nil {
		return nil
	}
	m.copy, m.dirty = nil, true
	m.typingTo = nil // a spawn in flight no longer takes the keyboard
	if old != nil {
		m.sendBytes(old, focusBytes(false, old))
	}
	m.sendBytes(m.focused(), focusBytes(true, m.focused()))
	return tea.Batch(m.syncSizes(), m.saveCmd())
}

// resize moves the focused pane's border towards dir.
func (m *Model) resize(dir layout.Direction) tea.Cmd {
	if err := m.tree.Resize(m.tree.Focus(), dir, resizeStep, m.area(), minPane); err != nil {
		return nil
	}
	return tea.Batch(m.syncSizes(), m.saveCmd())
}

// swap exchanges the focused pane with the one n places on.
func (m *Model) swap(n int) tea.Cmd {
	ids := m.tree.Leaves()
	if len(ids) < 2 {
		return nil
	}
	i := slices.Index(ids, m.tree.Focus())
	other := ids[((i+n)%len(ids)+len(ids))%len(ids)]
	_ = m.tree.Swap(ids[i], other) // checked: both are leaves
	return tea.Batch(m.syncSizes(), m.saveCmd())
}

// presetOrder is the cycle of next-preset.
var presetOrder = []layout.Preset{layout.EvenHorizontal, layout.EvenVertical,
	layout.MainVertical, layout.MainHorizontal, layout.Tiled}

// nextPreset applies the next layout preset.
func (m *Model) nextPreset() tea.Cmd {
	m.presetIdx = (m.presetIdx + 1) % len(presetOrder)
	p := presetOrder[m.presetIdx]
	_ = m.tree.Apply(p) // presets from the list are valid
	m.setStatus("layout "+p.String(), false)
	return tea.Batch(m.syncSizes(), m.saveCmd())
}

// quit detaches: every pane keeps running on the host. layout.json is
// written before the program ends: a save racing the quit could be cut
// off when the process exits, leaving the layout of an older moment
// (panes killed or removed since come back as missing).
func (m *Model) quit() tea.Cmd {
	m.quitting = true
	save := m.saveCmd()
	return func() tea.Msg {
		if save != nil {
			_ = save() // the program ends: an error has nowhere to show
		}
		return tea.QuitMsg{}
	}
}

// killedAllMsg says kill-all finished.
type killedAllMsg struct{ err error }

// confirmKillAll removes every pane on the host, then quits.
func (m *Model) confirmKillAll() tea.Cmd {
	return m.confirm("kill every pane and quit? y/n", func(m *Model) tea.Cmd {
		h := m.host
		ids := make([]string, 0, len(m.panes))
		for id, p := range m.panes {
			if p.state != paneMissing {
				ids = append(ids, id)
			}
		}
		m.setStatus("killing every pane…", false)
		return func() tea.Msg {
			var first error
			for _, id := range ids {
				ctx, cancel := context.WithTimeout(context.Background(), killTimeout)
				if err := h.Remove(ctx, id); err != nil && first == nil {
					first = err
				}
				cancel()
			}
			return killedAllMsg{err: first}
		}
	})
}

// onKilledAll quits after kill-all, leaving an empty layout behind.
func (m *Model) onKilledAll(msg killedAllMsg) tea.Cmd {
	if msg.err != nil {
		m.setStatus(fmt.Sprintf("kill all: %v", msg.err), true)
		return nil
	}
	for id := range m.panes {
		m.panes[id].close()
	}
	m.panes, m.tree = map[string]*pane{}, &layout.Tree{}
	return m.quit()
}

// parseKind is the inverse of persist.Kind.String.
func parseKind(s string) (persist.Kind, bool) {
	for _, k := range []persist.Kind{persist.KindAgent, persist.KindShell, persist.KindRun} {
		if k.String() == s {
			return k, true
		}
	}
	return 0, false
}

// onRespawnedPane shows p running again (the respawn's reply or the
// host's event, whichever comes first) and subscribes afresh, for the
// new run's terminal.
func (m *Model) onRespawnedPane(p *pane, info *proto.PaneInfo) tea.Cmd {
	if p == nil || info == nil {
		return nil
	}
	wasGone := p.state.gone() || p.info.State == "orphaned"
	p.update(*info)
	if !wasGone || p.state.gone() {
		return nil
	}
	return m.subscribe(p)
}
