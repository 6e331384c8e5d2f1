// Waits: block a request until a pane exits, goes quiet, needs input or
// shows a text, woken by the pane's change broadcast (and a timer for the
// quiet condition), never by polling.

package host

import (
	"fmt"
	"regexp"
	"time"

	"clowder/panes"
	"clowder/supervisor/proto"
)

func (c *conn) wait(id uint32, req *proto.WaitReq) {
	c.withPane(id, req.Pane, func(p *pane) {
		if !req.Exit && req.IdleMS <= 0 && !req.NeedsInput && req.Text == "" {
			c.fail(id, &proto.ErrorReply{Code: proto.CodeBadRequest, Message: "wait needs a condition: --exit, --idle D, --needs-input or --text RE"})
			return
		}
		var re *regexp.Regexp
		if req.Text != "" {
			var err error
			if re, err = regexp.Compile(req.Text); err != nil {
				c.fail(id, &proto.ErrorReply{Code: proto.CodeBadRequest, Message: fmt.Sprintf("--text %q is not a regular expression: %v", req.Text, err)})
				return
			}
		}
		c.waitLoop(id, p, req, re)
	})
}

// waitLoop checks the conditions until one holds, the timeout passes or
// the connection ends. Checks coalesce: the broadcast channel is taken
// before each check, so however many chunks arrive during one, the next
// check runs once, on the newest screen.
func (c *conn) waitLoop(id uint32, p *pane, req *proto.WaitReq, re *regexp.Regexp) {
	var timeout <-chan time.Time
	if req.TimeoutMS > 0 {
		t := time.NewTimer(time.Duration(req.TimeoutMS) * time.Millisecond)
		defer t.Stop()
		timeout = t.C
	}
	idle := time.Duration(req.IdleMS) * time.Millisecond
	upgrading := c.h.window.closingCh()
	quiet := time.NewTimer(time.Hour) // re-armed each round when idle is asked for
	quiet.Stop()
	defer quiet.Stop()
	var text []byte // the screen's text, the buffer reused by every check
	for {
		changed := p.watch()
		met, match, quietFor := p.check(req, re, idle, &text)
		if met != "" {
			c.reply(id, &proto.WaitDoneReply{Met: met, Match: match, Pane: p.info()})
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
			c.fail(id, &proto.ErrorReply{Code: proto.CodeTimeout, Message: fmt.Sprintf("pane %s: the wait timed out after %s", p.id, time.Duration(req.TimeoutMS)*time.Millisecond)})
			return
		case <-upgrading:
			c.fail(id, errUpgrading) // the client waits again on the new host (drain.go)
			return
		case <-c.ctx.Done():
			return
		}
	}
}

// check evaluates the conditions in a fixed order; quietFor is how long the
// pane has been silent. Under the pane lock it takes only the state and,
// for a text, the screen's text into *text (reused from check to check:
// a wait on a flooding pane checks on every change, and a snapshot per
// check copied every row that scrolled); the regexp runs outside the
// lock, so a pending wait never holds up the pane's output for long.
func (p *pane) check(req *proto.WaitReq, re *regexp.Regexp, idle time.Duration, text *[]byte) (met, match string, quietFor time.Duration) {
	st := p.waitState(re != nil, (*text)[:0])
	if re != nil {
		*text = st.text
		if hook := p.onTextCheck.Load(); hook != nil {
			(*hook)()
		}
		if loc := re.FindIndex(st.text); loc != nil {
			return "text", string(st.text[loc[0]:loc[1]]), st.quietFor
		}
	}
	switch {
	case req.Exit && st.exited:
		return "exit", "", st.quietFor
	case req.NeedsInput && st.attn == panes.NeedsInput:
		return "needs-input", "", st.quietFor
	case idle > 0 && st.quietFor >= idle:
		return "idle", "", st.quietFor
	}
	return "", "", st.quietFor
}

// waitState is what a wait checks, taken at one moment.
type waitState struct {
	quietFor time.Duration
	exited   bool
	attn     panes.Attention
	text     []byte // the screen's text; nil unless asked for
}

// waitState takes the state a wait checks under the pane lock; with
// screen, the screen's text is appended to buf.
func (p *pane) waitState(screen bool, buf []byte) waitState {
	p.mu.Lock()
	defer p.mu.Unlock()
	st := waitState{quietFor: time.Since(p.lastOut), attn: p.attn.state}
	if p.lastOut.IsZero() {
		st.quietFor = time.Since(p.rec.Created)
	}
	st.exited = p.rec.Exit != nil // set by the run's end, a lost record or an orphan's kill
	if screen {
		st.text = p.term.AppendText(buf)
	}
	return st
}
