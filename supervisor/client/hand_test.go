//go:build linux

package client

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"clowder/supervisor/proto"
)

// handRecorder is a Handler that keeps what it got, and for each push
// whether it ran on the client's reader goroutine.
type handRecorder struct {
	mu       sync.Mutex
	data     []string
	onReader []bool
	ends     []error
	ended    chan struct{}
}

func newHandRecorder() *handRecorder { return &handRecorder{ended: make(chan struct{})} }

func (h *handRecorder) Push(m proto.Message) {
	buf := make([]byte, 64<<10)
	stack := string(buf[:runtime.Stack(buf, false)])
	h.mu.Lock()
	defer h.mu.Unlock()
	h.data = append(h.data, string(m.(*proto.OutputChunk).Data))
	h.onReader = append(h.onReader, strings.Contains(stack, "(*Client).readLoop"))
}

func (h *handRecorder) End(err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ends = append(h.ends, err)
	if len(h.ends) == 1 {
		close(h.ended)
	}
}

// waitEnd waits for End with a generous deadline.
func (h *handRecorder) waitEnd(t *testing.T) {
	t.Helper()
	select {
	case <-h.ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the handler's End never came")
	}
}

// subscribeFake opens a raw subscription on the fake server.
func subscribeFake(t *testing.T, c *Client, srv *fakeServer) (*Subscription, uint32) {
	t.Helper()
	subc := make(chan *Subscription, 1)
	go func() {
		s, err := c.Subscribe(context.Background(), proto.SubscribeReq{Pane: "p1", Raw: true})
		if err != nil {
			t.Error(err)
		}
		subc <- s
	}()
	f, _ := srv.next()
	srv.reply(f.ReqID, proto.SubscribedReply{Pane: "p1"})
	return <-subc, f.ReqID
}

// roundTrip makes a call the fake answers, so that every push the server
// sent before it has been through the client's reader.
func roundTrip(t *testing.T, c *Client, srv *fakeServer) {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		_, _, err := c.Call(context.Background(), proto.ListReq{})
		done <- err
	}()
	f, _ := srv.next()
	srv.reply(f.ReqID, proto.OKReply{})
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestAHandedSubscriptionDeliversOnTheReadersGoroutine pins issue 12's
// hop count: once handed to a Handler, a push goes from the socket to the
// consumer on the client's reader goroutine (before, the reader queued it
// and a pump goroutine handed it on, one goroutine hop per frame). What
// was queued before Hand comes first, in order, and End comes once, last.
func TestAHandedSubscriptionDeliversOnTheReadersGoroutine(t *testing.T) {
	c, srv := clientPair(t)
	sub, id := subscribeFake(t, c, srv)
	srv.push(id, proto.OutputChunk{Pane: "p1", Seq: 0, Data: []byte("a")})
	srv.push(id, proto.OutputChunk{Pane: "p1", Seq: 1, Data: []byte("b")})
	srv.push(id, proto.OutputChunk{Pane: "p1", Seq: 2, Data: []byte("c")})
	roundTrip(t, c, srv) // a, b and c are queued (or one is in the pump's hand)
	h := newHandRecorder()
	sub.Hand(h)
	srv.push(id, proto.OutputChunk{Pane: "p1", Seq: 3, Data: []byte("d")})
	srv.endSub(id, proto.OutputChunk{Pane: "p1", Seq: 4, Data: []byte("e")})
	h.waitEnd(t)
	h.mu.Lock()
	defer h.mu.Unlock()
	if got := strings.Join(h.data, ""); got != "abcde" {
		t.Errorf("pushes %q, want abcde in order", got)
	}
	for i, on := range h.onReader {
		if i >= 3 && !on {
			t.Errorf("push %d (%q) was not delivered on the client's reader goroutine", i, h.data[i])
		}
	}
	if len(h.ends) != 1 || h.ends[0] != nil {
		t.Errorf("End calls %v, want one with nil", h.ends)
	}
	if _, open := <-sub.C; open {
		t.Error("C delivered a push after Hand")
	}
}

