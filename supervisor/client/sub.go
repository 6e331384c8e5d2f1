// This file is the client's side of subscriptions: the pushes the reader
// goroutine receives for a subscribe or events request are queued on the
// Subscription and handed to its consumer by one pump goroutine, so a slow
// consumer never stalls the reader (and with it every other call).
//
// What a slow consumer costs:
//   - screen frames coalesce: a frame that arrives while an earlier one is
//     still queued is merged into it (a full frame replaces it, dirty rows
//     overwrite rows), so at most one screen frame waits, and it is always
//     the newest picture;
//   - raw output and events queue in order, up to MaxQueuedBytes of output
//     or MaxQueuedPushes pushes; past that the subscription ends with a
//     *SlowConsumerError naming the seq to resubscribe from, and the client
//     unsubscribes on the host. Nothing is ever silently skipped.
//
// A consumer that cannot be slow (it only files what it gets, as the TUI's
// mailbox does) takes the pushes without the pump: Hand makes a Handler
// the consumer, called by the reader goroutine itself, so a screen frame
// crosses no goroutine between the socket and the consumer.
//
// The host may end a subscription itself with an error frame (an events
// subscriber that fell too far behind, code dropped); Err then wraps
// ErrSubscriptionDropped, and the consumer subscribes again and lists the
// panes afresh.

package client

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"clowder/supervisor/proto"
)

// Queue bounds of one subscription (see the file comment).
const (
	MaxQueuedBytes  = 64 << 20
	MaxQueuedPushes = 1 << 16
)

// ErrSubscriptionDropped is wrapped by Subscription.Err when the host ended
// the subscription with an error (it fell too far behind, or the host
// failed on it): subscribe again and list the panes afresh.
var ErrSubscriptionDropped = errors.New("the host dropped the subscription")

// SlowConsumerError ends a subscription whose consumer fell further behind
// than the queue bounds allow. Raw output from ResumeSeq on was not
// delivered; a new subscription from that seq continues without loss if the
// ring still holds it.
type SlowConsumerError struct {
	Sub       uint32
	ResumeSeq uint64
}

// Error says what happened and what to do.
func (e *SlowConsumerError) Error() string {
	return fmt.Sprintf("subscription %d fell too far behind (more than %d MiB or %d pushes queued); resubscribe from seq %d",
		e.Sub, MaxQueuedBytes>>20, MaxQueuedPushes, e.ResumeSeq)
}

// Handler receives a subscription's pushes on the client's reader
// goroutine itself, with no goroutine between the socket and the consumer
// (Subscription.Hand). Both methods are called under the subscription's
// lock: they must not block, nor call the Subscription or the Client.
type Handler interface {
	// Push gets each push, in arrival order (screen frames are not
	// coalesced here: the handler merges them if it wants).
	Push(proto.Message)
	// End is called once, after the last Push: when the host ended the
	// subscription, Close was called, or the connection was lost. err is
	// what Err returns.
	End(err error)
}

// AfterPusher is a Handler that also wants a call after each Push, on
// the client's reader goroutine once the subscription's lock is
// released. There it may take longer than Push and call the Subscription
// (the TUI runs Update there to draw an echo when its loop is idle: no
// goroutine between the socket and the terminal, issue 12), but it must
// still not wait for the Client: the goroutine that calls it is the one
// that reads the Client's replies.
type AfterPusher interface {
	Handler
	AfterPush()
}

// Subscription is an open subscribe or events request. C delivers
// *OutputChunk, *ScreenFrame and *PaneEvent pushes in arrival order (screen
// frames coalesced) and is closed when the subscription ends: the host sent
// its last push, Close was called, the connection was lost, or the consumer
// fell too far behind; Err then says which. The consumer must read C until
// it is closed or call Close.
type Subscription struct {
	// Reply is the host's answer to the subscribe (zero for events).
	Reply proto.SubscribedReply
	// Master is the PTY master dup when the subscribe asked want_fd and the
	// host sent it, else nil, kept out of the runtime's poller (Master).
	// The Subscription owns it: Close closes it.
	Master *Master
	// C delivers the pushes.
	C <-chan proto.Message

	id   uint32
	c    *Client
	out  chan proto.Message
	wake chan struct{} // capacity 1: "the queue changed"
	stop chan struct{} // closed by Close or when abandoned
	// handed is closed by Hand: the pump puts back what it holds and
	// stops; pumped is closed when the pump has stopped.
	handed chan struct{}
	pumped chan struct{}

	mu       sync.Mutex
	queue    []proto.Message
	screenAt int // index in queue of the queued screen frame, -1 if none
	bytes    int
	nextSeq  uint64 // seq after the last raw byte queued
	ended    bool
	err      error
	stopped  bool
	open     bool    // the host holds the subscription open
	handing  bool    // Hand was called: the pump takes nothing more
	handler  Handler // set by Hand: the reader delivers to it directly
	finished bool    // the handler's End was called
}

