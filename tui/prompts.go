package tui

// This file is the root's side of the prompt component (prompt.go): the
// questions the actions ask (new agent, rename, send-keys, and the
// confirmations) and what is done with their answers. The root keeps the
// answer's continuation, a function of the model that Update calls when
// the prompt ends with an answer; the prompt itself never sees the model.

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"clowder/layout"
	"clowder/panes"
	"clowder/persist"
)

// confirm asks a yes/no question; yes runs on a yes, and anything else
// cancels.
func (m *Model) confirm(label string, yes func(*Model) tea.Cmd) tea.Cmd {
	return m.openPrompt(newConfirm(label), func(m *Model, answer string) tea.Cmd {
		if isNo(answer) {
			return nil
		}
		return yes(m)
	})
}

// choose asks a yes/no question where no is an answer too: y runs yes, n
// runs no, and any other key (Esc) cancels.
func (m *Model) choose(label string, yes, no func(*Model) tea.Cmd) tea.Cmd {
	return m.openPrompt(newConfirm(label), func(m *Model, answer string) tea.Cmd {
		if isNo(answer) {
			return no(m)
		}
		return yes(m)
	})
}

// isNo reports whether a confirm prompt's answer is the key n.
func isNo(answer string) bool { return answer == "n" || answer == "N" }

// ask asks for a line of text, starting with initial; submit gets the answer.
func (m *Model) ask(label, initial string, submit func(*Model, string) tea.Cmd) tea.Cmd {
	return m.openPrompt(newAsk(label, initial), submit)
}

// openPrompt shows p; then gets its answer if it is given.
func (m *Model) openPrompt(p prompt, then func(*Model, string) tea.Cmd) tea.Cmd {
	m.prompt, m.answer, m.dirty = &p, then, true
	return nil
}

// promptKey hands a key to the open prompt. When that ends it, the prompt
// closes and, on an answer, what it was for runs (which may open the next
// prompt).
func (m *Model) promptKey(k tea.KeyPressMsg) tea.Cmd {
	p, out := m.prompt.Update(k)
	m.prompt, m.dirty = &p, true
	done, ended := out.(promptDoneMsg)
	if !ended {
		return nil
	}
	then := m.answer
	m.prompt, m.answer = nil, nil
	if !done.ok && !(p.kind == promptConfirm && isNo(done.answer)) {
		return nil
	}
	return then(m, done.answer)
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
		if err := panes.CheckInstalled(ad); err != nil {
			m.setStatus(err.Error(), true)
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
		// Regression (issue 11): n cancelled the new agent; it is an answer,
		// "without a worktree", and Esc cancels.
		return m.choose("in a new git worktree (branch clowder/"+s+")? y/n, Esc cancels",
			func(m *Model) tea.Cmd { return m.spawnAgent(d, true) },
			func(m *Model) tea.Cmd { return m.spawnAgent(d, false) })
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

// openRename asks for the focused pane's new name and asks the host to
// rename it. The border shows the name at once (the TUI's label, kept in
// layout.json until the host's renamed event replaces it); a rename the
// host refuses puts the label back, so no pane shows a name the host
// does not know.
func (m *Model) openRename() tea.Cmd {
	p := m.focused()
	if p == nil {
		return nil
	}
	id := p.id
	return m.ask("rename pane:", p.name(), func(m *Model, s string) tea.Cmd {
		old := ""
		if q := m.panes[id]; q != nil {
			old, q.meta.Label = q.meta.Label, s
			m.dirty = true
		}
		h := m.host
		rename := func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
			defer cancel()
			return doneMsg{op: "rename", err: h.Rename(ctx, id, s), undo: func(m *Model) tea.Cmd {
				q := m.panes[id]
				if q == nil || q.meta.Label != s { // renamed again since
					return nil
				}
				q.meta.Label = old
				m.dirty = true
				return m.saveCmd()
			}}
		}
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
		keys, err := promptKeys(strings.Fields(s))
		q := m.panes[id]
		if err != nil || q == nil {
			if err != nil {
				m.setStatus("send keys: "+err.Error(), true)
			}
			return nil
		}
		m.sendBytes(q, panes.EncodeKeys(keys, vtModes(q.scr.modes), m.encodeOptions(q)))
		return nil
	})
}

// promptKeys parses the prompt's key names; an unknown one is named
// without ParseKey's advice of the CLI's -l, which the prompt has not.
func promptKeys(names []string) ([]panes.Key, error) {
	keys := make([]panes.Key, 0, len(names))
	for _, n := range names {
		k, err := panes.ParseKey(n)
		if err != nil {
			return nil, fmt.Errorf("unknown key %q: want %s", n, panes.KeyNameHelp)
		}
		keys = append(keys, k)
	}
	return keys, nil
}
