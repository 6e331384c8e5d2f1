// Spawning a pane and ending it: ids and names, the durable record, the
// run's exit, kill and removal.

package host

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"clowder/panes"
	"clowder/persist"
	"clowder/supervisor"
	"clowder/supervisor/proto"
)

// spawn starts a pane, or returns the one an earlier request with the same
// nonce started, on this host or (through agents.json) on one that
// crashed: a client retries a spawn whose connection broke, and the
// retry must not start a second pane.
func (c *conn) spawn(id uint32, req *proto.SpawnReq) {
	p, existing, err := c.h.startPane(c.ctx, req)
	switch {
	case err != nil:
		c.fail(id, err)
		return
	}
	if req.KillOnDisconnect {
		// The same request again on another connection (a client whose
		// connection broke, or that followed a host upgrade) ties the run
		// to that connection too: the client that dies is the one that
		// holds it now.
		c.own(p)
	}
	c.reply(id, &proto.SpawnedReply{Pane: p.info(), Existing: existing})
}

// existingSpawn answers a request whose nonce already made pane p: p, or
// an error when the spec differs or p was lost with a crashed host.
func existingSpawn(p *pane, req *proto.SpawnReq) error {
	if p.specSum != ([32]byte{}) && p.specSum != specSum(req) {
		return &proto.ErrorReply{Code: proto.CodeConflict, Message: fmt.Sprintf("nonce %q already started pane %s with another spec; use a fresh nonce for a new pane", req.Nonce, p.id)}
	}
	if r := p.record(); r.State == persist.StateLost {
		return &proto.ErrorReply{Code: proto.CodeExited, Message: fmt.Sprintf("this request already made pane %s (%s), lost when its host stopped; see clowder ls, and clowder rm %s before starting it again", p.id, r.Name, p.id)}
	}
	return nil
}

// spawnSteps are the points of a spawn where a host crash leaves
// different traces; tests crash the host at each (Server.spawnStep).
var spawnSteps = []string{"registered", "recorded", "started", "saved"}

// step runs the test hook for a spawn step, if any.
func (h *Server) step(name string) {
	if h.spawnStep != nil {
		h.spawnStep(name)
	}
}

// startPane validates the request, registers the pane, records it (with
// its nonce) in agents.json and starts its run. existing is set when the
// nonce had already made p.
func (h *Server) startPane(ctx context.Context, req *proto.SpawnReq) (p *pane, existing bool, err error) {
	h.gate.starts.RLock() // an upgrade waits for this spawn (upgrade.go)
	defer h.gate.starts.RUnlock()
	kind, err := proto.SpawnKind(req.Kind)
	if err != nil {
		return nil, false, err
	}
	if len(req.Argv) == 0 || req.Argv[0] == "" {
		return nil, false, &proto.ErrorReply{Code: proto.CodeBadRequest, Message: "empty command: give the program to run after --"}
	}
	if req.Cwd == "" {
		req.Cwd = defaultCwd()
	}
	p, existing, err = h.register(req, kind)
	if err != nil || existing {
		return p, existing, err
	}
	h.step("registered")
	// Recorded (step "recorded") before the process starts, so that
	// whatever a crash interrupts, a retry finds the pane and the next
	// host its processes (spec's BeforeFork: recordStarting).
	run, err := h.spawner.Start(ctx, p.spec(h.launched(p, p.launchOf()), req.Cwd))
	if err != nil {
		h.forget(p)
		h.saveRegistry()
		return nil, false, &proto.ErrorReply{Code: proto.CodeBadRequest, Message: fmt.Sprintf("start %s: %v", req.Argv[0], err)}
	}
	h.step("started")
	p.started(run)
	h.mu.Lock()
	h.containment = run.Containment().String()
	h.mu.Unlock()
	h.events.publish(proto.PaneEvent{Kind: proto.EventAdded, Pane: p.id, Info: ptr(p.info())})
	h.saveRegistry()
	h.step("saved")
	h.armIdle()
	return p, false, nil
}

func ptr[T any](v T) *T { return &v }

