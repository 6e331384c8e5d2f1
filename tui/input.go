package tui

// This file sends input to panes. Keys and pastes are encoded for the
// pane's current modes (from its last frame) and handed to the pane's
// input queue (inputqueue.go), which writes them to the pane's PTY master
// dup at once when it can and otherwise keeps them, in order, until it
// can. Keys typed while a focus-taking spawn (a split, a new pane, a
// respawn) is in flight go to the queue of the pane it will make, as in
// tmux, where the new pane has the keyboard the moment it is asked for: a
// split or a new pane is in the layout at once as a pending pane
// (pending.go) whose queue that is; a respawn keeps the old pane's place
// and sends typed keys to its spawn's queue through typingTo.

import (
	tea "charm.land/bubbletea/v2"

	"clowder/panes"
	"clowder/vtgrid"
)

// keyTarget is where typed keys go while a focus-taking spawn is in
// flight: its queue, and the encoding options of the pane it will be.
type keyTarget struct {
	q   *inputQueue
	enc panes.EncodeOptions
}

// newQueue starts an input queue for pane ("" while it spawns); failures
// reach the status bar through the mailbox.
func (m *Model) newQueue(pane string) *inputQueue {
	mb := m.mail
	return newInputQueue(m.host, pane, mb.putNote)
}

// queueOf is p's input queue, started on first use.
func (m *Model) queueOf(p *pane) *inputQueue {
	if p.in == nil {
		p.in = m.newQueue(p.id)
	}
	return p.in
}

// sendBytes queues b for pane p.
func (m *Model) sendBytes(p *pane, b []byte) {
	if p == nil || len(b) == 0 || p.state.gone() {
		return
	}
	m.queueOf(p).send(b)
}

// encodeOptions are the key-encoding options of p's adapter.
func (m *Model) encodeOptions(p *pane) panes.EncodeOptions {
	name := p.meta.Adapter
	if name == "" {
		name = panes.AdapterShell
		if p.meta.Kind == "run" {
			name = panes.AdapterCommand
		}
	}
	return m.adapterEncoding(name)
}

// adapterEncoding is the key-encoding options of adapter name.
func (m *Model) adapterEncoding(name string) panes.EncodeOptions {
	ad, err := m.opts.Adapters.Get(name)
	if err != nil {
		return panes.EncodeOptions{}
	}
	return ad.EncodeOptions()
}

// typingTarget is where the next typed key goes: the queue of a pane
// being spawned with the focus, else the focused pane's; its modes and
// encoding options come with it (none yet for a spawning pane).
func (m *Model) typingTarget() (q *inputQueue, modes vtgrid.Modes, enc panes.EncodeOptions, ok bool) {
	if t := m.typingTo; t != nil {
		return t.q, vtgrid.Modes{}, t.enc, true
	}
	p := m.focused()
	if p == nil {
		return nil, modes, enc, false
	}
	if p.state.gone() {
		m.setStatus(p.name()+" has "+p.state.String()+"; "+m.km.Prefix.Help().Key+" "+
			firstKey(m.km.Bindings[ActRespawn].Help().Key)+" respawns it", false)
		return nil, modes, enc, false
	}
	return m.queueOf(p), vtModes(p.scr.modes), m.encodeOptions(p), true
}

// sendKey encodes one key press for the pane that has the keyboard.
func (m *Model) sendKey(k tea.KeyPressMsg) tea.Cmd {
	key, text, ok := paneKey(k.Key())
	if !ok {
		return nil
	}
	q, modes, enc, ok := m.typingTarget()
	if !ok {
		return nil
	}
	if text != "" {
		q.send(panes.EncodeText(text, modes))
	} else {
		q.send(panes.EncodeWith(key, modes, enc))
	}
	m.noteTyped()
	return nil
}

// noteTyped tells the mailbox that input went to the focused pane, so
// that its echo is not held by the cost gap (mailbox.typedTo). A pane
// still spawning has no frames to hold.
func (m *Model) noteTyped() {
	if m.typingTo != nil {
		return
	}
	if p := m.focused(); p != nil {
		m.mail.typedTo(p.id)
	}
}

// pasteText pastes into the pane that has the keyboard, bracketed if it
// asked for it.
func (m *Model) pasteText(text string) tea.Cmd {
	if text == "" {
		return nil
	}
	q, modes, _, ok := m.typingTarget()
	if !ok {
		return nil
	}
	b, err := panes.Paste(text, modes, panes.PasteOptions{})
	if err != nil {
		// The user pasted control characters on purpose: send them as they
		// are (bracket markers inside are still removed).
		b, _ = panes.Paste(text, modes, panes.PasteOptions{Raw: true})
	}
	q.send(b)
	m.noteTyped()
	return nil
}

// dropTyping forgets the spawn that had the keyboard if q is its queue,
// closes q and says how many typed bytes it dropped.
func (m *Model) dropTyping(q *inputQueue) int {
	if q == nil {
		return 0
	}
	if m.typingTo != nil && m.typingTo.q == q {
		m.typingTo = nil
	}
	return len(q.takeAll())
}

// firstKey is the first of a help key list ("x X" → "x").
func firstKey(s string) string {
	for i, r := range s {
		if r == ' ' {
			return s[:i]
		}
	}
	return s
}
