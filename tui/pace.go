package tui

// This file paces drawing to the display's refresh: the mailbox hands host
// frames to Update, and the terminal draws, at most once per framePeriod,
// so a flood in a pane costs the TUI at most 60 frames a second however
// fast the host sends them. The first frame after a quiet spell goes at
// once (an echoed key waits for nothing); one that comes sooner waits for
// the period's end, by which time newer ones have merged into it. Nothing
// ticks: a pacer only sleeps when something is waiting to go.

import "time"

// framePeriod is one refresh of a 60 Hz display.
const framePeriod = time.Second / 60

// clock is the time a pacer reads; tests use a fake one.
type clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
}

// realClock is the wall clock.
type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// pacer spaces marks at least period apart. Its methods are called from
// one goroutine at a time.
type pacer struct {
	clock  clock
	period time.Duration
	last   time.Time // the last mark; zero before the first
}

// wait blocks until period has passed since the last mark, or stop is
// closed (it then returns false).
func (p *pacer) wait(stop <-chan struct{}) bool {
	if p.last.IsZero() || p.period <= 0 {
		return true
	}
	d := p.last.Add(p.period).Sub(p.clock.Now())
	if d <= 0 {
		return true
	}
	select {
	case <-p.clock.After(d):
		return true
	case <-stop:
		return false
	}
}

// mark records that something went now.
func (p *pacer) mark() {
	if p.clock != nil {
		p.last = p.clock.Now()
	}
}
