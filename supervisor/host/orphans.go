// Trees an earlier host left (docs/processes.md, "Orphans"). A host that
// dies with no client to hold its masters leaves its panes' processes
// behind. The next host finds them again from agents.json by identity
// (leader pid, start time, boot id), by the recorded cgroup leaf, by
// process group and session (a member found by number must carry the
// pane's CLOWDER_PANE_ID once its leader is gone), and by the pane's
// token in the environment of processes that started after its run (one
// scan of /proc for every pane). A pane recorded as starting, whose host
// died before it saved the pid, has no leader: its tree is what the leaf
// and the token find. A pane with any
// survivor is "orphaned", even when its leader is gone: it lists its
// survivors, `kill` and `rm` end them all through the kill ladder, and its
// end is seen at once through pidfds (exit reason lost-parent). Its screen
// is a read-only view of its processes from /proc: its terminal died with
// the old host, so its output cannot be shown and it takes no input.

package host

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"clowder/panes"
	"clowder/persist"
	"clowder/supervisor"
	"clowder/supervisor/proto"
)

// orphan is the tree an earlier host left, adopted by a pane.
type orphan struct {
	tree      *supervisor.AdoptedTree
	survivors []supervisor.Identity // under the pane's mu
	killing   bool                  // under the pane's mu: a kill is under way
}

// orphanSet runs the watchers of adopted trees and keeps the stale cgroup
// leaves to report.
type orphanSet struct {
	once   sync.Once
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu    sync.Mutex
	stale []string              // leaves of dead hosts that still hold processes
	scan  *supervisor.TokenScan // the start's scan for pane tokens, nil until needed
}

// context is the watchers' context, ended by stop.
func (s *orphanSet) context() context.Context {
	s.once.Do(func() { s.ctx, s.cancel = context.WithCancel(context.Background()) })
	return s.ctx
}

// stop ends every watcher and waits for them.
func (s *orphanSet) stop() {
	s.context()
	s.cancel()
	s.wg.Wait()
}

// run starts fn as a watcher.
func (s *orphanSet) run(fn func(context.Context)) {
	ctx := s.context()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		fn(ctx)
	}()
}

// staleLeaves removes the reported leaves that have emptied since, and
// returns those that still hold processes.
func (s *orphanSet) staleLeaves() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stale = slices.DeleteFunc(s.stale, func(leaf string) bool {
		err := syscall.Rmdir(leaf)
		return err == nil || err == syscall.ENOENT
	})
	return slices.Clone(s.stale)
}

// findSurvivors decides what a pane recorded as live is now: "orphaned",
// with the tree to adopt, while anything of its tree lives; else "lost"
// (it was running here) or exited with reason lost-parent (it was an
// orphan already, and died while no host watched).
func (h *Server) findSurvivors(rec *persist.PaneRecord) *supervisor.AdoptedTree {
	was := rec.State
	if was != persist.StateRunning && was != persist.StateStarting && was != persist.StateOrphaned {
		return nil
	}
	if (rec.PID > 0 || rec.Cgroup != "" || rec.Token != "") && sameBoot(rec.BootID) {
		tree := supervisor.AdoptTree(supervisor.TreeSpec{
			PaneID: rec.ID, PGID: rec.PGID, Cgroup: rec.Cgroup,
			Leader: recordedLeader(rec), Found: h.carriers(rec),
		})
		if !tree.Empty() {
			rec.State = persist.StateOrphaned
			return tree
		}
	}
	rec.State, rec.Exit = gone(was, rec.Exit)
	return nil
}

// recordedLeader is the identity of rec's leader, zero when the host died
// before it recorded one (state starting).
func recordedLeader(rec *persist.PaneRecord) supervisor.Identity {
	if rec.PID <= 0 {
		return supervisor.Identity{}
	}
	return supervisor.Identity{PID: rec.PID, Start: rec.PIDStart, BootID: rec.BootID}
}

// carriers are the live processes that carry rec's token and started at
// or after its run: from one scan of /proc for every pane, made when the
// first pane needs it (a host with no such pane makes none) and dropped
// once the registry is loaded (forgetScan).
func (h *Server) carriers(rec *persist.PaneRecord) []supervisor.Identity {
	if rec.Token == "" {
		return nil
	}
	s := &h.orphans
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.scan == nil {
		scan, err := supervisor.ScanPaneTokens()
		if err != nil {
			h.log.Printf("find the processes of earlier panes by their token: %v", err)
			scan = &supervisor.TokenScan{}
		}
		s.scan = scan
	}
	since := rec.Since
	if since == 0 {
		since = rec.PIDStart
	}
	return s.scan.Carriers(rec.Token, since)
}

// forgetScan drops the start's token scan: it describes the processes of
// that moment only.
func (s *orphanSet) forgetScan() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scan = nil
}

// gone is the state and exit of a recorded pane whose tree is gone.
func gone(was persist.State, exit *persist.Exit) (persist.State, *persist.Exit) {
	if exit != nil {
		return persist.StateLost, exit
	}
	if was == persist.StateOrphaned {
		return persist.StateExited, &persist.Exit{Code: -1, Reason: persist.ExitLostParent, At: time.Now()}
	}
	return persist.StateLost, &persist.Exit{Code: -1, Reason: persist.ExitLost, At: time.Now()}
}

