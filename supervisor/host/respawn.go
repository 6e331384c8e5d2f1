// Respawn in place: a pane whose process is gone (exited, lost, or an
// orphan of an earlier host that has ended since) starts again under the
// same id and name, in the same directory and worktree, with the same
// size and watchdogs. Its record is replaced, not duplicated; its output
// ring goes on (a raw subscriber reads the new run after the old one) and
// its screen starts blank.
//
// What runs: an agent its adapter's resume command (by the recorded
// session id; without one, the adapter's "continue"), a shell afresh, a
// command the same argv. With what environment: the one the pane was
// started with while this host holds it (memory only, handed on by an
// upgrade in place: upgrade.go); after a host restart, the requesting
// client's (or, for the host's own resumes after a reboot, the host's),
// and the reply says so.

package host

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"clowder/panes"
	"clowder/persist"
	"clowder/supervisor"
	"clowder/supervisor/proto"
	"clowder/vtgrid"
)

// respawnPane answers a respawn request.
func (c *conn) respawnPane(id uint32, req *proto.RespawnReq) {
	c.withPane(id, req.Pane, func(p *pane) {
		r, err := c.h.respawn(c.ctx, p, clientEnv{env: req.Env, who: "this client's"})
		if err != nil {
			c.fail(id, err)
			return
		}
		c.reply(id, r)
	})
}

// clientEnv is the environment a respawn falls back on when the host no
// longer holds the pane's own, and whose it is, for the note.
type clientEnv struct {
	env []string // nil: the host's own
	who string   // "this client's", "the host's"
}

// respawn starts p again in place. It refuses a pane that runs, and an
// orphan whose process still runs.
func (h *Server) respawn(ctx context.Context, p *pane, fallback clientEnv) (*proto.RespawnedReply, error) {
	if err := p.tmuxNoRespawn(); err != nil {
		return nil, err
	}
	h.gate.starts.RLock() // an upgrade waits for this respawn (upgrade.go)
	defer h.gate.starts.RUnlock()
	if err := p.orphanRuns(); err != nil { // orphans.go
		return nil, err
	}
	plan, err := p.planRespawn(fallback)
	if err != nil {
		return nil, err
	}
	undo, err := h.claimRespawn(p, plan)
	if err != nil {
		return nil, err
	}
	run, err := h.spawner.Start(ctx, p.spec(h.launched(p, plan.launch), plan.dir))
	if err != nil {
		undo()
		h.saveRegistry() // the record was saved as starting before the fork (recordStarting)
		return nil, &proto.ErrorReply{Code: proto.CodeBadRequest, Message: fmt.Sprintf("respawn %s: start %s: %v", p.id, plan.launch.argv[0], err)}
	}
	p.started(run)
	h.mu.Lock()
	h.containment = run.Containment().String()
	h.mu.Unlock()
	info := p.info()
	h.log.Printf("%s (%s) respawned: %s", p.id, info.Name, strings.Join(info.Argv, " "))
	for _, n := range plan.notes {
		h.log.Printf("%s: %s", p.id, n)
	}
	h.events.publish(proto.PaneEvent{Kind: proto.EventRespawned, Pane: p.id, Info: &info})
	h.saveRegistry()
	h.armIdle()
	return &proto.RespawnedReply{Pane: info, ClientEnv: plan.clientEnv, Notes: plan.notes}, nil
}

// respawnPlan is what a respawn will run, where, and what it could not do
// as the pane first did.
type respawnPlan struct {
	launch    *launch
	dir       string
	clientEnv bool
	notes     []string
}

// planRespawn decides what runs, without changing the pane: a refusal
// leaves it exactly as it was.
func (p *pane) planRespawn(fallback clientEnv) (respawnPlan, error) {
	p.mu.Lock()
	rec, held := p.rec, p.launch
	p.mu.Unlock()
	if err := respawnable(rec); err != nil {
		return respawnPlan{}, err
	}
	if err := worktreeThere(rec); err != nil {
		return respawnPlan{}, err
	}
	plan := respawnPlan{dir: rec.Cwd, launch: &launch{}}
	if held != nil {
		*plan.launch = *held
	} else {
		plan.launch.env = p.fallbackEnv(fallback.env)
		plan.clientEnv = true
		plan.notes = append(plan.notes, fmt.Sprintf("the environment %s started with went with an earlier host; it runs with %s environment", rec.ID, fallback.who))
	}
	argv, note, err := p.respawnArgv(rec, held)
	if err != nil {
		return respawnPlan{}, err
	}
	plan.launch.argv = argv
	if note != "" {
		plan.notes = append(plan.notes, note)
	}
	return plan, nil
}

