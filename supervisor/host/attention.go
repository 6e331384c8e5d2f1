// Attention: whether a pane works, idles, or waits for the user. Output
// marks a pane working at once; once output has been quiet for the
// adapter's settle time, a timer (armed per output, never ticking while
// idle) judges the screen with the adapter's rules (package panes).

package host

import (
	"time"

	"clowder/panes"
	"clowder/supervisor/proto"
)

// attention is a pane's attention state and what it rests on.
type attention struct {
	state    panes.Attention
	rule     string
	notified bool     // BEL or OSC 9/777 since the user last gave input
	hook     hookHold // an agent hook's verdict, first while it stands (hook.go)
}

// attnStarting is the state of a pane before its first judgement.
const attnStarting = panes.Working

// updateAttentionLocked runs after output: the pane works, and is judged
// again once output settles.
func (p *pane) updateAttentionLocked() {
	if p.hookHoldsLocked() { // the agent said it waits: its redraw is not work, its busy hint is
		p.heldOutputLocked()
		return
	}
	p.setAttentionLocked(panes.Working, "output")
	p.armJudgeLocked()
}

// armJudgeLocked (re)starts the timer that judges the pane once its
// output has settled.
func (p *pane) armJudgeLocked() {
	settle := p.adapter.Rules.Settle
	if p.idleTick == nil {
		p.idleTick = time.AfterFunc(settle, p.judge)
		return
	}
	p.idleTick.Reset(settle)
}

// judge applies the adapter's rules to the settled screen.
func (p *pane) judge() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.judgeLocked()
}

func (p *pane) judgeLocked() {
	o := panes.Observation{
		Screen:   p.term.Snapshot(),
		Quiet:    p.quietSinceLocked(),
		Notified: p.attn.notified,
		Exited:   !p.runningLocked() && !p.tmuxRunningLocked(),
	}
	a := p.overHookLocked(p.adapter.Rules.Assess(o))
	p.setAttentionLocked(a.State, a.Rule)
	if p.changed == nil && len(p.echoSubs) == 0 { // nobody waits for the screen: keep no copy of it (46 kB at 80x24)
		p.term.DropSnapshot()
	}
}

// setAttentionLocked records a new state, tells event subscribers and wakes
// waiters when it changed.
func (p *pane) setAttentionLocked(s panes.Attention, rule string) {
	if p.attn.state == s {
		return
	}
	p.attn.state, p.attn.rule = s, rule
	if s == panes.NeedsInput {
		p.in.readyAt = time.Now()
	}
	p.h.events.publish(proto.PaneEvent{Kind: proto.EventAttention, Pane: p.id, Attention: s.String()})
	p.broadcastLocked()
}