// register allocates an id and a unique name and records the pane, or
// returns the pane the request's nonce already made (existing).
func (h *Server) register(req *proto.SpawnReq, kind persist.Kind) (p *pane, existing bool, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if p, ok := h.nonces[req.Nonce]; ok && req.Nonce != "" {
		return p, true, existingSpawn(p, req)
	}
	name := req.Name
	if name != "" { // valid: SpawnReq.Validate checked it
		if h.nameTakenLocked(name) {
			return nil, false, &proto.ErrorReply{Code: proto.CodeConflict, Message: fmt.Sprintf("a pane is already named %q; choose another --name", name)}
		}
	} else {
		name = h.freeNameLocked(defaultName(req))
	}
	h.nextID++
	rec := persist.PaneRecord{
		ID: "p" + strconv.Itoa(h.nextID), Name: name, Kind: kind, Adapter: req.Adapter,
		Argv: supervisor.Redact(req.Argv), Cwd: req.Cwd, Worktree: req.Worktree, Created: time.Now(), State: persist.StateStarting,
		EnvKeys:  []string{"CLOWDER_PANE_ID", supervisor.PaneTokenEnv, "COLORTERM", "TERM", "TERM_PROGRAM"},
		Size:     req.Size(),
		Timeouts: h.timeouts(req),
		Nonce:    req.Nonce,
		Token:    supervisor.NewPaneToken(),
		// As the run will say (started): a pane whose host died before
		// that can still be respawned unless its argv held a credential.
		Resumable: supervisor.CheckArgs(req.Argv) == nil,
	}
	p = newPane(h, rec)
	p.specSum = specSum(req)
	p.launch = &launch{argv: append([]string(nil), req.Argv...), env: req.Env, allowSecret: req.AllowSecretArgs}
	h.panes = append(h.panes, p)
	if req.Nonce != "" {
		h.nonces[req.Nonce] = p
	}
	return p, false, nil
}

// timeouts are the pane's effective watchdogs: the request's, else the
// host's defaults from config.toml, or none where the request says so.
func (h *Server) timeouts(req *proto.SpawnReq) persist.Timeouts {
	sup := h.opts.Config.Supervisor
	pick := func(ms int64, none bool, def persist.Duration) persist.Duration {
		switch {
		case none:
			return 0
		case ms > 0:
			return persist.Duration(proto.DurationMS(ms))
		}
		return def
	}
	return persist.Timeouts{
		Overall: pick(req.TimeoutMS, req.NoTimeout, sup.Timeout),
		Idle:    pick(req.IdleTimeoutMS, req.NoIdleTimeout, sup.IdleTimeout),
	}
}

// noneIfZero is a recorded watchdog as a run limit: the host resolved the
// default already, so a zero means none, which Limits spells negative.
func noneIfZero(d persist.Duration) time.Duration {
	if d <= 0 {
		return -1
	}
	return d.Std()
}

// specSum identifies a spawn request's whole spec: a retry sends the same
// bytes, so the same sum.
func specSum(req *proto.SpawnReq) [32]byte {
	b, _ := json.Marshal(req) // a decoded request always encodes
	return sha256.Sum256(b)
}

// defaultCwd is the directory of a pane whose request names none (a raw
// protocol client, a record from before cwds were recorded): the user's
// home, as tmux starts a window with no client's directory, else /. Not
// the host's own directory, which is wherever the command that started
// it ran (a worktree since removed, say), and is recorded so a respawn
// and a reboot start it there again.
func defaultCwd() string {
	if home, err := os.UserHomeDir(); err == nil {
		if fi, err := os.Stat(home); err == nil && fi.IsDir() && filepath.IsAbs(home) {
			return home
		}
	}
	return "/"
}

// defaultName is the adapter's name, or the command's base name.
func defaultName(req *proto.SpawnReq) string {
	if req.Adapter != "" {
		return req.Adapter
	}
	// argv[0] is anything a client sent (an escape sequence, a newline):
	// the name must be one a user can type and a terminal can show.
	return panes.SafeName(filepath.Base(req.Argv[0]))
}

