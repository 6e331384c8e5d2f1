package host

import (
	"testing"
	"time"

	"clowder/panes"
	"clowder/persist"
)

// quietPane is a pane with no process whose settle time is an hour, so
// its attention timer never fires during a test: the test plays the
// timer's firing itself, at the moments it chooses.
func quietPane(t *testing.T) *pane {
	t.Helper()
	h, err := New(Options{Paths: persist.Paths{RuntimeDir: t.TempDir(), StateDir: t.TempDir()}, Config: persist.DefaultConfig(), Build: "test", IdleExit: -1})
	if err != nil {
		t.Fatal(err)
	}
	p := newPane(h, persist.PaneRecord{ID: "p1", Name: "quiet", Size: persist.Size{Cols: 40, Rows: 10}, Created: time.Now()})
	p.adapter.Rules.Settle = time.Hour
	t.Cleanup(func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.stopJudgeLocked()
	})
	return p
}

// outputAt records output at now, as parseOnlyLocked does; p.mu is held.
func outputAt(p *pane, now time.Time) {
	p.lastOut = now
	p.updateAttentionLocked(now)
}

// TestOutputJustBeforeTheSettleTimePostponesTheJudgement pins the lazy
// attention timer (issue 12): output no longer resets the timer, so when
// the timer armed by earlier output fires, output that came since must
// make it re-arm for the rest of the new settle time, not judge. A timer
// that judged on firing would judge a pane quiet for a millisecond
// (working) and never again: the pane would stay working for ever.
func TestOutputJustBeforeTheSettleTimePostponesTheJudgement(t *testing.T) {
	p := quietPane(t)
	p.mu.Lock()
	defer p.mu.Unlock()
	settle := p.adapter.Rules.Settle
	t0 := time.Now()
	outputAt(p, t0)
	t1 := t0.Add(settle - time.Millisecond)
	outputAt(p, t1)

	p.judgeDueLocked(t0.Add(settle)) // the timer armed at t0 fires
	if p.attn.state != panes.Working {
		t.Fatalf("judged %s at the first output's settle time; the pane printed a millisecond before", p.attn.state)
	}
	if !p.judge.fires.Equal(t1.Add(settle)) || !p.idleTick.Stop() {
		t.Fatalf("after firing early the timer is armed for %v (armed: %v); want the later output's settle time %v",
			p.judge.fires.Sub(t0), !p.judge.fires.IsZero(), t1.Add(settle).Sub(t0))
	}
	p.idleTick.Reset(settle) // as it was: Stop above only asked whether it was armed

	p.judgeDueLocked(t1.Add(settle)) // the re-armed timer fires
	if p.attn.state == panes.Working {
		t.Fatalf("still %s once quiet for the settle time after the last output", p.attn.state)
	}
}

// TestInputAfterOutputPostponesTheJudgementToo: input (submit.go) arms the
// judgement as output does, so the timer output armed re-arms for the
// input's settle time too.
func TestInputAfterOutputPostponesTheJudgementToo(t *testing.T) {
	p := quietPane(t)
	p.mu.Lock()
	defer p.mu.Unlock()
	settle := p.adapter.Rules.Settle
	t0 := time.Now().Add(-settle / 2) // output half a settle time ago; the input is now
	outputAt(p, t0)
	p.in.last = time.Now()
	p.armJudgeLocked()

	p.judgeDueLocked(t0.Add(settle))
	if !p.judge.fires.Equal(p.judge.at) || !p.judge.at.After(t0.Add(settle)) {
		t.Fatalf("the timer armed by output fired and was not re-armed for the input's settle time")
	}
}

// TestAShorterSettleTimeRearmsTheTimerSooner: a judgement due before the
// armed timer fires (a pane re-armed with a shorter settle time) resets
// the timer rather than waiting for the later firing.
func TestAShorterSettleTimeRearmsTheTimerSooner(t *testing.T) {
	p := quietPane(t)
	p.mu.Lock()
	defer p.mu.Unlock()
	t0 := time.Now()
	outputAt(p, t0)
	p.adapter.Rules.Settle = time.Minute
	outputAt(p, t0)
	if want := t0.Add(time.Minute); !p.judge.fires.Equal(want) {
		t.Fatalf("the timer fires %v after the output; want a minute", p.judge.fires.Sub(t0))
	}
}

// TestAPaneTakesTheReadersClockReading (issue 12): a chunk the reader
// hands over with its time (supervisor.TimedOutput) is stamped and arms
// the attention judgement with that time, not with another clock reading.
func TestAPaneTakesTheReadersClockReading(t *testing.T) {
	p := quietPane(t)
	read := time.Now().Add(-time.Minute) // a reading no later clock read gives
	p.WriteAt([]byte("\ra"), read)
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.lastOut.Equal(read) || !p.judge.at.Equal(read.Add(p.adapter.Rules.Settle)) {
		t.Fatalf("output read at %v stamped %v, judged at %v", read, p.lastOut, p.judge.at)
	}
}

// TestAStoppedJudgementStaysStopped: a timer that fired just as its
// judgement was stopped (the pane exited or was killed: stopJudgeLocked
// cannot stop a timer whose function already waits for the pane lock)
// finds output since it was armed, and used to re-arm itself for the
// rest, bringing a stopped judgement back. It now leaves it stopped.
func TestAStoppedJudgementStaysStopped(t *testing.T) {
	p := quietPane(t)
	p.mu.Lock()
	defer p.mu.Unlock()
	t0 := time.Now()
	outputAt(p, t0)
	outputAt(p, t0.Add(time.Millisecond)) // output after the timer was armed: at a firing it re-arms
	p.stopJudgeLocked()
	state := p.attn.state
	p.judgeDueLocked(t0.Add(p.adapter.Rules.Settle)) // the timer that fired as it was stopped
	if !p.judge.fires.IsZero() || p.idleTick.Stop() {
		t.Fatalf("a stopped judgement was re-armed to fire %v after the output", p.judge.fires.Sub(t0))
	}
	if p.attn.state != state {
		t.Fatalf("a stopped judgement judged the pane %s", p.attn.state)
	}
}
