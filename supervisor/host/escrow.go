// Escrow: every client that subscribed with want_fd holds a copy of the
// pane's PTY master. While a host lives it never reads it; if the host
// dies, that copy keeps the PTY open (no agent gets SIGHUP), and the
// client hands it to the next host with an escrow request. The host
// re-adopts the pane only after checking its identity: the request must
// name the recorded leader, the leader must still be that process (pid,
// start time, boot id, through a pidfd where the kernel has one), and its
// controlling terminal must be the PTY behind the master
// (supervisor.Spawner.Adopt). The pane then gets a fresh screen painted
// with what the client last drew, is read and watched again (its exit is
// "unverifiable": this host is not its parent), and is this host's own
// from then on: killed at a forced stop, kept in agents.json.
//
// The book of holders (which client holds which pane's master) is what
// host status shows.

package host

import (
	"fmt"
	"os"
	"sort"
	"sync"
	"time"

	"clowder/persist"
	"clowder/supervisor"
	"clowder/supervisor/proto"
	"clowder/vtgrid"
)

// escrowBook records which connection holds a master of which pane: one
// entry per subscription that passed one. Safe for concurrent use.
type escrowBook struct {
	mu   sync.Mutex
	subs map[*conn]map[uint32]string // connection → subscription id → pane id
}

// add records that subscription id of c passed pane's master.
func (b *escrowBook) add(c *conn, id uint32, pane string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.subs == nil {
		b.subs = map[*conn]map[uint32]string{}
	}
	if b.subs[c] == nil {
		b.subs[c] = map[uint32]string{}
	}
	b.subs[c][id] = pane
}

// remove forgets subscription id of c.
func (b *escrowBook) remove(c *conn, id uint32) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.subs[c], id)
	if len(b.subs[c]) == 0 {
		delete(b.subs, c)
	}
}

// holders lists each (pane, client) once, by pane then client pid.
func (b *escrowBook) holders() []proto.EscrowHolder {
	b.mu.Lock()
	seen := map[proto.EscrowHolder]bool{}
	for c, subs := range b.subs {
		for _, pane := range subs {
			seen[proto.EscrowHolder{Pane: pane, Client: c.peer.Client, Pid: c.peer.Pid}] = true
		}
	}
	b.mu.Unlock()
	out := make([]proto.EscrowHolder, 0, len(seen))
	for e := range seen {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Pane != out[j].Pane {
			return paneNumber(out[i].Pane) < paneNumber(out[j].Pane)
		}
		return out[i].Pid < out[j].Pid
	})
	return out
}

// escrow handles an escrow request: the client hands back a pane's master.
func (c *conn) escrow(id uint32, req *proto.EscrowReq) {
	defer req.CloseFds()
	if !c.fds {
		c.fail(id, &proto.ErrorReply{Code: proto.CodeUnsupported, Message: "this connection cannot carry file descriptors; hand terminals back over the host's unix socket"})
		return
	}
	frame, err := req.EscrowScreen()
	if err != nil {
		c.fail(id, err)
		return
	}
	c.withPane(id, req.Pane, func(p *pane) {
		master := os.NewFile(uintptr(req.Fds[0]), "/dev/ptmx")
		req.Fds = nil // the master is ours now
		existing, err := c.h.readopt(p, req, frame, master)
		if err != nil {
			c.h.log.Printf("escrow of %s from %s (pid %d) refused: %v", p.id, c.peer.Client, c.peer.Pid, err)
			c.fail(id, err)
			return
		}
		c.reply(id, &proto.EscrowedReply{Pane: p.info(), Existing: existing})
	})
}