func (h *Server) nameTakenLocked(name string) bool {
	for _, p := range h.panes {
		nameLooks.Add(1)
		if p.name() == name {
			return true
		}
	}
	return false
}

// nameLooks counts the panes' names looked at, for tests.
var nameLooks atomic.Int64

// freeNameLocked returns base, or base-2, base-3... whichever is free.
// The names in use are read once: trying each candidate against every
// pane made the n-th shell's name cost n² looks (issue 12).
func (h *Server) freeNameLocked(base string) string {
	taken := make(map[string]bool, len(h.panes))
	for _, p := range h.panes {
		nameLooks.Add(1)
		taken[p.name()] = true
	}
	name := base
	for i := 2; taken[name]; i++ {
		name = base + "-" + strconv.Itoa(i)
	}
	return name
}

// forget drops a pane that never started.
func (h *Server) forget(p *pane) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i, q := range h.panes {
		if q == p {
			h.panes = append(h.panes[:i], h.panes[i+1:]...)
			break
		}
	}
	for n, q := range h.nonces {
		if q == p {
			delete(h.nonces, n)
		}
	}
}

// launch is what a pane's process was started with, held in memory only
// (never in agents.json: the environment may hold secrets and the argv
// credentials), so that a respawn under the same host runs as the pane
// first did.
type launch struct {
	argv        []string // as given, unredacted
	env         []string // KEY=VALUE; nil means the host's own
	allowSecret bool
}

// launchOf is the pane's launch, nil for a pane known only from
// agents.json.
func (p *pane) launchOf() *launch {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.launch
}

// spec is the supervisor spec for the pane's run of l in dir.
func (p *pane) spec(l *launch, dir string) supervisor.Spec {
	r := p.record()
	return supervisor.Spec{
		PaneID: p.id, Argv: l.argv, Dir: dir, Env: l.env, Token: p.token(),
		BeforeFork:      p.recordStarting,
		PTY:             &supervisor.PTYArm{Size: supervisor.Size{Cols: uint16(r.Size.Cols), Rows: uint16(r.Size.Rows)}, Output: p},
		Limits:          supervisor.Limits{Timeout: noneIfZero(r.Timeouts.Overall), IdleTimeout: noneIfZero(r.Timeouts.Idle)},
		AllowSecretArgs: l.allowSecret,
		OnExit:          p.exited,
	}
}

// token is the pane's token, made now for a pane recorded without one
// (by an older clowder).
func (p *pane) token() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.rec.Token == "" {
		p.rec.Token = supervisor.NewPaneToken()
	}
	return p.rec.Token
}

// recordStarting saves the pane as starting before its process starts:
// with the cgroup leaf it will run in, the token it will carry (spec) and
// the time before which none of its processes started, and without the
// identity of any earlier run. A host that dies before the run's pid is
// saved (started) leaves enough for the next one to find what it started
// (orphans.go). The save is volatile (no fsync): those processes do not
// outlive the machine, and the save after the start is durable. Should
// the write fail (a full disk), the spawn goes on
// and host status reports it.
func (p *pane) recordStarting(c supervisor.Containment) {
	since, err := supervisor.BootTicks()
	if err != nil {
		p.h.log.Printf("%s: %v; the processes of a run this host dies starting are found by their cgroup and token alone", p.id, err)
	}
	self, _ := supervisor.ReadIdentity(os.Getpid()) // best effort: no boot id reads as this boot
	p.mu.Lock()
	p.rec.State = persist.StateStarting
	p.rec.PID, p.rec.PIDStart, p.rec.PGID = 0, 0, 0
	p.rec.BootID, p.rec.Since, p.rec.Cgroup = self.BootID, since, c.Cgroup
	p.mu.Unlock()
	p.h.saveRegistryVolatile() // the next save, once it runs, is durable
	p.h.step("recorded")
}

