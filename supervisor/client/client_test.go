//go:build linux

package client

import (
	"context"
	"errors"
	"io"
	"os"
	"testing"
	"time"

	"clowder/supervisor/proto"
)

func TestClientRoutesRepliesByIDOutOfOrder(t *testing.T) {
	c, srv := clientPair(t)
	type out struct {
		panes []proto.PaneInfo
		info  proto.HostInfoReply
		err   error
	}
	lists, infos := make(chan out, 1), make(chan out, 1)
	go func() { p, err := c.List(context.Background()); lists <- out{panes: p, err: err} }()
	go func() { i, err := c.HostStatus(context.Background()); infos <- out{info: i, err: err} }()
	f1, m1 := srv.next()
	f2, _ := srv.next()
	if f1.ReqID == f2.ReqID || f1.ReqID < 2 || f2.ReqID < 2 {
		t.Fatalf("request ids %d and %d: want distinct ids after the hello's 1", f1.ReqID, f2.ReqID)
	}
	listID, statusID := f1.ReqID, f2.ReqID
	if _, ok := m1.(*proto.ListReq); !ok {
		listID, statusID = statusID, listID
	}
	srv.reply(statusID, proto.HostInfoReply{Pid: 42, Build: "b"}) // answered in reverse order
	srv.reply(listID, proto.PaneListReply{Panes: []proto.PaneInfo{{ID: "p1", Name: "api"}}})
	l, i := <-lists, <-infos
	if l.err != nil || len(l.panes) != 1 || l.panes[0].Name != "api" {
		t.Errorf("List = %+v, %v", l.panes, l.err)
	}
	if i.err != nil || i.info.Pid != 42 {
		t.Errorf("HostStatus = %+v, %v", i.info, i.err)
	}
}

func TestClientReturnsErrorReplyAsIs(t *testing.T) {
	c, srv := clientPair(t)
	errc := make(chan error, 1)
	go func() { errc <- c.Remove(context.Background(), "api") }()
	f, m := srv.next()
	if r, ok := m.(*proto.RemoveReq); !ok || r.Pane != "api" {
		t.Fatalf("request %s %+v", f.Type, m)
	}
	srv.reply(f.ReqID, proto.ErrorReply{Code: proto.CodeNotFound, Message: `no pane named "api"; see clowder ls`})
	err := <-errc
	var e *proto.ErrorReply
	if !errors.As(err, &e) || e.Code != proto.CodeNotFound || e.Message != `no pane named "api"; see clowder ls` {
		t.Fatalf("err = %#v", err)
	}
	if !errors.Is(err, &proto.ErrorReply{Code: proto.CodeNotFound}) {
		t.Error("errors.Is by code fails")
	}
}

func TestClientCancelledCallLeavesConnectionUsable(t *testing.T) {
	c, srv := clientPair(t)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { _, err := c.Wait(ctx, proto.WaitReq{Pane: "p1", Exit: true}); errc <- err }()
	waitReq, _ := srv.next()
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Wait returned %v, want context.Canceled", err)
	}
	srv.reply(waitReq.ReqID, proto.WaitDoneReply{Met: "exit"}) // late: must be dropped
	go func() { _, err := c.List(context.Background()); errc <- err }()
	f, _ := srv.next()
	srv.reply(f.ReqID, proto.PaneListReply{})
	if err := <-errc; err != nil {
		t.Fatalf("List after a cancelled call: %v", err)
	}
}