// readopt takes p back from a client's master, or reports that this host
// runs it already (existing). It owns master: kept by the adopted run, or
// closed.
func (h *Server) readopt(p *pane, req *proto.EscrowReq, frame *proto.ScreenFrame, master *os.File) (existing bool, err error) {
	h.gate.starts.RLock() // an upgrade waits for this re-adoption (upgrade.go)
	defer h.gate.starts.RUnlock()
	h.escrowMu.Lock() // one re-adoption at a time: two clients may hand back the same pane
	defer h.escrowMu.Unlock()
	p.mu.Lock()
	rec, running := p.rec, p.runningLocked()
	p.mu.Unlock()
	if err := checkClaim(p.id, rec, req); err != nil {
		_ = master.Close() // refused: the client closes its own copy
		return false, err
	}
	if running {
		_ = master.Close() // ours already: the copy is not needed
		return true, nil
	}
	if rec.State != persist.StateOrphaned {
		_ = master.Close() // nothing to re-adopt
		return false, &proto.ErrorReply{Code: proto.CodeExited, Message: fmt.Sprintf(
			"pane %s is %s, not a live orphan; nothing to re-adopt, close your copy of its terminal", p.id, rec.State)}
	}
	run, err := h.spawner.Adopt(supervisor.AdoptSpec{
		PaneID: p.id, Identity: supervisor.Identity{PID: rec.PID, Start: rec.PIDStart, BootID: rec.BootID},
		Master: master, Argv: rec.Argv, Cgroup: rec.Cgroup, Output: p, OnExit: p.exited,
		Limits: supervisor.Limits{Timeout: timeoutLeft(rec, time.Now()), IdleTimeout: noneIfZero(rec.Timeouts.Idle)},
	})
	if err != nil {
		return false, &proto.ErrorReply{Code: proto.CodeIdentity, Message: fmt.Sprintf(
			"refusing the terminal handed back for pane %s: %v; close your copy", p.id, err)}
	}
	h.adopted(p, run, frame)
	return false, nil
}

// timeoutLeft is what remains of the pane's overall timeout (counted from
// its creation, not from the re-adoption); negative means none. One that
// ran out while no host watched fires at once.
func timeoutLeft(rec persist.PaneRecord, now time.Time) time.Duration {
	if rec.Timeouts.Overall <= 0 {
		return -1
	}
	return max(rec.Timeouts.Overall.Std()-now.Sub(rec.Created), time.Millisecond)
}

// checkClaim refuses a request that names another process than the
// pane's recorded leader.
func checkClaim(pane string, rec persist.PaneRecord, req *proto.EscrowReq) error {
	bootOK := req.BootID == "" || rec.BootID == "" || req.BootID == rec.BootID
	if req.Pid == rec.PID && req.PidStart == rec.PIDStart && bootOK {
		return nil
	}
	return &proto.ErrorReply{Code: proto.CodeIdentity, Message: fmt.Sprintf(
		"refusing the terminal handed back for pane %s: it names pid %d (start %d), but the pane's leader is pid %d (start %d); close your copy",
		pane, req.Pid, req.PidStart, rec.PID, rec.PIDStart)}
}

// adopted makes run p's run, with a screen painted from frame, starts
// reading and watching it, and tells everyone.
func (h *Server) adopted(p *pane, run *supervisor.Run, frame *proto.ScreenFrame) {
	h.mu.Lock()
	colors := h.currentColorsLocked()
	h.mu.Unlock()
	p.mu.Lock()
	p.restartLocked(run, frame, colors)
	info := p.infoLocked()
	p.mu.Unlock()
	run.StartAdopted()
	h.log.Printf("%s (%s) re-adopted from escrow: %s", p.id, info.Name, run.Identity())
	h.events.publish(proto.PaneEvent{Kind: proto.EventAdded, Pane: p.id, Info: &info})
	h.saveRegistry()
	h.armIdle()
}

// restartLocked turns an orphan's placeholder (a one-byte ring, a one-cell
// screen: adoptRecord) into a live pane's.
func (p *pane) restartLocked(run *supervisor.Run, frame *proto.ScreenFrame, colors vtgrid.Colors) {
	cols, rows := p.rec.Size.Cols, p.rec.Size.Rows
	if frame != nil {
		cols, rows = int(frame.Cols), int(frame.Rows)
	}
	p.ring.grow(int(p.h.opts.Config.Host.RingBytes))
	p.term = p.newTerm(cols, rows, colors)
	if frame != nil {
		_, _ = p.term.Write(repaint(frame)) // never fails
		p.replies = nil                     // a repaint asks nothing
	}
	p.run = run
	p.orphan = nil // its watcher finds the pane no longer orphaned and leaves its screen alone
	p.rec.State = persist.StateRunning
	p.lastOut = time.Now()
	p.attn.state = attnStarting
	p.armJudgeLocked()
	p.broadcastLocked()
}
