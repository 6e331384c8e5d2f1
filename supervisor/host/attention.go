// Attention: whether a pane works, idles, or waits for the user. Output
// marks a pane working at once; once output has been quiet for the
// adapter's settle time, a timer (never ticking while idle) judges the
// screen with the adapter's rules (package panes). The timer is armed
// lazily: output records when the judgement is due, and a timer that fires
// before then re-arms itself for the rest, so a chunk of output costs no
// timer reset (issue 12: 13% of an echo's work on the reader).

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

// judgeDue is when a pane's settled screen is to be judged.
type judgeDue struct {
	at    time.Time // the settle time after the latest output or input
	fires time.Time // when idleTick fires; zero while it is not armed
}

// updateAttentionLocked runs after output that came at now: the pane
// works, and is judged again once output settles.
func (p *pane) updateAttentionLocked(now time.Time) {
	if p.hookHoldsLocked() { // the agent said it waits: its redraw is not work, its busy hint is
		p.heldOutputLocked()
		return
	}
	p.setAttentionLocked(panes.Working, "output")
	p.armJudgeAtLocked(now)
}

// armJudgeLocked makes the pane judged once the settle time has passed
// from now.
func (p *pane) armJudgeLocked() { p.armJudgeAtLocked(time.Now()) }

// armJudgeAtLocked makes the pane judged once the settle time has passed
// from now. A timer already armed to fire no later only learns the new
// time: it re-arms itself when it fires (judge).
func (p *pane) armJudgeAtLocked(now time.Time) {
	settle := p.adapter.Rules.Settle
	p.judge.at = now.Add(settle)
	if !p.judge.fires.IsZero() && !p.judge.at.Before(p.judge.fires) {
		return
	}
	p.judge.fires = p.judge.at
	if p.idleTick == nil {
		p.idleTick = time.AfterFunc(settle, p.judgeNow)
		return
	}
	p.idleTick.Reset(settle)
}

// stopJudgeLocked disarms the timer: the pane is judged no more until it
// is armed again.
func (p *pane) stopJudgeLocked() {
	if p.idleTick != nil {
		p.idleTick.Stop()
	}
	p.judge.fires = time.Time{}
}

// judgeNow is idleTick's function.
func (p *pane) judgeNow() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.judgeDueLocked(time.Now())
}

// judgeDueLocked runs when idleTick fires at now: it judges the screen if
// the judgement is due, else re-arms the timer for the rest of the settle
// time (output or input came since it was armed). A judgement stopped
// since (stopJudgeLocked: the timer fired as it was stopped, and waited
// for the pane lock) stays stopped.
func (p *pane) judgeDueLocked(now time.Time) {
	if p.judge.fires.IsZero() {
		return
	}
	if rest := p.judge.at.Sub(now); rest > 0 {
		p.judge.fires = p.judge.at
		p.idleTick.Reset(rest)
		return
	}
	p.judge.fires = time.Time{}
	p.judgeLocked(now)
}

// judgeLocked applies the adapter's rules to the screen at now.
func (p *pane) judgeLocked(now time.Time) {
	o := panes.Observation{
		Screen:   p.term.Snapshot(),
		Quiet:    p.quietAtLocked(now),
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