func TestClientSubscribeReceivesMasterFdAndPushesInOrder(t *testing.T) {
	c, srv := clientPair(t)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	subc := make(chan *Subscription, 1)
	go func() {
		s, err := c.Subscribe(context.Background(), proto.SubscribeReq{Pane: "p1", Raw: true, WantFd: true})
		if err != nil {
			t.Error(err)
		}
		subc <- s
	}()
	f, _ := srv.next()
	srv.reply(f.ReqID, proto.SubscribedReply{Pane: "p1", Seq: 6, Fd: true}, int(pw.Fd()))
	_ = pw.Close()
	srv.push(f.ReqID, proto.OutputChunk{Pane: "p1", Seq: 0, Data: []byte("hello ")})
	srv.push(f.ReqID, proto.OutputChunk{Pane: "p1", Seq: 6, Data: []byte("world")})
	srv.endSub(f.ReqID, proto.OutputChunk{Pane: "p1", Seq: 11})
	sub := <-subc
	if sub == nil || sub.Master == nil || sub.Reply.Seq != 6 || sub.ID() != f.ReqID {
		t.Fatalf("subscription %+v", sub)
	}
	if _, err := sub.Master.Write([]byte("keys")); err != nil {
		t.Fatal(err)
	}
	var got []byte
	for {
		m, ok := recvPush(t, sub)
		if !ok {
			break
		}
		got = append(got, m.(*proto.OutputChunk).Data...)
	}
	if string(got) != "hello world" || sub.Err() != nil {
		t.Errorf("pushes %q, err %v", got, sub.Err())
	}
	_ = sub.Close() // closes the master: the pipe sees EOF after "keys"
	if data, err := io.ReadAll(pr); err != nil || string(data) != "keys" {
		t.Errorf("through the master: %q, %v", data, err)
	}
}

func TestClientSubscriptionCloseUnsubscribesOnHost(t *testing.T) {
	c, srv := clientPair(t)
	subc := make(chan *Subscription, 1)
	go func() {
		s, _ := c.Subscribe(context.Background(), proto.SubscribeReq{Pane: "p1", Screen: true})
		subc <- s
	}()
	f, _ := srv.next()
	srv.reply(f.ReqID, proto.SubscribedReply{Pane: "p1"})
	sub := <-subc
	closed := make(chan error, 1)
	go func() { closed <- sub.Close() }()
	uf, um := srv.next()
	if u, ok := um.(*proto.UnsubscribeReq); !ok || u.Sub != f.ReqID {
		t.Fatalf("after Close the host got %s %+v, want unsubscribe of %d", uf.Type, um, f.ReqID)
	}
	srv.endSub(f.ReqID, proto.PaneEvent{Kind: proto.EventRemoved, Pane: "p1"})
	srv.reply(uf.ReqID, proto.OKReply{})
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	if _, ok := recvPush(t, sub); ok {
		t.Error("C still open after Close")
	}
}

func TestClientCancelledSubscribeUnsubscribesWhenReplyComes(t *testing.T) {
	c, srv := clientPair(t)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { _, err := c.Subscribe(ctx, proto.SubscribeReq{Pane: "p1", Raw: true}); errc <- err }()
	f, _ := srv.next()
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	srv.reply(f.ReqID, proto.SubscribedReply{Pane: "p1"})
	srv.push(f.ReqID, proto.OutputChunk{Pane: "p1", Data: []byte("nobody reads this")})
	uf, um := srv.next()
	if u, ok := um.(*proto.UnsubscribeReq); !ok || u.Sub != f.ReqID {
		t.Fatalf("got %s %+v, want unsubscribe of the abandoned %d", uf.Type, um, f.ReqID)
	}
	srv.endSub(f.ReqID, proto.OutputChunk{Pane: "p1"})
	srv.reply(uf.ReqID, proto.OKReply{})
}