// respawnable refuses a pane whose process may still run.
func respawnable(rec persist.PaneRecord) error {
	switch rec.State {
	case persist.StateExited, persist.StateLost:
		return nil
	case persist.StateOrphaned:
		if orphanAlive(rec) {
			return &proto.ErrorReply{Code: proto.CodeBusy, Message: fmt.Sprintf("pane %s (%s) is an orphan of an earlier host and its process %d still runs; kill it first with clowder kill %s, then respawn it",
				rec.ID, rec.Name, rec.PID, rec.ID)}
		}
		return nil
	}
	return &proto.ErrorReply{Code: proto.CodeBusy, Message: fmt.Sprintf("pane %s (%s) is %s; only an exited, lost or orphaned pane can be respawned (clowder kill %s first)",
		rec.ID, rec.Name, rec.State, rec.ID)}
}

// orphanAlive reports whether the recorded process still runs, by
// identity (a reused pid is another process).
func orphanAlive(rec persist.PaneRecord) bool {
	id, err := supervisor.ReadIdentity(rec.PID)
	return err == nil && id.Start == rec.PIDStart && (rec.BootID == "" || id.BootID == rec.BootID)
}

// worktreeThere refuses a pane whose worktree is gone: its directory,
// branch and work are not where the pane expects them.
func worktreeThere(rec persist.PaneRecord) error {
	if rec.Worktree == nil {
		return nil
	}
	if _, err := os.Stat(rec.Worktree.Path); err != nil {
		return &proto.ErrorReply{Code: proto.CodeBadRequest, Message: fmt.Sprintf("pane %s (%s): its worktree %s is gone (%v); start a new pane with clowder new --worktree",
			rec.ID, rec.Name, rec.Worktree.Path, errors.Unwrap(err))}
	}
	return nil
}

// fallbackEnv is env with the adapter's own variables added, as a spawn
// through the CLI adds them.
func (p *pane) fallbackEnv(env []string) []string {
	if env == nil && len(p.adapter.Env) == 0 {
		return nil // the host's own
	}
	if env == nil {
		env = os.Environ()
	}
	out := slices.Clone(env)
	for _, k := range slices.Sorted(maps.Keys(p.adapter.Env)) {
		out = append(out, k+"="+p.adapter.Env[k])
	}
	return out
}

// respawnArgv is the command of the respawn: an agent's resume command, a
// shell's or a command's own argv; note says what it could not do as
// before.
func (p *pane) respawnArgv(rec persist.PaneRecord, held *launch) (argv []string, note string, err error) {
	if rec.Kind == persist.KindAgent && rec.Adapter != "" {
		if argv, note, err = resumeArgv(p.adapter, rec); err != nil {
			return nil, "", err
		}
		argv, err = expandFor(rec, argv)
		return argv, note, err
	}
	if held != nil {
		return held.argv, "", nil
	}
	if !rec.Resumable {
		return nil, "", &proto.ErrorReply{Code: proto.CodeBadRequest, Message: fmt.Sprintf("pane %s (%s): its command line held a credential and was kept only redacted, so it cannot run again; start it with clowder new",
			rec.ID, rec.Name)}
	}
	return rec.Argv, "", nil
}

