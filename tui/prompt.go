package tui

// This file is the one-line prompt over the status bar: yes/no
// confirmations and text questions (new agent, rename, send-keys). A prompt
// holds what to do with the answer as a function of the model, which
// Update calls.

import (
	"context"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"clowder/layout"
	"clowder/panes"
	"clowder/persist"
)

// promptKind is what a prompt asks for.
type promptKind uint8

const (
	promptConfirm promptKind = iota // y answers yes, any other key no
	promptText                      // a line of text, Enter submits
)

var promptKindNames = [...]string{"confirm", "text"}

// String names the kind.
func (k promptKind) String() string {
	if int(k) < len(promptKindNames) {
		return promptKindNames[k]
	}
	return fmt.Sprintf("promptKind(%d)", uint8(k))
}

// prompt is an open question.
type prompt struct {
	kind     promptKind
	label    string
	input    []rune
	pos      int
	onYes    func(*Model) tea.Cmd
	onSubmit func(*Model, string) tea.Cmd
}

// confirm asks a yes/no question.
func (m *Model) confirm(label string, yes func(*Model) tea.Cmd) tea.Cmd {
	m.prompt = &prompt{kind: promptConfirm, label: label, onYes: yes}
	m.overlay, m.dirty = overlayPrompt, true
	return nil
}

// ask asks for a line of text, starting with initial.
func (m *Model) ask(label, initial string, submit func(*Model, string) tea.Cmd) tea.Cmd {
	in := []rune(initial)
	m.prompt = &prompt{kind: promptText, label: label, input: in, pos: len(in), onSubmit: submit}
	m.overlay, m.dirty = overlayPrompt, true
	return nil
}

// closePrompt removes the prompt.
func (m *Model) closePrompt() {
	m.prompt, m.overlay, m.dirty = nil, overlayNone, true
}

// promptKey edits or answers the prompt.
func (m *Model) promptKey(k tea.KeyPressMsg) tea.Cmd {
	p := m.prompt
	m.dirty = true
	if p.kind == promptConfirm {
		m.closePrompt()
		if s := k.String(); s == "y" || s == "Y" {
			return p.onYes(m)
		}
		return nil
	}
	switch k.String() {
	case "enter":
		m.closePrompt()
		return p.onSubmit(m, strings.TrimSpace(string(p.input)))
	case "esc", "ctrl+c", "ctrl+g":
		m.closePrompt()
	default:
		p.edit(k)
	}
	return nil
}

// edit applies an editing key to the input line.
func (p *prompt) edit(k tea.KeyPressMsg) {
	switch k.String() {
	case "backspace", "ctrl+h":
		if p.pos > 0 {
			p.input = slices.Delete(p.input, p.pos-1, p.pos)
			p.pos--
		}
	case "delete", "ctrl+d":
		if p.pos < len(p.input) {
			p.input = slices.Delete(p.input, p.pos, p.pos+1)
		}
	case "left", "ctrl+b":
		p.pos = max(p.pos-1, 0)
	case "right", "ctrl+f":
		p.pos = min(p.pos+1, len(p.input))
	case "home", "ctrl+a":
		p.pos = 0
	case "end", "ctrl+e":
		p.pos = len(p.input)
	case "ctrl+u":
		p.input, p.pos = p.input[p.pos:], 0
	default:
		if t := k.Key().Text; t != "" {
			r := []rune(t)
			p.input = slices.Insert(p.input, p.pos, r...)
			p.pos += len(r)
		}
	}
}

// line is the prompt as shown: label, input, and where the cursor is.
func (p *prompt) line() (string, int) {
	text := p.label + " "
	if p.kind == promptConfirm {
		return text, len([]rune(text))
	}
	return text + string(p.input), len([]rune(text)) + p.pos
}

// agentDraft collects the new-agent answers across its three questions.
type agentDraft struct {
	adapter, name string
	target        string
	axis          layout.Axis
}

// openAgentPrompt asks for the adapter, then a name, then (with a name)
// whether to make a worktree.
func (m *Model) openAgentPrompt() tea.Cmd {
	_, axis := m.splitAxisOfFocus()
	d := agentDraft{target: m.tree.Focus(), axis: axis}
	var agents []string
	for _, n := range m.opts.Adapters.Names() {
		if ad, err := m.opts.Adapters.Get(n); err == nil && ad.Kind == persist.KindAgent {
			agents = append(agents, n)
		}
	}
	label := fmt.Sprintf("new agent (%s):", strings.Join(agents, ", "))
	return m.ask(label, m.opts.Config.TUI.DefaultAdapter, func(m *Model, s string) tea.Cmd {
		ad, err := m.opts.Adapters.Get(s)
		if err != nil || ad.Kind != persist.KindAgent {
			m.setStatus(fmt.Sprintf("%q is not an agent adapter; want one of %s", s, strings.Join(agents, ", ")), true)
			return nil
		}
		d.adapter = ad.Name
		return m.askAgentName(d)
	})
}

// askAgentName is the new-agent name question.
func (m *Model) askAgentName(d agentDraft) tea.Cmd {
	return m.ask("name (optional):", "", func(m *Model, s string) tea.Cmd {
		if s != "" {
			if err := panes.ValidateName(s); err != nil {
				m.setStatus(err.Error(), true)
				return nil
			}
		}
		d.name = s
		if s == "" {
			return m.spawnAgent(d, false)
		}
		return m.confirm("in a new git worktree (branch clowder/"+s+")? y/n", func(m *Model) tea.Cmd {
			return m.spawnAgent(d, true)
		})
	})
}

// spawnAgent starts the drafted agent beside the pane focused when asked.
func (m *Model) spawnAgent(d agentDraft, worktree bool) tea.Cmd {
	dir := m.opts.Cwd
	if p := m.panes[d.target]; p != nil && p.meta.Cwd != "" {
		dir = p.meta.Cwd
	}
	s := spawnSpec{kind: persist.KindAgent, adapter: d.adapter, cwd: dir, name: d.name, worktree: worktree}
	return m.spawn(s, placement{target: d.target, axis: d.axis, side: layout.After})
}

// openRename asks for the focused pane's label. The host has no rename
// message yet, so the label is the TUI's, kept in layout.json.
func (m *Model) openRename() tea.Cmd {
	p := m.focused()
	if p == nil {
		return nil
	}
	id := p.id
	return m.ask("rename pane:", p.name(), func(m *Model, s string) tea.Cmd {
		if q := m.panes[id]; q != nil {
			q.meta.Label = s
			m.dirty = true
		}
		rename := m.callCmd("rename", callTimeout, func(ctx context.Context, h Host) error { return h.Rename(ctx, id, s) })
		return tea.Batch(m.saveCmd(), rename)
	})
}

// openSendKeys asks for tmux key names and sends them to the focused pane.
func (m *Model) openSendKeys() tea.Cmd {
	p := m.focused()
	if p == nil {
		return nil
	}
	id := p.id
	return m.ask("send keys (e.g. C-c Enter):", "", func(m *Model, s string) tea.Cmd {
		keys, err := panes.ParseKeys(strings.Fields(s))
		q := m.panes[id]
		if err != nil || q == nil {
			if err != nil {
				m.setStatus(err.Error(), true)
			}
			return nil
		}
		m.sendBytes(q, panes.EncodeKeys(keys, vtModes(q.scr.modes), m.encodeOptions(q)))
		return nil
	})
}