func TestClientSlowRawConsumerNeverBlocksOtherCalls(t *testing.T) {
	c, srv := clientPair(t)
	subc := make(chan *Subscription, 1)
	go func() {
		s, _ := c.Subscribe(context.Background(), proto.SubscribeReq{Pane: "p1", Raw: true})
		subc <- s
	}()
	f, _ := srv.next()
	srv.reply(f.ReqID, proto.SubscribedReply{Pane: "p1"})
	sub := <-subc
	chunk := make([]byte, 1<<20)
	for i := 0; i <= MaxQueuedBytes>>20+1; i++ { // past the bound even if the pump holds one chunk
		srv.push(f.ReqID, proto.OutputChunk{Pane: "p1", Seq: uint64(i) << 20, Data: chunk})
	}
	errc := make(chan error, 1)
	go func() { _, err := c.List(context.Background()); errc <- err }()
	var sawUnsub, sawList bool
	for !sawUnsub || !sawList { // the unsubscribe and the list may come in either order
		rf, rm := srv.next()
		switch rm.(type) {
		case *proto.UnsubscribeReq:
			sawUnsub = true
			srv.endSub(f.ReqID, proto.OutputChunk{Pane: "p1"})
			srv.reply(rf.ReqID, proto.OKReply{})
		case *proto.ListReq:
			sawList = true
			srv.reply(rf.ReqID, proto.PaneListReply{})
		}
	}
	within(t, "List while a subscription overflows", func() {
		if err := <-errc; err != nil {
			t.Error(err)
		}
	})
	var delivered uint64
	for m := range sub.C { // what the pump held when the queue overflowed
		delivered += uint64(len(m.(*proto.OutputChunk).Data))
	}
	var slow *SlowConsumerError
	if !errors.As(sub.Err(), &slow) || slow.ResumeSeq != delivered {
		t.Errorf("Err = %v after %d bytes delivered, want a SlowConsumerError resuming there", sub.Err(), delivered)
	}
}

func TestClientHostHangUpFailsCallsAndEndsSubscriptions(t *testing.T) {
	c, srv := clientPair(t)
	subc := make(chan *Subscription, 1)
	go func() {
		s, _ := c.Events(context.Background())
		subc <- s
	}()
	f, _ := srv.next()
	srv.reply(f.ReqID, proto.OKReply{})
	sub := <-subc
	errc := make(chan error, 1)
	go func() { errc <- c.Kill(context.Background(), proto.KillReq{Pane: "p1"}) }()
	srv.next()
	srv.hangUp()
	within(t, "pending Kill after hang-up", func() {
		if err := <-errc; !errors.Is(err, ErrConnectionLost) {
			t.Errorf("Kill: %v, want ErrConnectionLost", err)
		}
	})
	if _, ok := recvPush(t, sub); ok || !errors.Is(sub.Err(), ErrConnectionLost) {
		t.Errorf("subscription after hang-up: open=%v err=%v", ok, sub.Err())
	}
	<-c.Done()
	if _, err := c.List(context.Background()); !errors.Is(err, ErrConnectionLost) {
		t.Errorf("List on a dead client: %v", err)
	}
}

func TestClientCloseFailsPendingCalls(t *testing.T) {
	c, srv := clientPair(t)
	errc := make(chan error, 1)
	go func() { _, err := c.Wait(context.Background(), proto.WaitReq{Pane: "p1", Exit: true}); errc <- err }()
	srv.next()
	within(t, "Close", func() { _ = c.Close() })
	if err := <-errc; !errors.Is(err, ErrClientClosed) {
		t.Errorf("pending call after Close: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestClientOverPlainStreamAgreesNoFdPassing(t *testing.T) {
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	srv := proto.NewStreamConn(sr, sw)
	go func() {
		w := proto.WelcomeReply{Caps: []string{proto.CapFdPassing, proto.CapRaw}}
		if _, _, err := proto.AcceptHello(srv, proto.MinVersion, proto.MaxVersion, w); err != nil {
			return
		}
		f, err := srv.ReadFrame()
		if err != nil {
			return
		}
		rf, _ := proto.NewFrame(f.ReqID, proto.FlagReply, proto.HostInfoReply{Pid: 7})
		_ = srv.WriteFrame(rf)
	}()
	closer := closerFunc(func() error { _ = cr.Close(); return cw.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := New(ctx, proto.NewStreamConn(cr, cw), closer, "stream-test")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.HasCap(proto.CapFdPassing) || !c.HasCap(proto.CapRaw) {
		t.Errorf("caps %v: fd-passing must not be agreed on a plain stream", c.Welcome().Caps)
	}
	if info, err := c.HostStatus(ctx); err != nil || info.Pid != 7 {
		t.Errorf("HostStatus over a stream: %+v, %v", info, err)
	}
}

// closerFunc adapts a function to io.Closer.
type closerFunc func() error

func (f closerFunc) Close() error { return f() }
