// Submit: typing a prompt into an agent so that it is taken (issue 11 §3).
// A submission is a paste, the adapter's gap, then Enter. Before a pane's
// first submission the host waits until the pane has waited for input for
// the adapter's FirstSubmitWait (Claude Code drops an Enter in its first
// seconds). Any input marks the pane working at once, and it stays so until
// the adapter judges its screen again a settle time later, so that a wait
// for needs-input right after a submit does not see the prompt the agent
// has not yet left.

package host

import (
	"context"
	"fmt"
	"strings"
	"time"

	"clowder/panes"
	"clowder/supervisor"
	"clowder/supervisor/proto"
	"clowder/vtgrid"
)

// enterRetries is how many more times confirm presses Enter while the
// text is left in the prompt: Claude Code 2.1.197, offline and under load,
// dropped the first Enter even 1.5 s after its prompt had settled (1 of
// 4 fresh panes), and took the second.
const enterRetries = 2

// inputState is what the host knows of a pane's input: when it last got
// some, and whether a submission has gone to its current run (a respawn
// starts a new run, which gets its first submission again).
type inputState struct {
	last      time.Time       // the last input written
	submitted *supervisor.Run // the run a submission was written to
	readyAt   time.Time       // when the pane last became needs-input
}

// submit writes a paste and then Enter, with the adapter's gap between
// them, after holding a first submission (holdFirstSubmit). With a wait,
// and for the first submission to an adapter with a FirstSubmitWait, it
// then watches the screen until the program shows it took the text
// (confirm), pressing Enter again while the text is left in the prompt.
func (p *pane) submit(ctx context.Context, s panes.Submission, text string, wait time.Duration) error {
	first := p.holdFirstSubmit(ctx)
	before := p.promptRow()
	if s.Gap <= 0 {
		err := p.writeSubmission(s.Bytes())
		return p.confirm(ctx, err, s.Enter, promptCheck{before: before, typed: before, text: text}, wait, first)
	}
	if err := p.writeInput(s.Paste); err != nil {
		return err
	}
	time.Sleep(s.Gap) // the adapter's documented pause, not a wait for a condition
	typed := p.promptRow()
	err := p.writeSubmission(s.Enter)
	return p.confirm(ctx, err, s.Enter, promptCheck{before: before, typed: typed, text: text}, wait, first)
}

// writeSubmission writes the Enter (or the whole submission) and records
// that the run got one.
func (p *pane) writeSubmission(b []byte) error {
	if err := p.writeInput(b); err != nil {
		return err
	}
	p.mu.Lock()
	p.in.submitted = p.run
	p.mu.Unlock()
	return nil
}

// holdFirstSubmit waits, before the first submission to a run, until the
// pane needs input and has done so for the adapter's FirstSubmitWait. It
// gives up after proto.MaxSubmitHold, when the pane exits or ctx ends: the
// write then goes ahead (or fails on its own). It reports whether this is
// such a first submission.
func (p *pane) holdFirstSubmit(ctx context.Context) (first bool) {
	wait := p.adapter.FirstSubmitWait
	if wait <= 0 {
		return false
	}
	giveUp := time.Now().Add(proto.MaxSubmitHold)
	for time.Now().Before(giveUp) {
		changed := p.watch()
		left, done := p.firstSubmitLeft(wait)
		if done {
			return !p.submittedRun()
		}
		t := time.NewTimer(min(left, time.Until(giveUp)))
		select {
		case <-changed:
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
		if ctx.Err() != nil {
			return true
		}
	}
	return true
}

// submittedRun reports whether the current run got a submission already.
func (p *pane) submittedRun() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.in.submitted == p.run && p.run != nil
}

// firstSubmitLeft is how long a first submission must still wait; done
// when it need not (a submission went already, the pane does not run, or
// it has needed input for wait).
func (p *pane) firstSubmitLeft(wait time.Duration) (left time.Duration, done bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.in.submitted == p.run || !p.runningLocked():
		return 0, true
	case p.attn.state != panes.NeedsInput:
		return time.Hour, false // until the next change
	}
	left = wait - time.Since(p.in.readyAt)
	return left, left <= 0
}

// tookInput is tookInputLocked for input that goes another way than
// through the pane's master (an adopted tmux pane's send-keys).
func (p *pane) tookInput() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tookInputLocked()
}

// tookInputLocked records input written to the pane: it answers a pending
// notification and ends a hook's hold, and the pane works until its screen
// is judged again.
func (p *pane) tookInputLocked() {
	p.attn.notified = false
	p.attn.hook = hookHold{}
	p.in.last = time.Now()
	p.setAttentionLocked(panes.Working, "input")
	p.armJudgeLocked()
}

// quietSinceLocked is the time since the pane's last output or input,
// whichever came later: what its attention is judged on.
func (p *pane) quietSinceLocked() time.Duration { return p.quietAtLocked(time.Now()) }

// quietAtLocked is quietSinceLocked at now.
func (p *pane) quietAtLocked(now time.Time) time.Duration {
	last := p.lastOut
	if p.in.last.After(last) {
		last = p.in.last
	}
	return now.Sub(last)
}