// newSubscription makes a subscription for request id and starts its pump.
func newSubscription(c *Client, id uint32, fromSeq uint64) *Subscription {
	s := &Subscription{id: id, c: c, out: make(chan proto.Message), wake: make(chan struct{}, 1),
		stop: make(chan struct{}), handed: make(chan struct{}), pumped: make(chan struct{}),
		screenAt: -1, nextSeq: fromSeq}
	s.C = s.out
	go s.pump() // exits when the subscription ends and is drained, or on stop
	return s
}

// ID is the subscription's request id, as UnsubscribeReq.Sub wants it.
func (s *Subscription) ID() uint32 { return s.id }

// Err says why C was closed: nil when the host ended the subscription or
// Close was called, else the lost connection, a *SlowConsumerError, or an
// error wrapping ErrSubscriptionDropped (and the host's *ErrorReply).
func (s *Subscription) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Close stops delivery (C is closed soon after, queued pushes dropped),
// closes Master, and unsubscribes on the host if the subscription is open
// there (if its reply is still to come, the client unsubscribes when it
// does). Idempotent.
func (s *Subscription) Close() error {
	s.mu.Lock()
	first := !s.stopped
	s.stopped, s.ended, s.queue = true, true, nil
	open := s.open
	s.open = false
	s.finishLocked()
	s.mu.Unlock()
	if !first {
		return nil
	}
	close(s.stop)
	if s.Master != nil {
		_ = s.Master.Close() // best effort: a dup the host no longer needs
	}
	if !open || s.c.Err() != nil {
		return nil // its connection ended, and the subscription with it: an unsubscribe would only wait for a host
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.c.Unsubscribe(ctx, s.id); err != nil && s.c.Err() == nil {
		return err
	}
	return nil
}

// replied records the host's answer to the subscribe request. The reader
// calls it before any push of the subscription, which the host sends only
// after the reply.
func (s *Subscription) replied(err error) {
	if err != nil {
		s.c.dropSub(s.id)
		s.end(nil)
		return
	}
	s.mu.Lock()
	late := s.stopped // closed (or its call cancelled) before the reply came
	s.open = !late
	s.mu.Unlock()
	if late {
		s.c.unsubscribeLater(s.id)
	}
}

// hostEnded records the host's last push (FlagEnd) or a lost connection.
func (s *Subscription) hostEnded(err error) {
	s.mu.Lock()
	s.open = false
	s.mu.Unlock()
	s.end(err)
}

// push queues a message from the reader goroutine; it never blocks. The
// host's last frame is not delivered: ok ends the subscription cleanly
// (hostEnded follows), and an error ends it with Err returning it.
func (s *Subscription) push(m proto.Message) {
	switch e := m.(type) {
	case *proto.OKReply:
		return
	case *proto.ErrorReply:
		s.end(fmt.Errorf("subscription %d: %w: %w", s.id, ErrSubscriptionDropped, e))
		return
	}
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		return
	}
	if h := s.handler; h != nil { // no queue, no pump: straight to the consumer
		h.Push(m)
		s.mu.Unlock()
		if a, ok := h.(AfterPusher); ok {
			a.AfterPush()
		}
		return
	}
	s.enqueue(m)
	var over error
	if s.bytes > MaxQueuedBytes || len(s.queue) > MaxQueuedPushes {
		over = &SlowConsumerError{Sub: s.id, ResumeSeq: s.firstQueuedSeq()}
	}
	s.mu.Unlock()
	if over != nil {
		s.fail(over)
	}
	s.signal()
}

// fail ends the subscription here with err, dropping what is queued, and
// asks the host to end it too.
func (s *Subscription) fail(err error) {
	s.mu.Lock()
	open := s.open
	if !s.ended {
		s.ended, s.err = true, err
	}
	s.queue, s.screenAt, s.bytes, s.open = nil, -1, 0, false
	s.finishLocked()
	s.mu.Unlock()
	s.c.dropSub(s.id)
	if open {
		s.c.unsubscribeLater(s.id)
	}
	s.signal()
}

// enqueue appends m, merging a screen frame into the one already queued.
func (s *Subscription) enqueue(m proto.Message) {
	switch v := m.(type) {
	case *proto.ScreenFrame:
		if s.screenAt >= 0 {
			s.queue[s.screenAt] = mergeFrames(s.queue[s.screenAt].(*proto.ScreenFrame), v)
			return
		}
		s.screenAt = len(s.queue)
	case *proto.OutputChunk:
		s.bytes += len(v.Data)
		s.nextSeq = v.Seq + uint64(len(v.Data))
	}
	s.queue = append(s.queue, m)
}

