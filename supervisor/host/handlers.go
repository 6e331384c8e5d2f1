// Request handlers: one small function per message type, each answering
// with exactly one reply. dispatch.go decides on which goroutine and
// in which order they run.

package host

import (
	"fmt"
	"os"
	"syscall"
	"time"

	"clowder/supervisor"
	"clowder/supervisor/proto"
)

// handle checks request id's fields, then runs its handler.
func (c *conn) handle(id uint32, m proto.Message) {
	if e, ok := m.(*proto.EscrowReq); ok {
		defer e.CloseFds() // whatever its handler did not take
	}
	if v, ok := m.(proto.Validator); ok {
		if err := v.Validate(); err != nil {
			c.fail(id, err) // every field is checked before the host acts (supervisor/proto/validate.go)
			return
		}
	}
	switch req := m.(type) {
	case *proto.ListReq:
		c.list(id, req)
	case *proto.SpawnReq:
		c.spawn(id, req)
	case *proto.SubscribeReq:
		c.subscribe(id, req)
	case *proto.UnsubscribeReq:
		c.unsubscribe(id, req)
	case *proto.EventsReq:
		c.eventsSub(id, req)
	default:
		c.handleOp(id, m)
	}
}

// handleOp handles the requests that act on one pane.
func (c *conn) handleOp(id uint32, m proto.Message) {
	switch req := m.(type) {
	case *proto.InputReq:
		c.input(id, req)
	case *proto.PasteReq:
		c.paste(id, req)
	case *proto.ResizeReq:
		c.resize(id, req)
	case *proto.SignalReq:
		c.signal(id, req)
	case *proto.KillReq:
		c.killPane(id, req)
	case *proto.RemoveReq:
		c.remove(id, req)
	case *proto.RenameReq:
		c.rename(id, req)
	case *proto.CaptureReq:
		c.capture(id, req)
	case *proto.HistoryReq:
		c.history(id, req)
	case *proto.WaitReq:
		c.wait(id, req)
	case *proto.HostStatusReq:
		c.status(id)
	case *proto.HostStopReq:
		c.stop(id, req)
	case *proto.SetColorsReq:
		c.setColors(id, req)
	case *proto.RespawnReq:
		c.respawnPane(id, req)
	case *proto.UpgradeReq:
		c.upgrade(id, req)
	case *proto.HookReq:
		c.hook(id, req)
	case *proto.EscrowReq:
		c.escrow(id, req)
	case *proto.AdoptTmuxReq:
		c.adoptTmux(id, req)
	default:
		c.reply(id, &proto.ErrorReply{Code: proto.CodeUnknownType, Message: fmt.Sprintf("the host does not take %s requests", m.MsgType())})
	}
}

func (c *conn) list(id uint32, req *proto.ListReq) {
	var out proto.PaneListReply
	if len(req.Panes) == 0 {
		for _, p := range c.h.allPanes() {
			out.Panes = append(out.Panes, p.info())
		}
		c.reply(id, &out)
		return
	}
	for _, ref := range req.Panes {
		p, err := c.h.find(ref)
		if err != nil {
			c.fail(id, err)
			return
		}
		out.Panes = append(out.Panes, p.info())
	}
	c.reply(id, &out)
}

// withPane finds the pane a request names, or replies with the error.
func (c *conn) withPane(id uint32, ref string, fn func(*pane)) {
	p, err := c.h.find(ref)
	if err != nil {
		c.fail(id, err)
		return
	}
	fn(p)
}

func (c *conn) input(id uint32, req *proto.InputReq) {
	c.withPane(id, req.Pane, func(p *pane) { c.replyErr(id, p.input(req)) })
}

func (c *conn) paste(id uint32, req *proto.PasteReq) {
	c.withPane(id, req.Pane, func(p *pane) {
		err := p.paste(c.ctx, req)
		c.notePastePart(p, req.Part, err)
		c.replyErr(id, err)
	})
}

// replyErr replies OK or the error.
func (c *conn) replyErr(id uint32, err error) {
	if err != nil {
		c.fail(id, err)
		return
	}
	c.reply(id, &proto.OKReply{})
}

func (c *conn) resize(id uint32, req *proto.ResizeReq) {
	c.withPane(id, req.Pane, func(p *pane) { c.replyErr(id, p.resize(int(req.Cols), int(req.Rows))) })
}

