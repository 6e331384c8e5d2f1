package tui

// This file handles what the host says: the start-up reconciliation of
// layout.json with the host's panes, screen frames and events from the
// mailbox, and the answers to calls.

import (
	"errors"
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"clowder/layout"
	"clowder/panes"
	"clowder/persist"
	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

// onStart builds the layout: layout.json's tree with the host's panes
// (panes it lost shown as missing, running panes it has that the file
// lacks added), or with no layout.json the host's running panes, or if
// there are none the default layout (README.md, The TUI). Exited panes
// the layout does not hold are not shown: they stay on the host, where
// `clowder ls` lists them (as tmux does not bring back a dead pane). Lost
// ones are: they were running, and R respawns them.
func (m *Model) onStart(msg startMsg) tea.Cmd {
	if msg.err != nil {
		m.hostDown = fmt.Sprintf("cannot list panes: %v", msg.err)
		m.dirty = true
		return nil
	}
	m.started, m.dirty = true, true
	if msg.lerr != nil {
		m.setStatus(fmt.Sprintf("layout.json not used: %v", msg.lerr), true)
	}
	live := map[string]proto.PaneInfo{}
	for _, info := range msg.infos {
		live[info.ID] = info
	}
	if msg.saved != nil {
		m.restore(msg.saved, live)
	}
	for _, info := range msg.infos {
		// A lost pane is shown: it ran, and the user may respawn it.
		if !m.tree.Has(info.ID) && (stateOf(info) != paneExited || info.State == "lost") {
			m.addPane(newPane(info))
		}
	}
	if m.tree.Len() == 0 {
		return m.defaultLayout()
	}
	cmds := []tea.Cmd{m.syncSizes(), m.saveCmd()}
	for _, id := range m.tree.Leaves() {
		cmds = append(cmds, m.subscribe(m.panes[id]))
	}
	return tea.Batch(cmds...)
}

// restore takes layout.json's tree; its panes the host no longer has are
// kept as missing, with what is needed to respawn them.
func (m *Model) restore(saved *savedLayout, live map[string]proto.PaneInfo) {
	m.tree = saved.tree
	for _, id := range m.tree.Leaves() {
		meta := saved.panes[id]
		p := &pane{id: id, meta: meta, state: paneMissing}
		if info, ok := live[id]; ok {
			p.update(info)
		}
		p.meta.Label = meta.Label
		m.panes[id] = p
	}
}

// defaultLayout spawns the first start's panes: an agent (the configured
// default adapter if installed, else the login shell) and a companion
// shell to its right, both in the current directory.
func (m *Model) defaultLayout() tea.Cmd {
	first := m.shellSpec(m.opts.Cwd)
	if name := m.opts.Config.TUI.DefaultAdapter; name != "" {
		if ad, err := m.opts.Adapters.Get(name); err == nil && ad.Kind == persist.KindAgent {
			if err := panes.CheckInstalled(ad); err != nil {
				m.setStatus("started a shell instead: "+err.Error(), true) // the fallback first: a narrow bar cuts the end
			} else {
				first = spawnSpec{kind: persist.KindAgent, adapter: ad.Name, argv: ad.Argv(), cwd: m.opts.Cwd}
			}
		}
	}
	second := m.shellSpec(m.opts.Cwd)
	second.size = m.halfSize(layout.Horizontal)
	first.size = second.size
	return m.spawn(first, placement{then: &second, axis: layout.Horizontal})
}

// shellSpec is a login shell in dir.
func (m *Model) shellSpec(dir string) spawnSpec {
	s := spawnSpec{kind: persist.KindShell, cwd: dir}
	if ad, err := m.opts.Adapters.Get("shell"); err == nil {
		s.argv = ad.Argv()
	}
	return s
}

// spawn starts a spawn Cmd and counts it in flight. A spawn that takes
// the focus takes the keyboard at once: keys typed until it is placed wait
// in its input queue.
func (m *Model) spawn(s spawnSpec, place placement) tea.Cmd {
	m.spawning++
	if s.cwd == "" {
		s.cwd = m.opts.Cwd
	}
	if s.size == (layout.Size{}) {
		s.size = m.halfSize(place.axis)
	}
	if !place.keepFocus {
		// An older spawn's queue keeps what was typed for it; its pane
		// just does not take the focus when placed.
		place.input = m.newQueue("")
		m.spawnIn = append(m.spawnIn, place.input)
		if place.replace == "" {
			place.pending = m.addPending(s, place)
			return tea.Batch(m.spawnCmd(s, place), m.syncSizes())
		}
		m.typingTo = &keyTarget{q: place.input, enc: m.adapterEncoding(specAdapter(s))}
	}
	return m.spawnCmd(s, place)
}

// specAdapter is the adapter whose key encoding s's pane will use.
func specAdapter(s spawnSpec) string {
	switch {
	case s.adapter != "":
		return s.adapter
	case s.kind == persist.KindRun:
		return panes.AdapterCommand
	}
	return panes.AdapterShell
}

// halfSize is about the size a split of the focused pane along axis
// gives, so a new pane starts near its final size.
func (m *Model) halfSize(axis layout.Axis) layout.Size {
	r, ok := m.geometry().Pane(m.tree.Focus())
	if !ok {
		r = m.area()
	}
	if r.W <= 0 || r.H <= 0 {
		return layout.Size{W: 80, H: 24}
	}
	if axis == layout.Horizontal {
		r.W = (r.W - 1) / 2
	} else {
		r.H = (r.H - 1) / 2
	}
	return layout.Size{W: max(r.W, minPane.W), H: max(r.H, minPane.H)}
}

// onSpawned places a new pane, subscribes to it and starts any follow-up.
func (m *Model) onSpawned(msg spawnedMsg) tea.Cmd {
	m.spawning--
	m.spawnIn = slices.DeleteFunc(m.spawnIn, func(q *inputQueue) bool { return q == msg.place.input })
	if msg.err != nil {
		text := fmt.Sprintf("spawn failed: %v", msg.err)
		if lost := m.dropTyping(msg.place.input); lost > 0 {
			text += fmt.Sprintf(" (%d typed bytes dropped)", lost)
		}
		m.setStatus(text, true)
		return tea.Batch(m.dropPending(msg.place), m.placeUnplaced())
	}
	if m.pendingClosed(msg.place) {
		return m.removeUnwanted(msg.info)
	}
	p := m.panes[msg.info.ID]
	if p == nil {
		p = newPane(msg.info)
	}
	p.meta.Label = msg.label
	m.adoptInput(p, msg.place.input)
	m.unplaced = slices.DeleteFunc(m.unplaced, func(id string) bool { return id == p.id })
	m.place(p, msg.place)
	cmds := []tea.Cmd{m.subscribe(p), m.syncSizes(), m.saveCmd(), m.placeUnplaced()}
	if next := msg.place.then; next != nil {
		cmds = append(cmds, m.spawn(*next, placement{target: p.id, axis: msg.place.axis, keepFocus: true}))
	}
	return tea.Batch(cmds...)
}

// adoptInput makes q (what was typed while p spawned) p's input queue.
func (m *Model) adoptInput(p *pane, q *inputQueue) {
	if q == nil {
		return
	}
	if p.in == nil {
		q.setPane(p.id)
		p.in = q
		return
	}
	p.in.send(q.takeAll()) // p got a queue meanwhile: what q held goes first
	q.close()
}

// place puts p into the tree where pl asked. It takes the focus if its
// spawn still has the keyboard (the user did not move the focus since).
func (m *Model) place(p *pane, pl placement) {
	m.panes[p.id] = p
	m.dirty = true
	focus := m.tree.Focus()
	keep := pl.keepFocus || m.typingTo == nil || m.typingTo.q != pl.input
	if !keep {
		m.typingTo = nil
	}
	switch {
	case m.tree.Has(p.id):
		m.dropPlaceholder(pl.pending)
	case pl.pending != "" && m.tree.Has(pl.pending):
		m.panes[pl.pending].in = nil // p has adopted it
		m.replacePane(pl.pending, p.id)
	case pl.replace != "" && m.tree.Has(pl.replace):
		m.replacePane(pl.replace, p.id)
	case pl.target != "" && m.tree.Has(pl.target):
		_ = m.tree.Split(pl.target, p.id, pl.axis, pl.side) // checked: target is in the tree, id is not
	default:
		m.addPane(p)
	}
	if !keep {
		focus = p.id
	}
	if m.tree.Has(focus) {
		_ = m.tree.SetFocus(focus) // checked: a leaf
	}
}

// replacePane puts pane id where old was (old leaves the tree and the
// model), keeping the focus there if old had it.
func (m *Model) replacePane(old, id string) {
	hadFocus := m.tree.Focus() == old
	focus := m.tree.Focus()
	_ = m.tree.Split(old, id, layout.Horizontal, layout.After) // checked by the caller
	_ = m.tree.Close(old)                                      // id takes the split's place
	if hadFocus {
		focus = id
	}
	_ = m.tree.SetFocus(focus) // checked: focus is a leaf
	if p := m.panes[old]; p != nil {
		p.close()
	}
	delete(m.panes, old)
}

// addPane adds p beside the largest pane, keeping focus and zoom.
func (m *Model) addPane(p *pane) {
	m.panes[p.id] = p
	m.dirty = true
	if m.tree.Len() == 0 {
		*m.tree = *layout.New(p.id)
		return
	}
	focus, zoom := m.tree.Focus(), m.tree.Zoomed()
	target, axis := m.largestPane()
	_ = m.tree.Split(target, p.id, axis, layout.After) // checked: target is a leaf, p.id is new
	_ = m.tree.SetFocus(focus)                         // checked: still a leaf
	if zoom != "" {
		_ = m.tree.Zoom(zoom) // checked: still a leaf
	}
}

// largestPane is the pane with the most cells and the axis to split it on
// (across its longer side, counting a cell as twice as tall as wide).
func (m *Model) largestPane() (string, layout.Axis) {
	g := m.tree.SplitRects(m.area(), minPane)
	best, bestArea, axis := m.tree.Leaves()[len(m.tree.Leaves())-1], -1, layout.Vertical
	for _, p := range g.Panes {
		if a := p.Rect.W * p.Rect.H; a > bestArea {
			best, bestArea = p.ID, a
			axis = layout.Vertical
			if p.Rect.W > 2*p.Rect.H {
				axis = layout.Horizontal
			}
		}
	}
	return best, axis
}

// placeUnplaced adds panes the host announced while spawns were in flight,
// once none is.
func (m *Model) placeUnplaced() tea.Cmd {
	if m.spawning > 0 || len(m.unplaced) == 0 {
		return nil
	}
	var cmds []tea.Cmd
	for _, id := range m.unplaced {
		if p := m.panes[id]; p != nil && !m.tree.Has(id) {
			m.addPane(p)
			cmds = append(cmds, m.subscribe(p))
		}
	}
	m.unplaced = nil
	return tea.Batch(append(cmds, m.syncSizes(), m.saveCmd())...)
}

// subscribe opens p's screen stream (with the master dup while it runs).
func (m *Model) subscribe(p *pane) tea.Cmd {
	if p == nil || p.state == paneMissing {
		return nil
	}
	p.closeStream()
	if p.in != nil {
		p.in.hold() // keys wait for the new subscription's master
	}
	m.nextToken++
	p.token = m.nextToken
	return m.subscribeCmd(p.id, p.token, !p.state.gone())
}

// onSubscribed attaches a stream to its pane and starts its watcher.
func (m *Model) onSubscribed(msg subscribedMsg) tea.Cmd {
	p := m.panes[msg.pane]
	if msg.err != nil {
		if p == nil || p.token != msg.token {
			return nil
		}
		switch {
		case errors.Is(msg.err, client.ErrConnectionLost):
			// The connection ended under the subscribe (a host that
			// upgraded in place, or went): reconnecting subscribes every
			// pane again (escrow.go). Shown, the error outlived the
			// recovery on a screen that was whole again.
			m.holdMaster(p)
			return m.lostHost(msg.err)
		case client.Resumable(msg.err):
			return nil // refused by a host upgrading in place: its notice ends the connection next, as above
		}
		m.setStatus(fmt.Sprintf("cannot show pane %s: %v", p.name(), msg.err), true)
		if p.in != nil {
			p.in.setMaster(nil) // keys go through the host
		}
		return nil
	}
	if p == nil || p.token != msg.token {
		_ = msg.stream.Close() // best effort: the pane left or was resubscribed
		return nil
	}
	p.stream, p.master = msg.stream, msg.stream.Master()
	if !p.state.gone() {
		m.queueOf(p).setMaster(p.master) // nil: through the host
	}
	if p.held != nil && p.master != nil && !m.reconnecting {
		_ = p.held.Close() // best effort: the copy kept across an upgrade; the new one replaces it
		p.held = nil
	}
	m.mail.follow(msg.stream, p.id, p.token) // until the stream ends
	return nil
}

// onMail applies frames, events and stream ends, and waits for more.
func (m *Model) onMail(msg mailMsg) tea.Cmd {
	cmds := []tea.Cmd{m.waitMail()}
	m.echo = m.echo || msg.echo
	for id, f := range msg.frames {
		if p := m.panes[id]; p != nil {
			m.damage(p, f)
			p.scr.apply(f)
		}
	}
	for _, e := range msg.events {
		cmds = append(cmds, m.onPaneEvent(e))
	}
	for _, e := range msg.ended {
		cmds = append(cmds, m.onStreamEnd(e))
	}
	for _, n := range msg.notes {
		m.setStatus(n, true)
	}
	return tea.Batch(cmds...)
}

// onPaneEvent applies one event.
func (m *Model) onPaneEvent(e proto.PaneEvent) tea.Cmd {
	p := m.panes[e.Pane]
	m.dirty = m.dirty || e.Kind != proto.EventTitle // a title is kept, not drawn (issue 12)
	switch e.Kind {
	case proto.EventAdded:
		return m.onAdded(e)
	case proto.EventExited:
		if p != nil && e.Info != nil {
			p.update(*e.Info)
		}
		if p != nil {
			p.state, p.master = paneExited, nil
			p.closeInput()
		}
	case proto.EventAttention:
		if p != nil {
			old := p.info.Attention
			p.info.Attention = e.Attention
			return m.attentionChanged(p, old) // notify.go
		}
	case proto.EventTitle:
		if p != nil {
			p.info.Title = e.Title
		}
	case proto.EventRemoved:
		return m.dropPane(e.Pane)
	case proto.EventRespawned:
		return m.onRespawnedPane(p, e.Info)
	case proto.EventRenamed:
		if p != nil && e.Info != nil {
			p.update(*e.Info)
			p.meta.Label = "" // the host's name is the pane's name now
			return m.saveCmd()
		}
	}
	return nil
}

// onAdded learns of a pane some client spawned. Ours are placed when their
// spawn answers; others join the layout once no spawn of ours is in
// flight, so that an event never races a spawn's placement.
func (m *Model) onAdded(e proto.PaneEvent) tea.Cmd {
	if e.Info == nil || m.tree.Has(e.Pane) {
		return nil
	}
	if m.panes[e.Pane] == nil {
		m.panes[e.Pane] = newPane(*e.Info)
	}
	if !m.started || m.spawning > 0 {
		m.unplaced = append(m.unplaced, e.Pane)
		return nil
	}
	m.unplaced = append(m.unplaced, e.Pane)
	return m.placeUnplaced()
}

// dropPane removes a pane the host forgot from the layout.
func (m *Model) dropPane(id string) tea.Cmd {
	p := m.panes[id]
	if p == nil {
		return nil
	}
	p.close()
	delete(m.panes, id)
	m.notes.forget(id)
	if m.copy != nil && m.copy.pane == id {
		m.copy = nil
	}
	if m.tree.Has(id) {
		_ = m.tree.Close(id) // checked: id is a leaf
	}
	return tea.Batch(m.syncSizes(), m.saveCmd())
}

// onStreamEnd notes a stream that ended: the events stream is opened
// again (update_events.go); a pane's is resubscribed if it fell behind.
func (m *Model) onStreamEnd(e streamEnd) tea.Cmd {
	if e.pane == "" {
		return m.onEventsEnd(e)
	}
	p := m.panes[e.pane]
	if p == nil || p.token != e.token {
		return nil
	}
	if errors.Is(e.err, client.ErrConnectionLost) {
		m.holdMaster(p) // escrow: the master outlives the connection (escrow.go)
		return m.lostHost(e.err)
	}
	if client.Resumable(e.err) {
		// An upgrade in place: the new host keeps the same terminal, so
		// keys go on to the master until the new subscription passes its
		// own. Through the host, a key sent as the old one exec'd was
		// reported "may not have been delivered" and lost.
		m.holdMaster(p)
		return nil
	}
	p.stream, p.master = nil, nil
	if p.in != nil {
		p.in.setMaster(nil) // the master went with the stream: the host delivers
	}
	var slow *client.SlowConsumerError
	if errors.As(e.err, &slow) {
		return m.subscribe(p) // fell behind: a new subscription starts with a full frame
	}
	return nil
}

// syncSizes asks the host to resize every shown pane whose rectangle
// changed. One call per pane is in flight at a time; a newer size waits
// for it (onResized), so calls never arrive out of order.
func (m *Model) syncSizes() tea.Cmd {
	if m.width <= 0 || m.height <= 0 {
		return nil
	}
	var cmds []tea.Cmd
	for _, g := range m.geometry().Panes {
		p := m.panes[g.ID]
		if p == nil || g.Rect.Empty() {
			continue
		}
		p.want = paneSize(layout.Size{W: g.Rect.W, H: g.Rect.H})
		cmds = append(cmds, m.resizeIfNeeded(p))
	}
	return tea.Batch(cmds...)
}

// paneSize is the size nearest to a pane's rectangle that the host takes
// (panes.ClampSize): a rectangle of a terminal wider than panes.MaxCols or
// over MaxCells, or under the minimum, would be refused, as a resize and
// as a spawn. The pane is then drawn in the part of its rectangle it
// covers, as when it is still at its old size.
func paneSize(r layout.Size) layout.Size {
	sz := panes.ClampSize(persist.Size{Cols: r.W, Rows: r.H})
	return layout.Size{W: sz.Cols, H: sz.Rows}
}

// resizeIfNeeded sends p's wanted size unless it is sent or a call is out.
func (m *Model) resizeIfNeeded(p *pane) tea.Cmd {
	if p.sizing || p.want == p.size || p.state.gone() || p.state == panePending {
		return nil
	}
	p.sizing, p.size = true, p.want
	return m.resizeCmd(p.id, p.want)
}

// onResized sends the next size if the layout moved on meanwhile.
func (m *Model) onResized(msg resizedMsg) tea.Cmd {
	p := m.panes[msg.pane]
	if p == nil {
		return nil
	}
	p.sizing = false
	if msg.err != nil && !p.state.gone() {
		m.setStatus(fmt.Sprintf("resize %s: %v", p.name(), msg.err), true)
	}
	return m.resizeIfNeeded(p)
}

// onDone reports a failed call.
func (m *Model) onDone(msg doneMsg) tea.Cmd {
	if msg.err != nil {
		m.setStatus(fmt.Sprintf("%s: %v", msg.op, msg.err), true)
		if msg.undo != nil {
			return msg.undo(m)
		}
	}
	return nil
}

// onSaved reports a failed layout save.
func (m *Model) onSaved(msg savedMsg) tea.Cmd {
	if msg.err != nil {
		m.setStatus(msg.err.Error(), true)
	}
	return nil
}