// promptCheck is what tells a submission taken from one left in the
// prompt: the text before the cursor before the paste and before the
// Enter, and the text submitted.
type promptCheck struct {
	before, typed, text string
}

// verdicts of takenVerdict.
const (
	undecided = iota
	taken
	leftInPrompt
)

// confirm waits, when asked to (wait) or for a first submission, until
// the program shows it took the submission: it exits, shows a busy
// screen, or settles with the text no longer before the cursor. While the
// text is left in the prompt it presses Enter again, enterRetries times.
// written is the Enter's write error. Unasked, a first submission is
// confirmed for proto.FirstSubmitConfirm and never fails.
func (p *pane) confirm(ctx context.Context, written error, enter []byte, pc promptCheck, wait time.Duration, first bool) error {
	if written != nil || (wait <= 0 && !first) {
		return written
	}
	asked := wait > 0
	if !asked {
		wait = proto.FirstSubmitConfirm
	}
	deadline := time.Now().Add(wait)
	for try := 0; ; try++ {
		v := p.awaitVerdict(ctx, pc, deadline)
		switch {
		case v == taken:
			return nil
		case v == leftInPrompt && try < enterRetries:
			if err := p.writeInput(enter); err != nil {
				return err
			}
			continue
		case !asked:
			return nil // best effort: the caller did not ask
		case v == leftInPrompt:
			return notTaken(p, "the text is still in its prompt; press Enter in the pane, or submit again")
		case ctx.Err() != nil:
			return ctx.Err()
		}
		return notTaken(p, fmt.Sprintf("no sign within %s that it took the text; see clowder capture %s", wait, p.id))
	}
}

// awaitVerdict waits for takenVerdict to decide, until deadline (undecided
// then) or ctx ends.
func (p *pane) awaitVerdict(ctx context.Context, pc promptCheck, deadline time.Time) int {
	for {
		changed := p.watch()
		v, left := p.takenVerdict(pc)
		if v != undecided {
			return v
		}
		t := time.NewTimer(min(left, time.Until(deadline)))
		select {
		case <-changed:
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
		if ctx.Err() != nil || !time.Now().Before(deadline) {
			return undecided
		}
	}
}

// takenVerdict judges the screen after a submission's Enter; undecided
// comes with how long until the pane has settled.
func (p *pane) takenVerdict(pc promptCheck) (verdict int, left time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.runningLocked() {
		return taken, 0 // it reacted by exiting ("/exit")
	}
	snap := p.term.Snapshot()
	settle := p.adapter.Rules.Settle
	if p.adapter.Rules.Assess(panes.Observation{Screen: snap, Quiet: settle}).State == panes.Working {
		return taken, 0 // a busy rule matched: the agent works on it
	}
	if quiet := p.quietSinceLocked(); quiet < settle {
		return undecided, settle - quiet
	}
	if pc.inPrompt(rowBeforeCursor(snap)) {
		return leftInPrompt, 0
	}
	return taken, 0
}

// inPrompt reports whether row, the settled text before the cursor, still
// holds the submission: it ends with the end of the text's last line, or
// it is what the paste made of the prompt before the Enter.
func (pc promptCheck) inPrompt(row string) bool {
	if tail := textTail(pc.text); tail != "" && strings.HasSuffix(row, tail) {
		return true
	}
	return row == pc.typed && pc.typed != pc.before
}

// textTail is the end of text's last non-blank line, at most tailRunes
// runes: what a prompt shows before the cursor while the text is in it.
func textTail(text string) string {
	lines := strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '\r' })
	for i := len(lines) - 1; i >= 0; i-- {
		if l := []rune(normalizeSpaces(lines[i])); len(l) > 0 {
			return string(l[max(len(l)-tailRunes, 0):])
		}
	}
	return ""
}

// tailRunes is how much of the text's end inPrompt looks for: short, so
// that a wrapped prompt keeps it on the cursor's row.
const tailRunes = 12

// normalizeSpaces turns no-break spaces (Claude Code's prompt) into spaces
// and trims.
func normalizeSpaces(s string) string {
	return strings.TrimSpace(strings.ReplaceAll(s, "\u00a0", " "))
}

// promptRow is the text before the cursor on the pane's screen.
func (p *pane) promptRow() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return rowBeforeCursor(p.term.Snapshot())
}

// rowBeforeCursor is the cursor row's text left of the cursor, spaces
// normalized.
func rowBeforeCursor(s *vtgrid.Snapshot) string {
	cx, cy, _ := s.Cursor()
	var b strings.Builder
	for x := 0; x < cx; x++ {
		if c := s.Cell(x, cy); !c.Empty() {
			b.WriteString(c.Text())
			continue
		}
		b.WriteByte(' ')
	}
	return normalizeSpaces(b.String())
}

// notTaken is the error of a submission the program did not take.
func notTaken(p *pane, why string) error {
	return &proto.ErrorReply{Code: proto.CodeNotTaken, Message: fmt.Sprintf("pane %s did not take the submission: %s", p.id, why)}
}
