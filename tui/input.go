package tui

// This file sends input to panes. Keys and pastes are encoded for the
// pane's current modes (from its last frame) and written straight to the
// pane's PTY master dup, from Update itself: a Cmd per keystroke would run
// on its own goroutine and could reorder fast typing. The write has a
// short deadline, so a pane that stopped reading cannot stall the UI; on
// any failure (deadline, no master, an fd without deadline support) the
// rest goes through the host as an input message.

import (
	"os"
	"time"

	tea "charm.land/bubbletea/v2"

	"clowder/panes"
)

// writeDeadline bounds a direct write to a master. A PTY's input buffer
// holds several KiB, so only a pane that stopped reading ever reaches it.
const writeDeadline = 20 * time.Millisecond

// sendBytes writes b to pane p, directly or through the host.
func (m *Model) sendBytes(p *pane, b []byte) tea.Cmd {
	if p == nil || len(b) == 0 || p.state.gone() {
		return nil
	}
	if p.master != nil {
		n, err := writeMaster(p.master, b)
		if err == nil {
			return nil
		}
		b = b[n:]
	}
	return m.inputCmd(p.id, b)
}

// writeMaster writes b to f within writeDeadline and reports how much was
// written. An fd that cannot take a deadline is not written at all.
func writeMaster(f *os.File, b []byte) (int, error) {
	if err := f.SetWriteDeadline(time.Now().Add(writeDeadline)); err != nil {
		return 0, err
	}
	return f.Write(b)
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
	ad, err := m.opts.Adapters.Get(name)
	if err != nil {
		return panes.EncodeOptions{}
	}
	return ad.EncodeOptions()
}

// sendKey encodes one key press for the focused pane.
func (m *Model) sendKey(k tea.KeyPressMsg) tea.Cmd {
	p := m.focused()
	if p == nil {
		return nil
	}
	if p.state.gone() {
		m.setStatus(p.name()+" has "+p.state.String()+"; "+m.km.Prefix.Help().Key+" "+
			firstKey(m.km.Bindings[ActRespawn].Help().Key)+" respawns it", false)
		return nil
	}
	key, text, ok := paneKey(k.Key())
	if !ok {
		return nil
	}
	modes := vtModes(p.scr.modes)
	if text != "" {
		return m.sendBytes(p, panes.EncodeText(text, modes))
	}
	return m.sendBytes(p, panes.EncodeWith(key, modes, m.encodeOptions(p)))
}

// pasteText pastes into the focused pane, bracketed if it asked for it.
func (m *Model) pasteText(text string) tea.Cmd {
	p := m.focused()
	if p == nil || text == "" {
		return nil
	}
	modes := vtModes(p.scr.modes)
	b, err := panes.Paste(text, modes, panes.PasteOptions{})
	if err != nil {
		// The user pasted control characters on purpose: send them as they
		// are (bracket markers inside are still removed).
		b, _ = panes.Paste(text, modes, panes.PasteOptions{Raw: true})
	}
	return m.sendBytes(p, b)
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
