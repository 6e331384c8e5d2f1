//go:build linux

package client

import (
	"context"
	"errors"
	"testing"

	"clowder/supervisor/proto"
)

// readerRuns reports whether c's reader goroutine runs, or will once an
// inline call is done. It asks c, not the process's goroutines: another
// test's client may still be ending its reader (a failure in 1 of 2 CI
// runs).
func readerRuns(c *Client) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.readerOn
}

// TestClientOneShotCallsStartNoReaderGoroutine pins issue 12 (CLI): every
// Client started a reader goroutine, so an ls or a capture woke a second
// thread and handed each reply across goroutines twice. A call now reads
// its own reply while nothing else needs the connection read.
func TestClientOneShotCallsStartNoReaderGoroutine(t *testing.T) {
	c, srv := clientPair(t)
	errc := make(chan error, 1)
	go func() { _, err := c.List(context.Background()); errc <- err }()
	f, _ := srv.next()
	srv.reply(f.ReqID, proto.PaneListReply{Panes: []proto.PaneInfo{{ID: "p1"}}})
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	go func() { _, err := c.Capture(context.Background(), proto.CaptureReq{Pane: "p1"}); errc <- err }()
	f, _ = srv.next()
	srv.reply(f.ReqID, proto.CapturedText{Pane: "p1", Text: "$ \n", Cols: 80, Rows: 1})
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if readerRuns(c) {
		t.Fatal("two calls one after the other started a reader goroutine")
	}
}

// TestClientCallWaitingBehindAnInlineReaderIsAnswered: a call made while
// another reads its reply inline is answered, whichever reply comes
// first and however long after the first call returned.
func TestClientCallWaitingBehindAnInlineReaderIsAnswered(t *testing.T) {
	c, srv := clientPair(t)
	first, second := make(chan error, 1), make(chan error, 1)
	go func() { _, err := c.List(context.Background()); first <- err }()
	f1, _ := srv.next()
	go func() { _, err := c.HostStatus(context.Background()); second <- err }()
	f2, _ := srv.next()
	srv.reply(f1.ReqID, proto.PaneListReply{})
	within(t, "the first call", func() {
		if err := <-first; err != nil {
			t.Error(err)
		}
	})
	srv.reply(f2.ReqID, proto.HostInfoReply{Pid: 42})
	within(t, "the call that waited behind it", func() {
		if err := <-second; err != nil {
			t.Error(err)
		}
	})
}

// TestClientDoneNoticesAnIdleHostHangUp: a client that makes no call
// still learns its host went away once it watches Done.
func TestClientDoneNoticesAnIdleHostHangUp(t *testing.T) {
	c, srv := clientPair(t)
	done := c.Done()
	srv.hangUp()
	within(t, "Done after the host hung up", func() { <-done })
	if c.Err() == nil {
		t.Fatal("Err is nil after Done")
	}
}

// TestClientInlineCallSeesTheHostHangUp: a call reading its own reply
// fails when the host goes away, and so does the next one.
func TestClientInlineCallSeesTheHostHangUp(t *testing.T) {
	c, srv := clientPair(t)
	errc := make(chan error, 1)
	go func() { _, err := c.List(context.Background()); errc <- err }()
	srv.next()
	srv.hangUp()
	within(t, "the call under the hang-up", func() {
		if err := <-errc; err == nil {
			t.Error("List succeeded on a hung-up connection")
		}
	})
	within(t, "a call after it", func() {
		if _, err := c.List(context.Background()); err == nil {
			t.Error("List succeeded on a hung-up connection")
		}
	})
	within(t, "Done", func() { <-c.Done() })
}

// TestClientCloseFailsACallAboutToReadInline: a call that was sent but
// had not started reading its reply when Close ran (no reader goroutine
// to fail it) fails at once instead of waiting for its deadline.
func TestClientCloseFailsACallAboutToReadInline(t *testing.T) {
	c, _ := clientPair(t)
	id, ch, err := c.register()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	within(t, "the call after Close", func() {
		_, _, err := c.await(context.Background(), context.Background(), 0, id, ch, proto.ListReq{})
		if !errors.Is(err, ErrClientClosed) {
			t.Errorf("err = %v, want ErrClientClosed", err)
		}
	})
}
