// Waits: block a request until a pane exits, goes quiet, needs input or
// shows a text, woken by the pane's change broadcast (and a timer for the
// quiet condition), never by polling.

package supervisor

import (
	"fmt"
	"regexp"
	"time"

	"clowder/panes"
)

func (c *conn) wait(id uint32, req *WaitReq) {
	c.withPane(id, req.Pane, func(p *pane) {
		if !req.Exit && req.IdleMS <= 0 && !req.NeedsInput && req.Text == "" {
			c.fail(id, &ErrorReply{Code: CodeBadRequest, Message: "wait needs a condition: --exit, --idle D, --needs-input or --text RE"})
			return
		}
		var re *regexp.Regexp
		if req.Text != "" {
			var err error
			if re, err = regexp.Compile(req.Text); err != nil {
				c.fail(id, &ErrorReply{Code: CodeBadRequest, Message: fmt.Sprintf("--text %q is not a regular expression: %v", req.Text, err)})
				return
			}
		}
		c.waitLoop(id, p, req, re)
	})
}

// waitLoop checks the conditions after every change until one holds, the
// timeout passes or the connection ends.
func (c *conn) waitLoop(id uint32, p *pane, req *WaitReq, re *regexp.Regexp) {
	var timeout <-chan time.Time
	if req.TimeoutMS > 0 {
		t := time.NewTimer(time.Duration(req.TimeoutMS) * time.Millisecond)
		defer t.Stop()
		timeout = t.C
	}
	idle := time.Duration(req.IdleMS) * time.Millisecond
	quiet := time.NewTimer(time.Hour) // re-armed each round when idle is asked for
	quiet.Stop()
	defer quiet.Stop()
	for {
		changed := p.watch()
		met, match, quietFor := p.check(req, re, idle)
		if met != "" {
			c.reply(id, &WaitDoneReply{Met: met, Match: match, Pane: p.info()})
			return
		}
		if idle > 0 {
			// One timer for the whole wait: a flood wakes this loop per
			// output chunk, and a timer (and a defer) per round would pile up.
			quiet.Reset(idle - quietFor)
		}
		select {
		case <-changed:
		case <-quiet.C:
		case <-timeout:
			c.fail(id, &ErrorReply{Code: CodeTimeout, Message: fmt.Sprintf("pane %s: the wait timed out after %s", p.id, time.Duration(req.TimeoutMS)*time.Millisecond)})
			return
		case <-c.ctx.Done():
			return
		}
	}
}

// check evaluates the conditions in a fixed order; quietFor is how long the
// pane has been silent.
func (p *pane) check(req *WaitReq, re *regexp.Regexp, idle time.Duration) (met, match string, quietFor time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	quietFor = time.Since(p.lastOut)
	if p.lastOut.IsZero() {
		quietFor = time.Since(p.rec.Created)
	}
	exited := p.rec.Exit != nil // set by the run's end, a lost record or an orphan's kill
	if re != nil {
		text := p.term.Snapshot().Text()
		if loc := re.FindStringIndex(text); loc != nil {
			return "text", text[loc[0]:loc[1]], quietFor
		}
	}
	switch {
	case req.Exit && exited:
		return "exit", "", quietFor
	case req.NeedsInput && p.attn.state == panes.NeedsInput:
		return "needs-input", "", quietFor
	case idle > 0 && quietFor >= idle:
		return "idle", "", quietFor
	}
	return "", "", quietFor
}
