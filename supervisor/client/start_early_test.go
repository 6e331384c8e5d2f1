//go:build linux

package client

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"clowder/supervisor/proto"
)

// earlyHost listens on a private socket and serves each connection with
// the next of serve, in order; it returns the socket's path.
func earlyHost(t *testing.T, serve ...func(*net.UnixConn)) string {
	t.Helper()
	paths := shortPaths(t)
	if err := paths.EnsureRuntimeDir(); err != nil {
		t.Fatal(err)
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: paths.SocketFile(), Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() { _ = ln.Close(); <-done })
	go func() {
		defer close(done)
		for _, fn := range serve {
			uc, err := ln.AcceptUnix()
			if err != nil {
				return
			}
			fn(uc)
			_ = uc.Close()
		}
	}()
	return paths.SocketFile()
}

// oldHost serves one connection as every host since protocol v1 does: the
// handshake (checking the version), then each request in turn, answering
// a list with one pane named name.
func oldHost(name string, lo, hi proto.Version) func(*net.UnixConn) {
	return func(uc *net.UnixConn) {
		fc := proto.NewFdConn(uc)
		if _, _, err := proto.AcceptHello(fc, lo, hi, proto.WelcomeReply{Host: "old"}); err != nil {
			return
		}
		for {
			f, err := fc.ReadFrame()
			if err != nil {
				return
			}
			var m proto.Message = &proto.ErrorReply{Code: proto.CodeBadRequest, Message: "only list"}
			if f.Type == proto.MsgList {
				m = &proto.PaneListReply{Panes: []proto.PaneInfo{{ID: "p1", Name: name}}}
			}
			rf, _ := proto.NewFrame(f.ReqID, proto.FlagReply, m)
			_ = fc.WriteFrame(rf)
		}
	}
}

