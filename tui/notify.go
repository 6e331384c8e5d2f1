package tui

// This file is notifications (issue 11 §4): when a pane starts needing
// input, the TUI tells the user once, unless that pane has the focus. The
// outer terminal gets a bell, or an OSC 9 notification where it is known
// to show one, and notify-send runs where it is installed. A pane that
// stopped needing input only for a moment (an agent redrawing its footer
// reads as output, so as working, for about a settle time) is not
// announced again: that is the same wait. The notifier also keeps when
// each pane began to wait, so that next-attention (prefix n) goes to the
// pane that has waited longest.

import (
	"context"
	"os"
	"os/exec"
	"time"

	tea "charm.land/bubbletea/v2"

	"clowder/persist"
)

// notifyFlap is how long a pane may stop needing input and still be in
// the same wait: Claude Code's footer redraws made it working for 0.9 to
// 2.8 s between two needs-input (2.1.197, offline).
const notifyFlap = 3 * time.Second

// notifySendTimeout bounds one notify-send run.
const notifySendTimeout = 5 * time.Second

// oscNotifyTerms are the TERM_PROGRAM values of terminals that show OSC 9
// as a desktop notification; others get a bell.
var oscNotifyTerms = map[string]bool{"iTerm.app": true, "WezTerm": true, "ghostty": true}

// notifier is the TUI's memory of which panes wait and since when.
type notifier struct {
	waiting map[string]time.Time // pane → when it began needing input
	left    map[string]time.Time // pane → when it last stopped needing input
	now     func() time.Time     // the clock (tests set it)
}

func newNotifier() notifier {
	return notifier{waiting: map[string]time.Time{}, left: map[string]time.Time{}, now: time.Now}
}

// attentionChanged records pane p's move from old to its attention now,
// and notifies when it began to need input.
func (m *Model) attentionChanged(p *pane, old string) tea.Cmd {
	now, n := p.info.Attention, &m.notes
	switch {
	case now == "needs-input" && old != "needs-input":
		flap := n.now().Sub(n.left[p.id]) < notifyFlap
		if _, ok := n.waiting[p.id]; !ok || !flap {
			n.waiting[p.id] = n.now()
		}
		if flap || m.tree.Focus() == p.id {
			return nil
		}
		return m.notify(p)
	case now != "needs-input" && old == "needs-input":
		n.left[p.id] = n.now()
	}
	return nil
}

// forget drops a pane that left.
func (n *notifier) forget(id string) {
	delete(n.waiting, id)
	delete(n.left, id)
}

// notify tells the user that p needs input: the outer terminal, then
// notify-send where installed, as far as [tui] notify allows.
func (m *Model) notify(p *pane) tea.Cmd {
	mode := m.opts.Config.TUI.Notify
	if mode == persist.NotifyOff {
		return nil
	}
	text := p.meta.Name + " needs input"
	if p.meta.Name == "" {
		text = p.info.Name + " needs input"
	}
	seq := "\a"
	if oscNotifyTerms[os.Getenv("TERM_PROGRAM")] {
		seq = "\x1b]9;clowder: " + text + "\a"
	}
	if mode == persist.NotifyTerminal {
		return m.termCommand(seq, tea.Raw(seq))
	}
	return tea.Batch(m.termCommand(seq, tea.Raw(seq)), notifySend(text))
}

// notifySend runs notify-send, if installed, with text; its failure is
// not the user's concern (no desktop session, no daemon).
func notifySend(text string) tea.Cmd {
	path, err := exec.LookPath("notify-send")
	if err != nil {
		return nil
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), notifySendTimeout)
		defer cancel()
		_ = exec.CommandContext(ctx, path, "--app-name=clowder", "clowder", text).Run() // best effort: see above
		return nil
	}
}

// waitedLongest is the pane, other than the focused one, that has needed
// input longest (in layout order among equals), or "".
func (m *Model) waitedLongest() string {
	best, bestSince := "", time.Time{}
	for _, id := range m.tree.Leaves() {
		p := m.panes[id]
		if p == nil || !p.needsInput() || id == m.tree.Focus() {
			continue
		}
		since := m.notes.waiting[id] // zero (longest) when it waited before the TUI saw it
		if best == "" || since.Before(bestSince) {
			best, bestSince = id, since
		}
	}
	return best
}
