package tui

// This file paces drawing. A flood in a pane must not cost the TUI a core:
// a big change (a scrolling pane, a repaint) is followed by at least one
// display refresh (framePeriod) before the next one, so the TUI draws at
// most one of them per refresh, the newest, with everything that came
// meanwhile merged into it. A small change (an echoed key, a status line)
// goes at once: typing never waits for a refresh. Either way the next one
// waits at least costGap times what the last one cost, so the TUI spends
// at most a fifth of its time drawing even if a program repaints one line
// a thousand times a second; the echo of typed input skips that gap
// (one per key typed, mailbox.typedTo), in the mailbox and, marked
// damage.echo, in the terminal. Pacing is applied twice: by the mailbox
// (host frames to Update, so a flood is one render per refresh) and by the
// terminal (frames to the terminal). Nothing ticks: a pacer only sleeps
// when something is waiting to go.

import "time"

// framePeriod is one refresh of a 60 Hz display.
const framePeriod = time.Second / 60

// costGap is how many times its own cost the gap after a frame is at least
// (start to start): 5, so drawing takes at most a fifth of the time.
const costGap = 5

// clock is the time a pacer reads; tests use a fake one. A sleep is
// until a time, not for a duration: a duration worked out from a Now read
// earlier would end late by whatever ran in between (with a fake clock
// moved in between, by a whole period, or never).
type clock interface {
	Now() time.Time
	At(t time.Time) <-chan time.Time // fires once the clock reads t or later
}

// realClock is the wall clock.
type realClock struct{}

func (realClock) Now() time.Time                  { return time.Now() }
func (realClock) At(t time.Time) <-chan time.Time { return time.After(time.Until(t)) }

// pacer spaces frames: begin and end bracket one, until says how long the
// next must wait. Big and small frames are spaced apart separately: a big
// one waits for the period and the cost gap after the last big one, a
// small one only for the cost gap after the last small one, so an echo is
// never held up by a flood (issue 12), and each kind takes at most a fifth
// of the time. Its methods are called from one goroutine at a time.
type pacer struct {
	clock   clock
	period  time.Duration // the least gap after a big frame, before the next big one
	start   time.Time     // when the last frame began
	next    time.Time     // the earliest a small frame may begin; zero: at once
	nextBig time.Time     // the earliest a big frame may begin
}

// earliest is when the next frame, big or not, may begin (zero: at once).
func (p *pacer) earliest(big bool) time.Time {
	if big {
		return p.nextBig
	}
	return p.next
}

// ready reports whether the next frame, big or not, may begin now.
func (p *pacer) ready(big bool) bool { return !p.earliest(big).After(p.clock.Now()) }

// begin records that a frame begins now.
func (p *pacer) begin() { p.start = p.clock.Now() }

// end records that the frame begun last ended now, big or not, which sets
// when the next may begin.
func (p *pacer) end(big bool) {
	p.endAt(big, p.clock.Now())
}

// endAt is end at now, and returns when the next frame of the same kind
// may begin.
func (p *pacer) endAt(big bool, now time.Time) time.Time {
	gap := now.Sub(p.start) * costGap
	if !big {
		p.next = p.start.Add(gap)
		return p.next
	}
	p.nextBig = p.start.Add(max(gap, p.period))
	return p.nextBig
}
