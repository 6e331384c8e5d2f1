// Agent hooks: what an agent reports about itself, through `clowder hook`
// (run by Claude Code's hooks and Codex's notify program, which the host
// installs at launch without touching the user's files). The pane's
// conversation id follows what the agent reports, so resume picks that
// conversation; and a hook's "the agent waits" comes first for attention,
// before BEL and OSC 9/777 and before the screen rules: it holds until the
// agent works again (a hook says so, or its screen shows its busy hint).

package host

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"clowder/panes"
	"clowder/persist"
	"clowder/supervisor/proto"
)

// claudeSettingsFile is the Claude Code settings file (--settings) with
// clowder's hooks, in the runtime dir: it names this host's socket.
const claudeSettingsFile = "claude-hooks.json"

// hookHold is the newest hook's verdict on attention, while it stands.
type hookHold struct {
	state panes.Attention // 0: no hook holds the pane
	rule  string          // "hook:Stop"
}

// launched is l with the adapter's launch arguments added (a session id
// chosen up front, the hook that reports the next ones), and records the
// session the pane starts with. A pane that is no agent, or an adapter
// without hooks, is started as asked.
func (h *Server) launched(p *pane, l *launch) *launch {
	if p.adapter.Hooks == panes.HookNone || p.record().Kind != persist.KindAgent {
		return l
	}
	al, err := p.adapter.Launch(l.argv, h.hookCommand(p.adapter))
	if err != nil {
		h.log.Printf("%s: start without a session id: %v", p.id, err)
		return l
	}
	out := *l
	out.argv = al.Argv
	p.mu.Lock()
	p.followSessionLocked(al.Session)
	p.mu.Unlock()
	return &out
}

// hookCommand is the `clowder hook` command of this host, with the Claude
// Code settings file that runs it written when the adapter needs one.
// Without a hook binary (Options.HookBinary) there is none.
func (h *Server) hookCommand(ad panes.Adapter) panes.HookCommand {
	if h.opts.HookBinary == "" {
		return panes.HookCommand{}
	}
	hc := panes.HookCommand{Argv: []string{h.opts.HookBinary, "hook", "--socket", h.opts.Paths.SocketFile()}}
	if ad.Hooks == panes.HookClaude {
		path := filepath.Join(h.opts.Paths.RuntimeDir, claudeSettingsFile)
		if err := writeIfChanged(path, panes.ClaudeSettings(hc.Argv)); err != nil {
			h.log.Printf("claude hooks: %v; its conversation id is followed only from launch", err)
			return panes.HookCommand{}
		}
		hc.SettingsFile = path
	}
	return hc
}

// writeIfChanged writes data to path atomically unless it holds data
// already (every claude pane of a host shares the one file). What is
// there is read only if it is this user's regular file: a planted fifo
// would hang the spawn, a symlink would be handed to Claude Code.
func writeIfChanged(path string, data []byte) error {
	f, err := persist.OpenPrivate("claude hooks file", path, os.O_RDONLY)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err == nil {
		old, rerr := io.ReadAll(io.LimitReader(f, int64(len(data))+1))
		_ = f.Close() // best effort: read only
		if rerr == nil && bytes.Equal(old, data) {
			return nil
		}
	}
	if err := persist.WriteFile(path, data, 0o600); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// hook handles a hook request: the event an agent's hook reported in its
// pane.
func (c *conn) hook(id uint32, req *proto.HookReq) {
	c.withPane(id, req.Pane, func(p *pane) { c.replyErr(id, p.hookEvent(req)) })
}

// hookEvent follows the reported conversation and lets the event drive
// attention; a new conversation id is a durable change.
func (p *pane) hookEvent(r *proto.HookReq) error {
	p.mu.Lock()
	if p.rec.Kind != persist.KindAgent || !p.runningLocked() {
		p.mu.Unlock()
		return &proto.ErrorReply{Code: proto.CodeBadRequest, Message: fmt.Sprintf("pane %s runs no agent now; a hook reports only for the agent it runs in", p.id)}
	}
	moved := false
	if panes.HookFollowsSession(r.Event) && r.Session != "" {
		moved = p.followSessionLocked(r.Session)
	}
	p.hookAttentionLocked(r.Event, r.Source)
	name := p.rec.Name
	p.mu.Unlock()
	if moved {
		p.h.log.Printf("%s (%s): %s %s moved to conversation %s", p.id, name, r.Agent, r.Event, r.Session)
		p.h.saveRegistry()
	}
	return nil
}

// followSessionLocked makes session the pane's conversation and its
// resume command; it reports whether that changed anything.
func (p *pane) followSessionLocked(session string) bool {
	if session == "" || session == p.rec.Session {
		return false
	}
	p.rec.Session = session
	if argv, ok := p.adapter.ResumeArgv(session); ok {
		p.rec.ResumeArgv = argv
	}
	return true
}

// hookAttentionLocked applies a hook event's verdict: "waits" holds the
// pane at once, whatever it redraws; "works" ends the hold and lets the
// screen rules judge again once output settles.
func (p *pane) hookAttentionLocked(event, detail string) {
	s, ok := panes.HookAttention(event, detail)
	if !ok {
		return
	}
	rule := "hook:" + event
	p.attn.hook = hookHold{}
	if s == panes.NeedsInput {
		p.attn.hook = hookHold{state: s, rule: rule}
	}
	p.setAttentionLocked(s, rule)
	p.armJudgeLocked()
}

// hookHoldsLocked reports whether a hook's "waits" stands, so output
// (the agent redrawing its prompt) does not make the pane working.
func (p *pane) hookHoldsLocked() bool { return p.attn.hook.state == panes.NeedsInput }

// heldOutputLocked runs on output while a hook's "waits" holds the pane.
// The screen's busy hint ends the hold at once: an agent at work redraws
// its spinner without pause, so a judgement after a quiet moment would
// never come (input typed in the TUI goes straight to the PTY, and Codex
// tells nothing when a turn starts).
func (p *pane) heldOutputLocked() {
	o := panes.Observation{Screen: p.term.Snapshot(), Quiet: p.adapter.Rules.Settle} // judge the screen as it is now
	if a := p.adapter.Rules.Assess(o); a.State == panes.Working {
		p.attn.hook = hookHold{}
		p.setAttentionLocked(a.State, a.Rule)
	}
	p.armJudgeLocked()
}

// overHookLocked is the screen's assessment with a standing hook verdict
// over it. Only the screen's own busy hint (a Working rule: the user's
// input reached the agent without the host) or the exit ends the hold.
func (p *pane) overHookLocked(a panes.Assessment) panes.Assessment {
	switch {
	case !p.hookHoldsLocked() || a.State == panes.Exited:
		return a
	case a.State == panes.Working && a.Rule != "output":
		p.attn.hook = hookHold{}
		return a
	}
	return panes.Assessment{State: p.attn.hook.state, Rule: p.attn.hook.rule}
}
