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

// firstSubmitMaxHold bounds how long a first submission waits for the pane
// to need input: past it the submission goes anyway (the screen rules may
// not know this program's prompt).
const firstSubmitMaxHold = 30 * time.Second

// inputState is what the host knows of a pane's input: when it last got
// some, and whether a submission has gone to its current run (a respawn
// starts a new run, which gets its first submission again).
type inputState struct {
	last      time.Time       // the last input written
	submitted *supervisor.Run // the run a submission was written to
	readyAt   time.Time       // when the pane last became needs-input
}

// submit writes a paste and then Enter, with the adapter's gap between
// them, after holding a first submission (holdFirstSubmit). With a wait
// it then watches the screen until the program shows it took the text
// (takenVerdict), or fails with not-taken.
func (p *pane) submit(ctx context.Context, s panes.Submission, text string, wait time.Duration) error {
	p.holdFirstSubmit(ctx)
	before := p.promptRow()
	if s.Gap <= 0 {
		return p.confirm(ctx, p.writeSubmission(s.Bytes()), promptCheck{before: before, typed: before, text: text}, wait)
	}
	if err := p.writeInput(s.Paste); err != nil {
		return err
	}
	time.Sleep(s.Gap) // the adapter's documented pause, not a wait for a condition
	typed := p.promptRow()
	return p.confirm(ctx, p.writeSubmission(s.Enter), promptCheck{before: before, typed: typed, text: text}, wait)
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
// gives up after firstSubmitMaxHold, when the pane exits or ctx ends: the
// write then goes ahead (or fails on its own).
func (p *pane) holdFirstSubmit(ctx context.Context) {
	wait := p.adapter.FirstSubmitWait
	if wait <= 0 {
		return
	}
	giveUp := time.Now().Add(firstSubmitMaxHold)
	for time.Now().Before(giveUp) {
		changed := p.watch()
		left, done := p.firstSubmitLeft(wait)
		if done {
			return
		}
		t := time.NewTimer(min(left, time.Until(giveUp)))
		select {
		case <-changed:
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
		if ctx.Err() != nil {
			return
		}
	}
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

// tookInputLocked records input written to the pane: it answers a pending
// notification, and the pane works until its screen is judged again.
func (p *pane) tookInputLocked() {
	p.attn.notified = false
	p.in.last = time.Now()
	p.setAttentionLocked(panes.Working, "input")
	p.armJudgeLocked()
}

// quietSinceLocked is the time since the pane's last output or input,
// whichever came later: what its attention is judged on.
func (p *pane) quietSinceLocked() time.Duration {
	last := p.lastOut
	if p.in.last.After(last) {
		last = p.in.last
	}
	return time.Since(last)
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

// confirm waits, when asked to, until the program shows it took the
// submission: it exits, shows a busy screen, or settles with the text no
// longer before the cursor. written is the Enter's write error.
func (p *pane) confirm(ctx context.Context, written error, pc promptCheck, wait time.Duration) error {
	if written != nil || wait <= 0 {
		return written
	}
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	for {
		changed := p.watch()
		v, left := p.takenVerdict(pc)
		switch v {
		case taken:
			return nil
		case leftInPrompt:
			return notTaken(p, "the text is still in its prompt; press Enter in the pane, or submit again")
		}
		settle := time.NewTimer(left)
		select {
		case <-changed:
		case <-settle.C:
		case <-deadline.C:
			settle.Stop()
			return notTaken(p, fmt.Sprintf("no sign within %s that it took the text; see clowder capture %s", wait, p.id))
		case <-ctx.Done():
			settle.Stop()
			return ctx.Err()
		}
		settle.Stop()
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