// sameBoot reports whether boot (empty for old records) is this boot.
func sameBoot(boot string) bool {
	self, err := supervisor.ReadIdentity(os.Getpid())
	return boot == "" || err != nil || self.BootID == boot
}

// adoptOrphan makes p the owner of tree (nil: nothing to adopt): it gets
// its recorded size for the read-only view, and a watcher.
func (h *Server) adoptOrphan(p *pane, tree *supervisor.AdoptedTree) {
	if tree == nil {
		return
	}
	p.mu.Lock()
	p.orphan = &orphan{tree: tree}
	p.term.Resize(max(p.rec.Size.Cols, 20), max(p.rec.Size.Rows, 5))
	p.mu.Unlock()
	h.log.Printf("%s: orphaned tree of an earlier host (%s, cgroup %q)", p.id, leaderText(tree.Leader()), tree.Cgroup())
	h.orphans.run(func(ctx context.Context) {
		if tree.Watch(ctx, p.setSurvivors) == nil {
			p.orphanEnded(persist.ExitLostParent)
		}
	})
}

// setSurvivors records the live members of p's adopted tree and redraws
// its read-only view.
func (p *pane) setSurvivors(live []supervisor.Identity) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.orphan == nil || slices.Equal(p.orphan.survivors, live) {
		return
	}
	p.orphan.survivors = live
	_, _ = p.term.Write([]byte(orphanView(p.id, p.orphan.tree, live))) // never fails
	p.broadcastLocked()
}

// survivorsLocked lists the pids of an orphaned pane's live processes.
func (p *pane) survivorsLocked() []int {
	if p.orphan == nil || p.rec.State != persist.StateOrphaned {
		return nil
	}
	var pids []int
	for _, id := range p.orphan.survivors {
		pids = append(pids, id.PID)
	}
	return pids
}

// orphanView is the read-only screen of an orphaned pane, from /proc.
func orphanView(id string, tree *supervisor.AdoptedTree, live []supervisor.Identity) string {
	var b strings.Builder
	b.WriteString("\x1b[H\x1b[2J")
	fmt.Fprintf(&b, "clowder: %s is orphaned: read-only view from /proc\r\n", id)
	b.WriteString("The host that ran it died, and its terminal with it: its output\r\n")
	b.WriteString("cannot be shown and it takes no input.\r\n\r\n")
	switch {
	case tree.Leader().IsZero():
		b.WriteString("leader: none recorded (its host died while starting it)\r\n")
	case tree.LeaderAlive():
		fmt.Fprintf(&b, "leader pid %d: running\r\n", tree.Leader().PID)
	default:
		fmt.Fprintf(&b, "leader pid %d: exited\r\n", tree.Leader().PID)
	}
	for _, s := range live {
		fmt.Fprintf(&b, "  pid %-7d %s\r\n", s.PID, supervisor.CommandLine(s.PID))
	}
	fmt.Fprintf(&b, "\r\nclowder kill %s ends them all; clowder rm %s also forgets the pane.\r\n", id, id)
	return b.String()
}

// leaderText is a tree's leader for the log.
func leaderText(id supervisor.Identity) string {
	if id.IsZero() {
		return "no leader recorded"
	}
	return id.String()
}

// orphanEnded marks p exited once its adopted tree is empty: reason
// killed when a kill is under way, else why (lost-parent). Idempotent.
func (p *pane) orphanEnded(why persist.ExitReason) {
	p.mu.Lock()
	if p.rec.State != persist.StateOrphaned || p.orphan == nil {
		p.mu.Unlock()
		return
	}
	if p.orphan.killing {
		why = persist.ExitKilled
	}
	p.orphan.survivors = nil
	p.rec.State = persist.StateExited
	p.rec.Exit = &persist.Exit{Code: -1, Reason: why, At: time.Now()}
	p.setAttentionLocked(panes.Exited, "exited")
	p.broadcastLocked()
	info := p.infoLocked()
	tree := p.orphan.tree
	p.mu.Unlock()
	p.h.log.Printf("%s (%s) orphan ended: %s", p.id, info.Name, why)
	if err := tree.RemoveLeaf(); err != nil {
		p.h.log.Printf("%s: %v", p.id, err)
	}
	p.h.events.publish(proto.PaneEvent{Kind: proto.EventExited, Pane: p.id, Info: &info})
	p.h.background(p.h.saveRegistry)
}