func (c *conn) signal(id uint32, req *proto.SignalReq) {
	c.withPane(id, req.Pane, func(p *pane) {
		sig, err := proto.ParseSignal(req.Signal)
		if err != nil {
			c.fail(id, &proto.ErrorReply{Code: proto.CodeBadRequest, Message: err.Error()})
			return
		}
		c.replyErr(id, p.signal(supervisor.Identity{PID: req.Pid, Start: req.PidStart, BootID: req.BootID}, sig))
	})
}

func (c *conn) killPane(id uint32, req *proto.KillReq) {
	c.withPane(id, req.Pane, func(p *pane) {
		var sig syscall.Signal // validated: 0 (the default ladder) or a known signal
		if req.Signal != "" {
			sig, _ = proto.ParseSignal(req.Signal)
		}
		_, err := p.killWith(supervisor.Identity{PID: req.Pid, Start: req.PidStart, BootID: req.BootID}, sig, time.Duration(req.GraceMS)*time.Millisecond)
		c.replyErr(id, err)
	})
}

func (c *conn) remove(id uint32, req *proto.RemoveReq) {
	c.withPane(id, req.Pane, func(p *pane) {
		c.replyErr(id, c.h.remove(p))
	})
}

func (c *conn) rename(id uint32, req *proto.RenameReq) {
	c.withPane(id, req.Pane, func(p *pane) {
		c.replyErr(id, c.h.rename(p, req.Name))
	})
}

func (c *conn) capture(id uint32, req *proto.CaptureReq) {
	c.withPane(id, req.Pane, func(p *pane) {
		if req.Scrollback != 0 {
			release, ok := c.bigReplySlot()
			if !ok {
				return // the connection ended while it waited: nobody to answer
			}
			defer release()
		}
		c.reply(id, p.captureAnswer(req))
	})
}

// maxBigReplies is how many captures with scrollback (each up to a frame,
// 16 MiB, in memory until written) the host builds and writes at once,
// all connections together; one connection has one at a time. Without a
// bound, a client pipelining hundreds of them and reading none grew the
// host past 20 GB until the kernel killed it, and every pane with it.
const maxBigReplies = 4

// bigReplySlot waits for a turn to build and write a big reply; release
// ends it. ok is false if the connection ended first.
func (c *conn) bigReplySlot() (release func(), ok bool) {
	select {
	case c.bigReply <- struct{}{}:
	case <-c.ctx.Done():
		return nil, false
	}
	select {
	case c.h.bigReplies <- struct{}{}:
		return func() { <-c.h.bigReplies; <-c.bigReply }, true
	case <-c.ctx.Done():
		<-c.bigReply
		return nil, false
	}
}

func (c *conn) history(id uint32, req *proto.HistoryReq) {
	c.withPane(id, req.Pane, func(p *pane) {
		c.reply(id, p.historyRows(req))
	})
}

// status answers host-status. The reply is built under h.mu and written
// after: a write may block on a client that stops reading, and must never
// hold a host lock (issue 7: one such client froze ls, new and status for
// everyone).
func (c *conn) status(id uint32) {
	h := c.h
	h.mu.Lock()
	r := &proto.HostInfoReply{
		Pid: os.Getpid(), Build: h.opts.Build, Protocol: proto.MaxVersion, StartedMS: h.started.UnixMilli(),
		Panes: len(h.panes), Clients: h.clients, Socket: h.opts.Paths.SocketFile(),
		Registry: h.regIssue, Containment: h.containment, Upgrade: h.upgradeNote,
	}
	h.mu.Unlock()
	r.StaleCgroups = h.orphans.staleLeaves()
	r.Orphans = h.orphanSummary()
	r.Escrow = h.holders.holders()
	c.reply(id, r)
}

// stop ends the host: refused while panes run unless forced, which kills
// them first.
func (c *conn) stop(id uint32, req *proto.HostStopReq) {
	h := c.h
	h.mu.Lock()
	live := h.livePanesLocked()
	h.mu.Unlock()
	if live > 0 && !req.Force {
		running := fmt.Sprintf("%d panes are running; kill them", live)
		if live == 1 {
			running = "1 pane is running; kill it"
		}
		c.reply(id, &proto.ErrorReply{Code: proto.CodeBusy, Message: running + " first or use host stop --force"})
		return
	}
	h.procs.stop() // the kill ladders run at once: on every processor
	h.killOurs()   // forced stop: errors are in each pane's exit record
	c.reply(id, &proto.OKReply{})
	h.requestStop()
}
