// Subscriptions: screen frames and raw output pushed to a client. Each runs
// in its own goroutine, woken by the pane's change broadcast; it never holds
// the pane lock while writing to the socket, so a slow client only delays
// itself. A screen subscriber that falls behind skips to the newest screen
// (a resync, not lost output); a raw subscriber reads the ring from its own
// sequence number and is told of a gap if the ring moved past it.

package host

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"time"

	"clowder/persist"
	"clowder/supervisor/proto"
	"clowder/vtgrid"
)

// rawChunk bounds one output push.
const rawChunk = 64 << 10

func (c *conn) subscribe(id uint32, req *proto.SubscribeReq) {
	c.withPane(id, req.Pane, func(p *pane) {
		start, end := p.ring.Bounds()
		from := req.FromSeq
		if req.FromEnd || from > end { // past the end: nothing would come until the ring got there
			from = end
		}
		ctx, stop := context.WithCancel(c.ctx)
		if err := c.addSub(id, stop, req.WantFd); err != nil {
			stop()
			c.fail(id, err)
			return
		}
		var fds []int
		if req.WantFd {
			f, err := c.masterFor(p)
			if err != nil {
				c.endSub(id)
				c.fail(id, err)
				return
			}
			if f != nil { // none for a tmux pane: its input goes through the host
				defer f.Close() // the kernel gave the client its own copy
				fds = []int{int(f.Fd())}
				c.h.holders.add(c, id, p.id)
			}
		}
		p.watchers.Add(1) // before the reply: output the client causes next finds it watched
		c.reply(id, &proto.SubscribedReply{Pane: p.id, Seq: end, Oldest: start, Fd: len(fds) > 0}, fds...)
		c.active.Add(1)
		c.h.gate.subStarted()
		go func() {
			defer c.active.Done()
			defer c.h.gate.subEnded()
			defer p.watchers.Add(-1)
			defer c.endSub(id)
			defer c.recoverPush(id)
			c.streamPane(ctx, id, p, req, from)
		}()
	})
}

// recoverPush ends a subscription whose pusher panicked with an error end
// frame, and logs the stack.
func (c *conn) recoverPush(id uint32) {
	v := recover()
	if v == nil {
		return
	}
	c.h.log.Printf("panic in subscription %d: %v\n%s", id, v, debug.Stack())
	_ = c.push(id, proto.FlagEnd, &proto.ErrorReply{Code: proto.CodeInternal, Message: fmt.Sprintf("the host failed on this subscription (%v); subscribe again", v)}) // best effort
}

// masterFor dups the pane's PTY master for a client that can take it;
// nil for a pane adopted from tmux, whose terminal is tmux's.
func (c *conn) masterFor(p *pane) (*os.File, error) {
	if p.tmuxOf() != nil {
		return nil, nil
	}
	if !c.fds {
		return nil, &proto.ErrorReply{Code: proto.CodeUnsupported, Message: "this connection cannot carry file descriptors; subscribe without want_fd and send input as messages"}
	}
	p.mu.Lock()
	run, running, orphaned := p.run, p.runningLocked(), p.orphan != nil && p.rec.State == persist.StateOrphaned
	p.mu.Unlock()
	if orphaned {
		return nil, orphanNoTerminal(p.id)
	}
	if !running {
		return nil, &proto.ErrorReply{Code: proto.CodeExited, Message: fmt.Sprintf("pane %s is not running; it has no terminal to pass", p.id)}
	}
	return run.DupMaster()
}

// streamPane pushes until ctx ends, then sends the end marker.
func (c *conn) streamPane(ctx context.Context, id uint32, p *pane, req *proto.SubscribeReq, seq uint64) {
	ss := newScreenSub(c, id)
	defer ss.end() // also when a push panics: recoverPush's end frame is the last
	watch := p.watch
	if _, ok := c.fc.(tryWriter); ok && req.Screen && !req.Raw {
		p.addEchoSub(ss) // raw chunks and frames of one subscription stay on one goroutine
		defer p.removeEchoSub(ss)
		watch = func() <-chan struct{} { return ss.wake } // woken for what the reader did not send
	}
	var buf []byte
	if req.Raw {
		buf = make([]byte, rawChunk) // screen-only subscribers (the TUI) need none
	}
	upgrading := c.h.gate.upgrading()
	settle := c.h.screenFrameSettle()
	var due <-chan time.Time   // the paced frame's turn; nil when none waits
	var quiet <-chan time.Time // while a frame waits: when to check whether the pane went quiet
	for {
		changed := watch()
		var err error
		if req.Raw {
			seq, err = c.pushRaw(id, p, buf, seq)
		}
		if req.Screen && err == nil {
			var wait time.Duration
			wait, err = ss.pushScreen(p)
			if wait > 0 {
				if due == nil {
					due, quiet = time.After(wait), time.After(settle)
				}
				if !req.Raw {
					changed = nil // the frame at due carries every change until then
				}
			}
		}
		if err != nil {
			return
		}
		select {
		case <-ctx.Done():
			ss.end()
			_ = c.push(id, proto.FlagEnd, &proto.OKReply{}) // best effort: the client may be gone
			return
		case <-upgrading:
			ss.end()
			c.pushUpgrading(id)
			return
		case <-changed:
			c.h.screenWakes.Add(1)
		case <-due:
			due, quiet = nil, nil
		case <-quiet:
			quiet = ss.flushIfQuiet(p, settle)
			if quiet == nil {
				due = nil
			}
		}
	}
}