// TestDialListWritesTheRequestWithTheHello proves the round trip saved:
// the host's first read holds both the hello and the list request, before
// it has answered the hello. Dial then List, as before, sent the list
// only after the welcome came back.
func TestDialListWritesTheRequestWithTheHello(t *testing.T) {
	first := make(chan []proto.MsgType, 1)
	sock := earlyHost(t, func(uc *net.UnixConn) {
		_ = uc.SetReadDeadline(time.Now().Add(30 * time.Second)) // bounds a failure only
		buf := make([]byte, 64<<10)
		n, _ := uc.Read(buf) // one read, before anything is answered
		fr := proto.NewFrameReader(bytes.NewReader(buf[:n]))
		var types []proto.MsgType
		for {
			f, err := fr.ReadFrame()
			if err != nil {
				break
			}
			types = append(types, f.Type)
		}
		first <- types
		fc := proto.NewFdConn(uc)
		w, _ := proto.NewFrame(1, proto.FlagReply, &proto.WelcomeReply{Version: proto.MaxVersion})
		l, _ := proto.NewFrame(2, proto.FlagReply, &proto.PaneListReply{Panes: []proto.PaneInfo{{ID: "p1"}}})
		_ = fc.WriteFrame(w)
		if len(types) == 2 {
			_ = fc.WriteFrame(l)
		}
		_, _ = uc.Read(buf) // until the client hangs up
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, list, err := DialList(ctx, sock, nil)
	if c != nil {
		defer c.Close()
	}
	types := <-first
	if len(types) != 2 || types[0] != proto.MsgHello || types[1] != proto.MsgList {
		t.Fatalf("the host's first read held %v; want hello and list together", types)
	}
	if err != nil || len(list) != 1 || list[0].ID != "p1" {
		t.Fatalf("DialList = %v, %v; want p1", list, err)
	}
}

// TestDialListOnAHostThatReadsInTurn proves an existing host (the
// handshake code every host runs, then one request at a time) answers the
// early list: it finds the request waiting after its welcome.
func TestDialListOnAHostThatReadsInTurn(t *testing.T) {
	sock := earlyHost(t, oldHost("old", proto.MinVersion, proto.MaxVersion))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, list, err := DialList(ctx, sock, nil)
	if err != nil || len(list) != 1 || list[0].Name != "old" {
		t.Fatalf("DialList = %v, %v; want the pane named old", list, err)
	}
	if _, err := c.List(ctx); err != nil { // the connection goes on as Dial's would
		t.Fatalf("a second List on the same client: %v", err)
	}
	_ = c.Close()
}

// TestDialListReportsAVersionMismatch proves a host that speaks another
// version fails the command cleanly: its refusal of the hello is what
// the client reports (not the reset of a connection closed with the early
// request unread), and the request was never run.
func TestDialListReportsAVersionMismatch(t *testing.T) {
	future := proto.Version{Major: 9}
	sock := earlyHost(t, oldHost("never", future, future))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, list, err := DialList(ctx, sock, nil)
	if c != nil {
		_ = c.Close()
	}
	var e *proto.ErrorReply
	if !errors.As(err, &e) || e.Code != proto.CodeVersion || !strings.Contains(err.Error(), "version mismatch") {
		t.Fatalf("DialList = %v, %v; want the host's version mismatch", list, err)
	}
}

// TestDialListAsksAgainWhenTheHostGoesAwayUnderIt proves the early list
// is sent again, the ordinary way, when the host took it and went away
// without answering (it crashed), as Call does after RetryAcrossHostLoss.
func TestDialListAsksAgainWhenTheHostGoesAwayUnderIt(t *testing.T) {
	crash := func(uc *net.UnixConn) {
		fc := proto.NewFdConn(uc)
		if _, _, err := proto.AcceptHello(fc, proto.MinVersion, proto.MaxVersion, proto.WelcomeReply{}); err == nil {
			_, _ = fc.ReadFrame() // the list, never answered
		}
	}
	sock := earlyHost(t, crash, oldHost("next", proto.MinVersion, proto.MaxVersion))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, list, err := DialList(ctx, sock, func(c *Client) { c.RetryAcrossHostLoss() })
	if c != nil {
		defer c.Close()
	}
	if err != nil || len(list) != 1 || list[0].Name != "next" {
		t.Fatalf("DialList = %v, %v; want the next host's pane", list, err)
	}
}

// TestDialCallAfterACutHandshakeWaitsForAHostAsDialDoes pins a fault of
// DialCall's own dial path: after a host cut the handshake short and its
// socket went (a host dying or restarting), Dial waits for the next host
// (reconnectWait), but DialCall dialled once more, found no host and gave
// up at once with "no clowder host is running". Both now recover alike:
// here, with no next host, they fail with the same error when the
// caller's context ends.
func TestDialCallAfterACutHandshakeWaitsForAHostAsDialDoes(t *testing.T) {
	errOf := func(call func(context.Context, string) error) string {
		path := make(chan string, 1)
		served := make(chan struct{})
		sock := earlyHost(t, func(uc *net.UnixConn) { // reads the hello, goes away with its socket, then cuts the connection
			defer close(served)
			_, _ = uc.Read(make([]byte, 64))
			_ = os.Remove(<-path)
		})
		path <- sock
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond) // bounds the wait for a next host
		defer cancel()
		err := call(ctx, sock)
		<-served
		if err == nil {
			t.Fatal("a call succeeded with no host")
		}
		return strings.ReplaceAll(err.Error(), sock, "SOCK")
	}
	dialErr := errOf(func(ctx context.Context, sock string) error {
		c, err := Dial(ctx, sock)
		if err == nil {
			_ = c.Close()
		}
		return err
	})
	callErr := errOf(func(ctx context.Context, sock string) error {
		c, _, err := DialList(ctx, sock, nil)
		if c != nil {
			_ = c.Close()
		}
		return err
	})
	if callErr != dialErr {
		t.Fatalf("after a cut handshake and no host, DialList failed with\n%s\nand Dial with\n%s", callErr, dialErr)
	}
}