// killOrphan ends an orphaned pane's whole tree with the kill ladder:
// sig (default SIGHUP+SIGTERM) to every member, grace, then SIGKILL
// through its cgroup leaf and to every member. expected, if given, must
// be the recorded leader.
func (p *pane) killOrphan(expected supervisor.Identity, sig syscall.Signal, grace time.Duration) error {
	p.mu.Lock()
	o := p.orphan
	p.mu.Unlock()
	switch {
	case o == nil:
		return &proto.ErrorReply{Code: proto.CodeExited, Message: fmt.Sprintf("pane %s has no process tree this host can find", p.id)}
	case !expected.IsZero() && expected != o.tree.Leader():
		return identityError(&supervisor.MismatchError{Op: "kill", Expected: expected, Actual: o.tree.Leader()})
	case o.tree.Empty(): // died before its watcher said so: the tree is dead, as kill promises
		p.orphanEnded(persist.ExitLostParent)
		return nil
	}
	p.mu.Lock()
	o.killing = true
	p.mu.Unlock()
	if grace <= 0 {
		grace = supervisor.DefaultLimits().Grace
	}
	rep := o.tree.Kill(sig, grace, supervisor.DefaultLimits().KillWait)
	if len(rep.Survivors) > 0 || !o.tree.Empty() {
		p.stopKilling()
		return fmt.Errorf("kill %s: %d processes survive SIGKILL (%v); see clowder ls --json", p.id, len(rep.Survivors), rep.Survivors)
	}
	p.orphanEnded(persist.ExitKilled)
	return nil
}

// orphanRuns refuses to respawn an orphaned pane while any process of its
// tree lives, not only its leader (a setsid grandchild; a tree whose host
// died before it recorded a leader): the new run would leave them
// untracked.
func (p *pane) orphanRuns() error {
	p.mu.Lock()
	o, state, name := p.orphan, p.rec.State, p.rec.Name
	p.mu.Unlock()
	if o == nil || state != persist.StateOrphaned || o.tree.Empty() {
		return nil
	}
	return &proto.ErrorReply{Code: proto.CodeBusy, Message: fmt.Sprintf(
		"pane %s (%s) is an orphan of an earlier host and %d of its processes still run (clowder ls --json lists them); kill them first with clowder kill %s, then respawn it",
		p.id, name, len(o.tree.Survivors()), p.id)}
}

// stopKilling clears the kill mark after a refused or failed kill.
func (p *pane) stopKilling() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.orphan != nil {
		p.orphan.killing = false
	}
}

// cleanDeadLeaves removes the empty cgroup leaves the host that wrote
// agents.json left (and their siblings of the same dead host), keeps the
// leaves of adopted trees, and reports those that still hold processes.
// It also removes the empty leaves of any other dead host in the same
// cgroup parent (one whose state dir is gone), but reports none of those:
// their processes may be another runtime dir's orphans.
func (h *Server) cleanDeadLeaves(recs []persist.PaneRecord) {
	keep := map[string]bool{}
	for _, p := range h.panes {
		if p.orphan != nil {
			keep[p.orphan.tree.Cgroup()] = true
		}
	}
	if swept, _ := supervisor.CleanDeadLeaves(h.spawner.DeadLeaves(), keep); len(swept) > 0 {
		h.log.Printf("removed %d empty cgroup leaves of dead hosts", len(swept))
	}
	var recorded []string
	for _, rec := range recs {
		if supervisor.ValidLeaf(rec.Cgroup, rec.ID) {
			recorded = append(recorded, rec.Cgroup)
		}
	}
	removed, busy := supervisor.CleanDeadLeaves(recorded, keep)
	if len(removed) > 0 {
		h.log.Printf("removed %d empty cgroup leaves of a dead host: %v", len(removed), removed)
	}
	if len(busy) > 0 {
		h.log.Printf("cgroup leaves of a dead host still hold processes of no pane: %v", busy)
	}
	h.orphans.mu.Lock()
	h.orphans.stale = busy
	h.orphans.mu.Unlock()
}

// signalOrphan sends sig to an orphaned pane's leader through its verified
// identity (expected, if given, must be the leader).
func (p *pane) signalOrphan(o *orphan, expected supervisor.Identity, sig syscall.Signal) error {
	if o.tree.Leader().IsZero() {
		return &proto.ErrorReply{Code: proto.CodeExited, Message: fmt.Sprintf(
			"pane %s has no recorded leader to signal: its host died while starting it; clowder kill %s ends its processes", p.id, p.id)}
	}
	if !expected.IsZero() && expected != o.tree.Leader() {
		return identityError(&supervisor.MismatchError{Op: "signal", Expected: expected, Actual: o.tree.Leader()})
	}
	return identityError(supervisor.SignalProcess(o.tree.Leader(), sig))
}

// orphanNoTerminal is the answer to an attach that wants an orphan's
// terminal: there is none, and what there is instead.
func orphanNoTerminal(id string) error {
	return &proto.ErrorReply{Code: proto.CodeExited, Message: fmt.Sprintf(
		"pane %s is orphaned: its terminal died with the host that started it, so it cannot be attached; "+
			"its screen is a read-only view of its processes from /proc (clowder capture %s); clowder kill %s ends them", id, id, id)}
}

// orphanSummary is host status's list of orphaned panes and their
// survivors, "pN: PID PID...".
func (h *Server) orphanSummary() []string {
	var out []string
	for _, p := range h.allPanes() {
		p.mu.Lock()
		pids := p.survivorsLocked()
		p.mu.Unlock()
		if len(pids) > 0 {
			out = append(out, fmt.Sprintf("%s: %s", p.id, strings.Trim(fmt.Sprint(pids), "[]")))
		}
	}
	return out
}