// started records the run once Start returned.
func (p *pane) started(run *supervisor.Run) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.run = run
	id := run.Identity()
	p.rec.PID, p.rec.PIDStart, p.rec.BootID = id.PID, id.Start, id.BootID
	p.rec.PGID = run.PGID()
	p.rec.Argv = run.Argv() // redacted when secrets were allowed
	p.rec.Resumable = run.Resumable()
	p.rec.Cgroup = run.Containment().Cgroup
	if p.rec.State == persist.StateStarting {
		p.rec.State = persist.StateRunning
	}
	// Judged once the settle time passes even if it never prints: a pane
	// that prints nothing is not working for ever.
	p.lastOut = time.Now()
	p.armJudgeLocked()
	p.broadcastLocked()
}

// exited is the run's OnExit: the one final record.
func (p *pane) exited(e supervisor.Exit) {
	p.mu.Lock()
	p.rec.State = persist.StateExited
	p.rec.Exit = &persist.Exit{Code: e.Code, Signal: int(e.Signal), Reason: e.Reason, At: e.At}
	p.stopJudgeLocked()
	p.setAttentionLocked(panes.Exited, "exited")
	p.broadcastLocked()
	info := p.infoLocked()
	p.mu.Unlock()
	p.h.log.Printf("%s (%s) exited: %s", p.id, info.Name, e)
	p.h.events.publish(proto.PaneEvent{Kind: proto.EventExited, Pane: p.id, Info: &info})
	p.h.saveRegistrySoon(p.h.armIdle) // OnExit must not wait on the run; the registry write may take a while
}

// kill runs the kill ladder on the pane's tree and waits for its end. An
// orphaned pane (from an earlier host) is killed through its identity.
func (p *pane) kill(expected supervisor.Identity, grace time.Duration) (supervisor.Exit, error) {
	return p.killWith(expected, 0, grace)
}

// killWith is kill with sig as the ladder's first signal (0: SIGHUP and
// SIGTERM).
func (p *pane) killWith(expected supervisor.Identity, sig syscall.Signal, grace time.Duration) (supervisor.Exit, error) {
	p.mu.Lock()
	run, state, t := p.run, p.rec.State, p.tmux
	p.mu.Unlock()
	switch {
	case t != nil:
		return supervisor.Exit{}, p.tmuxKill(expected, sig, grace)
	case run != nil:
		if expected.IsZero() {
			expected = run.Identity()
		}
		e, err := run.KillWith(expected, sig, grace)
		return e, identityError(err)
	case state == persist.StateOrphaned:
		return supervisor.Exit{}, p.killOrphan(expected, sig, grace)
	}
	return supervisor.Exit{}, &proto.ErrorReply{Code: proto.CodeExited, Message: fmt.Sprintf("pane %s is not running (%s)", p.id, state)}
}

// identityError turns a refused signal into the protocol's error.
func identityError(err error) error {
	var mm *supervisor.MismatchError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &mm):
		return &proto.ErrorReply{Code: proto.CodeIdentity, Message: err.Error()}
	case errors.Is(err, supervisor.ErrProcessGone):
		return &proto.ErrorReply{Code: proto.CodeExited, Message: err.Error()}
	}
	return err
}

// rename gives p a new unique name, a durable change.
// The name is valid: RenameReq.Validate checked it.
func (h *Server) rename(p *pane, name string) error {
	h.mu.Lock()
	if p.name() != name && h.nameTakenLocked(name) {
		h.mu.Unlock()
		return &proto.ErrorReply{Code: proto.CodeConflict, Message: fmt.Sprintf("a pane is already named %q; choose another name", name)}
	}
	p.mu.Lock()
	p.rec.Name = name
	info := p.infoLocked()
	p.mu.Unlock()
	h.mu.Unlock()
	h.events.publish(proto.PaneEvent{Kind: proto.EventRenamed, Pane: p.id, Info: &info})
	h.saveRegistry()
	return nil
}

// remove kills a running pane and forgets it.
func (h *Server) remove(p *pane) error {
	if p.live() {
		if _, err := p.kill(supervisor.Identity{}, 0); err != nil && !errors.Is(err, &proto.ErrorReply{Code: proto.CodeExited}) && !p.tmuxLetGo(err) {
			return err
		}
	}
	h.forget(p)
	h.events.publish(proto.PaneEvent{Kind: proto.EventRemoved, Pane: p.id})
	h.saveRegistry()
	h.armIdle()
	return nil
}