// expandFor expands a profile's {{templates}} in argv with rec's values,
// as `clowder new` expanded them at the first start; a value the pane no
// longer has is an error naming the template.
func expandFor(rec persist.PaneRecord, argv []string) ([]string, error) {
	if !panes.HasTemplates(argv) {
		return argv, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // ProjectName asks git
	defer cancel()
	t := panes.Templates{Name: rec.Name, Project: panes.ProjectName(ctx, rec.Cwd, rec.Worktree)}
	if wt := rec.Worktree; wt != nil {
		t.Worktree, t.Branch = wt.Path, wt.Branch
	}
	out, err := t.Expand(argv)
	if err != nil {
		return nil, &proto.ErrorReply{Code: proto.CodeBadRequest, Message: fmt.Sprintf("pane %s (%s): profile %s: %v", rec.ID, rec.Name, rec.Adapter, err)}
	}
	return out, nil
}

// resumeArgv is an agent's resume command by its recorded session id,
// else its adapter's "continue", else its plain command.
func resumeArgv(ad panes.Adapter, rec persist.PaneRecord) ([]string, string, error) {
	argv, ok := ad.ResumeArgv(rec.Session)
	needsID := slices.ContainsFunc(ad.Resume, func(s string) bool { return strings.Contains(s, panes.SessionPlaceholder) })
	switch {
	case ok && rec.Session == "" && needsID:
		return argv, fmt.Sprintf("no session id is recorded for %s, so %s resumes the newest conversation in %s, which may be another pane's",
			rec.ID, strings.Join(argv, " "), rec.Cwd), nil
	case ok:
		return argv, "", nil
	case len(ad.Command) > 0:
		return ad.Argv(), fmt.Sprintf("adapter %s cannot resume a conversation; %s starts afresh", ad.Name, rec.ID), nil
	}
	return nil, "", &proto.ErrorReply{Code: proto.CodeBadRequest, Message: fmt.Sprintf("pane %s (%s): adapter %s has no command; set [agents.%s] command in config.toml",
		rec.ID, rec.Name, ad.Name, ad.Name)}
}

// claimRespawn marks p starting, so that no second respawn or spawn takes
// it, and gives it a blank screen and a full ring; undo puts the pane back
// as it was if the start fails.
func (h *Server) claimRespawn(p *pane, plan respawnPlan) (undo func(), err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := respawnable(p.rec); err != nil { // another respawn got there first
		return nil, err
	}
	old := paneState{rec: p.rec, run: p.run, launch: p.launch, title: p.title, term: p.term, attn: p.attn, orphan: p.orphan}
	size := p.rec.Size
	if size.Cols == 0 || size.Rows == 0 {
		size = panes.DefaultSize
	}
	p.rec.Size = size
	p.rec.State, p.rec.Exit = persist.StateStarting, nil
	p.rec.Note = strings.Join(plan.notes, "; ")
	p.run, p.launch, p.title, p.replies, p.orphan = nil, plan.launch, "", nil, nil
	p.term = p.newTerm(size.Cols, size.Rows, h.currentColorsLocked())
	p.attn = attention{state: attnStarting}
	p.ring.grow(int(h.opts.Config.Host.RingBytes))
	p.broadcastLocked()
	return func() { p.restore(&old) }, nil
}

// paneState is what claimRespawn changes in a pane.
type paneState struct {
	rec    persist.PaneRecord
	run    *supervisor.Run
	launch *launch
	title  string
	term   *vtgrid.Terminal
	attn   attention
	orphan *orphan
}

// restore puts back what claimRespawn changed.
func (p *pane) restore(old *paneState) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rec, p.run, p.launch, p.title = old.rec, old.run, old.launch, old.title
	p.term, p.attn, p.orphan = old.term, old.attn, old.orphan
	p.broadcastLocked()
}

// wasRunning lists the ids of the records whose process ran when
// agents.json was saved: those a reboot, or a host killed with its panes,
// interrupted.
func wasRunning(recs []persist.PaneRecord) []string {
	var ids []string
	for _, r := range recs {
		if r.State == persist.StateRunning || r.State == persist.StateStarting || r.State == persist.StateOrphaned {
			ids = append(ids, r.ID)
		}
	}
	return ids
}

// resumeAfterRestart starts again, one at a time and in creation order,
// the panes that ran when the last host went down and whose process is
// gone (lost): agents whose adapter's on_restart is "resume" with their
// conversation, shells afresh. Commands stay lost: running one again may
// repeat what it did. An orphan still runs and is left alone. A pane that
// cannot start (its worktree is gone, its program is missing) stays lost
// with the reason in its note.
func (h *Server) resumeAfterRestart(ctx context.Context) {
	for _, id := range h.resumeAfter {
		p := h.paneByID(id)
		if p == nil || !h.resumesAfterRestart(p.record()) {
			continue
		}
		if _, err := h.respawn(ctx, p, clientEnv{who: "the host's"}); err != nil {
			h.log.Printf("%s: not resumed after the restart: %v", id, err)
			p.noteLost("not resumed after the restart: " + errorText(err))
			continue
		}
		h.log.Printf("%s: resumed after the restart", id)
	}
	h.resumeAfter = nil
}

// resumesAfterRestart is the restart policy of a lost pane's kind and
// adapter.
func (h *Server) resumesAfterRestart(rec persist.PaneRecord) bool {
	switch {
	case rec.State != persist.StateLost:
		return false
	case rec.Kind == persist.KindShell:
		return true
	case rec.Kind == persist.KindAgent && rec.Adapter != "":
		return h.opts.Config.OnRestartOf(rec.Adapter) == persist.OnRestartResume
	}
	return false
}

// noteLost records why a lost pane stays lost.
func (p *pane) noteLost(why string) {
	p.mu.Lock()
	p.rec.Note = why
	p.mu.Unlock()
	p.h.saveRegistry()
}

// errorText is err's message without the protocol's decoration.
func errorText(err error) string {
	var e *proto.ErrorReply
	if errors.As(err, &e) {
		return e.Message
	}
	return err.Error()
}