// firstQueuedSeq is the seq of the oldest undelivered raw byte.
func (s *Subscription) firstQueuedSeq() uint64 {
	for _, m := range s.queue {
		if c, ok := m.(*proto.OutputChunk); ok {
			return c.Seq - c.Gap
		}
	}
	return s.nextSeq
}

// end marks the subscription over; the pump closes C once the queue is
// drained. The first cause wins.
func (s *Subscription) end(err error) {
	s.mu.Lock()
	if !s.ended {
		s.ended, s.err = true, err
	}
	s.finishLocked()
	s.mu.Unlock()
	s.signal()
}

// signal wakes the pump without blocking.
func (s *Subscription) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// pump is the delivery goroutine: it hands queued pushes to C and closes C
// when the subscription has ended and the queue is empty, or on stop.
func (s *Subscription) pump() {
	defer close(s.pumped)
	defer close(s.out)
	for {
		m, ok := s.next()
		if !ok {
			return
		}
		select {
		case s.out <- m:
		case <-s.stop:
			return
		case <-s.handed:
			s.putBack(m)
			return
		}
	}
}

// putBack returns m, which the pump took but did not deliver, to the head
// of the queue.
func (s *Subscription) putBack(m proto.Message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append([]proto.Message{m}, s.queue...)
	if s.screenAt >= 0 {
		s.screenAt++
	}
	if c, ok := m.(*proto.OutputChunk); ok {
		s.bytes += len(c.Data)
	}
}

// Hand makes h the subscription's consumer in place of C: what is queued
// goes to h at once, in order, and every later push goes to h from the
// client's reader goroutine as it arrives, so no goroutine stands between
// the socket and h (issue 12: one hop fewer for every screen frame). C is
// closed and must not be read once Hand was called. Nothing is queued from
// then on, so the queue bounds no longer apply: h must keep up on its own
// (merging screen frames, as the TUI's mailbox does). If the subscription
// has already ended, h gets End at once. Call it at most once.
func (s *Subscription) Hand(h Handler) {
	s.mu.Lock()
	again := s.handing
	s.handing = true
	s.mu.Unlock()
	if again {
		return
	}
	close(s.handed)
	<-s.pumped // the pump has put back what it held
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handler = h
	if !s.stopped {
		for _, m := range s.queue {
			h.Push(m)
		}
	}
	s.queue, s.screenAt, s.bytes = nil, -1, 0
	s.finishLocked()
}

// finishLocked calls the handler's End once the subscription has ended;
// s.mu is held.
func (s *Subscription) finishLocked() {
	if s.handler == nil || !s.ended || s.finished {
		return
	}
	s.finished = true
	s.handler.End(s.err)
}

// next waits for the next queued push; false means deliver no more.
func (s *Subscription) next() (proto.Message, bool) {
	for {
		s.mu.Lock()
		if s.stopped || s.handing {
			s.mu.Unlock()
			return nil, false
		}
		if len(s.queue) > 0 {
			m := s.dequeue()
			s.mu.Unlock()
			return m, true
		}
		ended := s.ended
		s.mu.Unlock()
		if ended {
			return nil, false
		}
		select {
		case <-s.wake:
		case <-s.stop:
			return nil, false
		case <-s.handed:
			return nil, false
		}
	}
}

// dequeue pops the head of the queue; s.mu is held.
func (s *Subscription) dequeue() proto.Message {
	m := s.queue[0]
	s.queue[0] = nil
	s.queue = s.queue[1:]
	if s.screenAt >= 0 {
		s.screenAt--
	}
	if c, ok := m.(*proto.OutputChunk); ok {
		s.bytes -= len(c.Data)
	}
	return m
}

// mergeFrames folds newer into older, both queued for the same consumer:
// the result shows what newer shows. A full or resized newer frame
// replaces older; otherwise newer's dirty rows overwrite older's rows and
// its header (seq, cursor, modes) wins.
func mergeFrames(older, newer *proto.ScreenFrame) *proto.ScreenFrame {
	if newer.Full || newer.Cols != older.Cols || newer.Rows != older.Rows {
		return newer
	}
	merged := *newer
	merged.Full = older.Full
	merged.Lines = make([]proto.FrameRow, 0, len(older.Lines)+len(newer.Lines))
	i, j := 0, 0
	for i < len(older.Lines) || j < len(newer.Lines) {
		switch {
		case j == len(newer.Lines) || (i < len(older.Lines) && older.Lines[i].Y < newer.Lines[j].Y):
			merged.Lines = append(merged.Lines, older.Lines[i])
			i++
		case i == len(older.Lines) || newer.Lines[j].Y < older.Lines[i].Y:
			merged.Lines = append(merged.Lines, newer.Lines[j])
			j++
		default: // same row: the newer one wins
			merged.Lines = append(merged.Lines, newer.Lines[j])
			i, j = i+1, j+1
		}
	}
	return &merged
}
