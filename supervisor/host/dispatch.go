// Dispatch: how a connection's requests run (docs/protocol.md, "Order and
// concurrency"). Input, paste and resize requests for one pane are applied
// in the order the connection sent them: each pane the connection writes to
// has a lane, a FIFO drained by one goroutine, so keys are never reordered,
// and a pane that does not read its input holds up only its own lane.
// Every other request runs on its own goroutine (a wait or a kill with a
// grace period must not hold up the rest), at most MaxConnRequests at once.

package host

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"clowder/supervisor/proto"
)

// dispatch routes one request frame read from the connection.
func (c *conn) dispatch(f proto.Frame) {
	c.h.lastRequest.Store(time.Now().UnixNano())
	m, err := f.Message()
	if errors.Is(err, proto.ErrUnknownType) {
		// A newer client's request: unknown-type, which it may ignore
		// (docs/protocol.md), not bad-request.
		c.reply(f.ReqID, &proto.ErrorReply{Code: proto.CodeUnknownType, Message: fmt.Sprintf("the host does not take message type %d", f.Type)})
		return
	}
	if err != nil {
		proto.CloseFds(f.Fds)
		c.reply(f.ReqID, &proto.ErrorReply{Code: proto.CodeBadRequest, Message: err.Error()}) // "decode list body: ...": it names the request already
		return
	}
	if e, ok := m.(*proto.EscrowReq); ok {
		e.Fds = f.Fds // its handler owns them (escrow.go)
	}
	if !c.h.window.admit(c, m) { // an upgrade drains: not executed (drain.go)
		if e, ok := m.(*proto.EscrowReq); ok {
			e.CloseFds()
		}
		c.reply(f.ReqID, errUpgrading)
		return
	}
	if ref, ok := orderedPane(m); ok {
		c.lanes.enqueue(c.laneKey(ref), f.ReqID, m)
		return
	}
	select {
	case c.slots <- struct{}{}:
	default:
		if e, ok := m.(*proto.EscrowReq); ok {
			e.CloseFds()
		}
		c.reply(f.ReqID, &proto.ErrorReply{Code: proto.CodeBusy, Message: fmt.Sprintf("%d requests are already running on this connection; wait for their replies before sending more", MaxConnRequests)})
		c.settled(m)
		return
	}
	c.active.Add(1)
	go func() {
		defer c.active.Done()
		defer func() { <-c.slots }()
		defer c.settled(m)
		c.run(f.ReqID, m)
	}()
}

// orderedPane returns the pane a request names if it must be applied in
// the order sent.
func orderedPane(m proto.Message) (string, bool) {
	switch req := m.(type) {
	case *proto.InputReq:
		return req.Pane, true
	case *proto.PasteReq:
		return req.Pane, true
	case *proto.ResizeReq:
		return req.Pane, true
	}
	return "", false
}

// laneKey is the pane a reference names, or the reference itself when it
// names none (the request then fails in its turn).
func (c *conn) laneKey(ref string) any {
	if p, err := c.h.find(ref); err == nil {
		return p
	}
	return ref
}

// run handles one request; a panic ends it with an internal error.
func (c *conn) run(id uint32, m proto.Message) {
	defer c.recoverRequest(id, m.MsgType())
	if hook := c.h.beforeRequest; hook != nil {
		hook(m)
	}
	c.handle(id, m)
}

// settled ends the count of an admitted request (drain.go).
func (c *conn) settled(m proto.Message) {
	if counted(m) {
		c.h.window.finished()
	}
}

// lanes are a connection's ordered requests, one FIFO per pane.
type lanes struct {
	c      *conn
	mu     sync.Mutex
	space  *sync.Cond // signalled when a queued request finishes
	queues map[any][]laneJob
	queued int
	bytes  int // the queued requests' queuedSize
}

// laneJob is one ordered request.
type laneJob struct {
	id   uint32
	m    proto.Message
	size int // queuedSize(m)
}

// queuedSize is the data an ordered request holds in the host's memory
// while it waits: its input bytes and key names, or its paste text.
func queuedSize(m proto.Message) int {
	switch req := m.(type) {
	case *proto.InputReq:
		n := len(req.Data)
		for _, k := range req.Keys {
			n += len(k)
		}
		return n
	case *proto.PasteReq:
		return len(req.Data) + len(req.Text)
	}
	return 0
}

func (l *lanes) init(c *conn) {
	l.c, l.queues = c, map[any][]laneJob{}
	l.space = sync.NewCond(&l.mu)
	context.AfterFunc(c.ctx, func() { // the connection or the host ends: a reader waiting for room stops
		l.mu.Lock()
		l.space.Broadcast()
		l.mu.Unlock()
	})
}

// enqueue appends a request to key's lane, starting the lane's goroutine
// if it has none. It waits while MaxConnQueued requests, or
// MaxConnQueuedBytes of their data, are queued: the reader stops, and the
// client's own writes wait (flow control, never a refusal). The wait ends
// because every queued request ends: input writes and replies have
// deadlines, or the host's stop, which drops the request unrun.
func (l *lanes) enqueue(key any, id uint32, m proto.Message) {
	size := queuedSize(m)
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.queued >= MaxConnQueued || (l.bytes > 0 && l.bytes+size > MaxConnQueuedBytes) {
		if l.c.ctx.Err() != nil {
			l.c.settled(m)
			return
		}
		l.space.Wait()
	}
	q, busy := l.queues[key]
	l.queues[key] = append(q, laneJob{id: id, m: m, size: size})
	l.queued++
	l.bytes += size
	if !busy {
		l.c.active.Add(1)
		go l.drain(key)
	}
}

// drain runs key's lane until it is empty, then forgets it.
func (l *lanes) drain(key any) {
	defer l.c.active.Done()
	for {
		job, ok := l.next(key)
		if !ok {
			return
		}
		switch {
		case l.c.serving.Err() != nil:
			// The host stops: a request that has not started is not run
			// (queued input to a pane that reads nothing held host stop up
			// for its write deadline, one request after another). A client
			// that hung up still has what it sent run, in order.
		case l.c.h.window.isDraining():
			l.c.reply(job.id, errUpgrading) // queued, never started: not executed (drain.go)
		default:
			l.c.run(job.id, job.m)
		}
		l.c.settled(job.m)
		l.mu.Lock()
		l.queued--
		l.bytes -= job.size
		l.space.Signal()
		l.mu.Unlock()
	}
}

// next pops key's oldest request; false (and the lane forgotten) when
// there is none.
func (l *lanes) next(key any) (laneJob, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	q := l.queues[key]
	if len(q) == 0 {
		delete(l.queues, key)
		return laneJob{}, false
	}
	job := q[0]
	q[0] = laneJob{}
	l.queues[key] = q[1:]
	return job, true
}