// TestAHandedSubscriptionEndsOnceWhenClosed: Close ends a handed
// subscription with one End(nil); nothing is pushed after it.
func TestAHandedSubscriptionEndsOnceWhenClosed(t *testing.T) {
	c, srv := clientPair(t)
	sub, id := subscribeFake(t, c, srv)
	h := newHandRecorder()
	sub.Hand(h)
	srv.push(id, proto.OutputChunk{Pane: "p1", Seq: 0, Data: []byte("a")})
	roundTrip(t, c, srv)
	closed := make(chan error, 1)
	go func() { closed <- sub.Close() }()
	f, _ := srv.next() // the unsubscribe
	srv.reply(f.ReqID, proto.OKReply{})
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	srv.push(id, proto.OutputChunk{Pane: "p1", Seq: 1, Data: []byte("late")})
	roundTrip(t, c, srv)
	h.mu.Lock()
	defer h.mu.Unlock()
	if got := strings.Join(h.data, ""); got != "a" {
		t.Errorf("pushes %q, want only a (nothing after Close)", got)
	}
	if len(h.ends) != 1 || h.ends[0] != nil {
		t.Errorf("End calls %v, want one with nil", h.ends)
	}
}

// TestAHandedSubscriptionEndsWithTheLostConnection: the host hanging up
// ends a handed subscription with an error matching ErrConnectionLost.
func TestAHandedSubscriptionEndsWithTheLostConnection(t *testing.T) {
	c, srv := clientPair(t)
	sub, _ := subscribeFake(t, c, srv)
	h := newHandRecorder()
	sub.Hand(h)
	srv.hangUp()
	h.waitEnd(t)
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.ends) != 1 || !errors.Is(h.ends[0], ErrConnectionLost) {
		t.Errorf("End calls %v, want one with a lost connection", h.ends)
	}
}

// TestHandingAnEndedSubscriptionEndsAtOnce: a subscription the host ended
// before Hand delivers what it held, then End.
func TestHandingAnEndedSubscriptionEndsAtOnce(t *testing.T) {
	c, srv := clientPair(t)
	sub, id := subscribeFake(t, c, srv)
	srv.endSub(id, proto.OutputChunk{Pane: "p1", Seq: 0, Data: []byte("last")})
	roundTrip(t, c, srv)
	h := newHandRecorder()
	sub.Hand(h)
	h.waitEnd(t)
	h.mu.Lock()
	defer h.mu.Unlock()
	if got := strings.Join(h.data, ""); got != "last" || len(h.ends) != 1 || h.ends[0] != nil {
		t.Errorf("pushes %q, End calls %v; want last, then one End(nil)", got, h.ends)
	}
}

// afterRecorder is a handRecorder that is an AfterPusher: after each
// push it asks the subscription its error, which takes the
// subscription's lock (a call under it would deadlock), and notes that
// it ran on the client's reader goroutine.
type afterRecorder struct {
	*handRecorder
	sub      *Subscription
	afters   chan bool // one per AfterPush: on the reader's goroutine
	stackBuf []byte
}

func (a *afterRecorder) AfterPush() {
	_ = a.sub.Err()
	n := runtime.Stack(a.stackBuf, false)
	a.afters <- strings.Contains(string(a.stackBuf[:n]), "(*Client).readLoop")
}

// Issue 12: a handler that wants to do more than file a push (the TUI
// runs Update there to draw an echo when its loop is idle) gets a call
// after each push on the client's reader goroutine, outside the
// subscription's lock, so it may call the subscription.
func TestAnAfterPusherIsCalledAfterEachPushOutsideTheLock(t *testing.T) {
	c, srv := clientPair(t)
	sub, id := subscribeFake(t, c, srv)
	a := &afterRecorder{handRecorder: newHandRecorder(), sub: sub, afters: make(chan bool, 8), stackBuf: make([]byte, 64<<10)}
	sub.Hand(a)
	srv.push(id, proto.OutputChunk{Pane: "p1", Seq: 0, Data: []byte("a")})
	srv.push(id, proto.OutputChunk{Pane: "p1", Seq: 1, Data: []byte("b")})
	for i := 0; i < 2; i++ {
		select {
		case onReader := <-a.afters:
			if !onReader {
				t.Errorf("AfterPush %d ran off the client's reader goroutine", i)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("AfterPush %d never came (or deadlocked under the subscription's lock)", i)
		}
	}
	roundTrip(t, c, srv)
	if len(a.afters) != 0 {
		t.Errorf("%d AfterPush calls more than pushes", len(a.afters))
	}
}
