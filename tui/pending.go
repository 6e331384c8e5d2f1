package tui

// This file is the pending pane: what a split or a new pane shows between
// the key that asks for it and the host's answer. As in tmux, the split is
// immediate for the user: the pending pane takes its place in the layout
// and the focus at once, so every later key, prefix commands included,
// acts on it (typed text waits in its input queue). The reply replaces it
// with the real pane in the same place; a failure removes it and gives the
// focus back. layout.json never records a pending pane.

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"clowder/layout"
	"clowder/supervisor/proto"
)

// pendingName is what a pending pane's border says.
const pendingName = "starting…"

// addPending puts a pending pane for s where place asks, gives it the
// focus and returns its id. Its input queue is place.input.
func (m *Model) addPending(s spawnSpec, place placement) string {
	m.pendingSeq++
	id := fmt.Sprintf("pending-%d", m.pendingSeq)
	p := &pane{id: id, state: panePending, in: place.input, meta: paneMeta{Name: pendingName,
		Kind: s.kind.String(), Adapter: s.adapter, Argv: s.argv, Cwd: s.cwd}}
	m.panes[id] = p
	if place.target != "" && m.tree.Has(place.target) {
		_ = m.tree.Split(place.target, id, place.axis, place.side) // checked: target is a leaf, id is new
	} else {
		m.addPane(p)
	}
	_ = m.tree.SetFocus(id) // checked: a leaf
	m.copy, m.typingTo, m.dirty = nil, nil, true
	return id
}

// dropPending removes the pending pane of a failed spawn, giving the focus
// back to the pane it split if the pending pane had it.
func (m *Model) dropPending(place placement) tea.Cmd {
	p := m.panes[place.pending]
	if place.pending == "" || p == nil {
		return nil
	}
	hadFocus := m.tree.Focus() == p.id
	cmd := m.dropPane(p.id)
	if hadFocus && m.tree.Has(place.target) {
		_ = m.tree.SetFocus(place.target) // checked: a leaf
	}
	return cmd
}

// dropPlaceholder forgets pending pane id (its real pane is already in the
// tree), keeping its input queue, which the real pane has adopted.
func (m *Model) dropPlaceholder(id string) {
	p := m.panes[id]
	if id == "" || p == nil {
		return
	}
	p.in = nil
	delete(m.panes, id)
	if m.tree.Has(id) {
		_ = m.tree.Close(id) // checked: a leaf
	}
}

// pendingClosed reports whether the user closed the pending pane of a
// spawn before the host answered.
func (m *Model) pendingClosed(place placement) bool {
	return place.pending != "" && m.panes[place.pending] == nil
}

// removeUnwanted removes, on the host, a pane whose pending pane the user
// closed before it started.
func (m *Model) removeUnwanted(info proto.PaneInfo) tea.Cmd {
	m.unplaced = deleteID(m.unplaced, info.ID)
	if p := m.panes[info.ID]; p != nil && !m.tree.Has(info.ID) {
		p.close()
		delete(m.panes, info.ID)
	}
	id := info.ID
	return tea.Batch(m.placeUnplaced(), m.callCmd("close "+info.Name, killTimeout, func(ctx context.Context, h Host) error {
		return h.Remove(ctx, id)
	}))
}

// withoutPending is t without its pending panes (t itself if it has none).
func withoutPending(t *layout.Tree, panes map[string]*pane) *layout.Tree {
	var out *layout.Tree
	for _, id := range t.Leaves() {
		if p := panes[id]; p != nil && p.state == panePending {
			if out == nil {
				out = t.Clone()
			}
			_ = out.Close(id) // checked: a leaf
		}
	}
	if out == nil {
		return t
	}
	return out
}

// deleteID is ids without id.
func deleteID(ids []string, id string) []string {
	out := ids[:0]
	for _, x := range ids {
		if x != id {
			out = append(out, x)
		}
	}
	return out
}