// flushIfQuiet applies the flush rule to a paced frame: if the pane has
// been quiet for settle, the frame may go now (nil is returned); else the
// returned channel fires when it will have been, if nothing comes.
func (ss *screenSub) flushIfQuiet(p *pane, settle time.Duration) <-chan time.Time {
	q := p.quietFor(time.Now())
	if q >= settle {
		ss.mu.Lock()
		ss.pace.flush()
		ss.mu.Unlock()
		return nil
	}
	return time.After(settle - q)
}

// pushRaw sends everything in the ring from seq; it returns the next seq.
func (c *conn) pushRaw(id uint32, p *pane, buf []byte, seq uint64) (uint64, error) {
	for {
		n, from, next := p.ring.ReadAt(buf, seq)
		if n == 0 {
			return seq, nil
		}
		if err := c.push(id, 0, &proto.OutputChunk{Pane: p.id, Seq: from, Gap: from - seq, Data: buf[:n]}); err != nil {
			return seq, err
		}
		seq = next
	}
}

// pushScreen sends the rows that changed since the last frame, if any,
// unless the pacing makes it wait: it returns how long then. It holds the
// rows while the program is inside a synchronized update (see syncHold).
func (ss *screenSub) pushScreen(p *pane) (time.Duration, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.ended {
		return 0, nil
	}
	if wait := ss.pace.wait(time.Now()); wait > 0 {
		return wait, nil
	}
	p.mu.Lock()
	s := p.term.Snapshot()
	_, seq := p.ring.Bounds()
	p.mu.Unlock()
	if held, started := ss.hold.held(s, time.Now()); held {
		if started {
			p.wakeAfter(syncHoldMax)
		}
		return 0, nil
	}
	f := screenFrame(p.id, seq, s, ss.last)
	if !f.Full && len(f.Lines) == 0 && ss.last != nil && sameCursor(s, ss.last) {
		return 0, nil
	}
	ss.pace.sent(f, time.Now())
	ss.last, ss.seq = s, seq
	return 0, ss.c.push(ss.id, 0, f)
}

func sameCursor(a, b *vtgrid.Snapshot) bool {
	ax, ay, av := a.Cursor()
	bx, by, bv := b.Cursor()
	return ax == bx && ay == by && av == bv && a.Modes() == b.Modes()
}

func (c *conn) unsubscribe(id uint32, req *proto.UnsubscribeReq) {
	if !c.endSub(req.Sub) {
		c.reply(id, &proto.ErrorReply{Code: proto.CodeNotFound, Message: fmt.Sprintf("no subscription %d on this connection", req.Sub)})
		return
	}
	c.reply(id, &proto.OKReply{})
}

// eventsSub streams pane events until unsubscribed.
func (c *conn) eventsSub(id uint32, req *proto.EventsReq) {
	var filter map[string]bool
	for _, ref := range req.Panes {
		p, err := c.h.find(ref)
		if err != nil {
			c.fail(id, err)
			return
		}
		if filter == nil {
			filter = map[string]bool{}
		}
		filter[p.id] = true
	}
	ctx, stop := context.WithCancel(c.ctx)
	if err := c.addSub(id, stop, false); err != nil {
		stop()
		c.fail(id, err)
		return
	}
	sub := c.h.events.subscribe(filter)
	c.reply(id, &proto.OKReply{})
	c.active.Add(1)
	c.h.gate.subStarted()
	go func() {
		defer c.active.Done()
		defer c.h.gate.subEnded()
		defer c.endSub(id)
		defer c.h.events.unsubscribe(sub)
		defer c.recoverPush(id)
		c.pushEvents(ctx, id, sub)
	}()
}

// pushEvents sends sub's coalesced events until ctx ends or the host
// drops it, then the end frame: OK, or the error saying it was dropped.
func (c *conn) pushEvents(ctx context.Context, id uint32, sub *eventSub) {
	upgrading := c.h.gate.upgrading()
	for {
		select {
		case <-ctx.Done():
			_ = c.push(id, proto.FlagEnd, &proto.OKReply{}) // best effort
			return
		case <-upgrading:
			c.pushUpgrading(id)
			return
		case <-sub.wake:
		}
		events, dropped := sub.take()
		for i := range events {
			if c.push(id, 0, &events[i]) != nil {
				return
			}
		}
		if dropped {
			c.h.log.Printf("events subscription %d fell more than %d changes behind; dropped it", id, sub.limit)
			_ = c.push(id, proto.FlagEnd, &proto.ErrorReply{Code: proto.CodeDropped, Message: fmt.Sprintf("this events subscription fell more than %d changes behind and was dropped; subscribe again and list the panes", sub.limit)}) // best effort
			return
		}
	}
}
