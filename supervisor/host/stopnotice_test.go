package host

import (
	"errors"
	"io"
	"net"
	"os"
	"slices"
	"testing"
	"time"

	"clowder/persist"
	"clowder/supervisor/proto"
)

// TestAStoppingHostTellsEveryConnection proves the stop notice: when the
// host stops, each welcomed connection, the one that asked for the stop
// and an idle one alike, gets a push on request id 0, flagged end, with
// shutting-down, and then its end. Before it the connections just ended,
// and a client took the host for crashed and waited for another.
func TestAStoppingHostTellsEveryConnection(t *testing.T) {
	th := startHost(t)
	idle := th.dial()
	stopper := th.dial()
	stopper.call(&proto.HostStopReq{})
	for name, c := range map[string]*tclient{"the stopper": stopper, "an idle client": idle} {
		f, err := c.read(30 * time.Second) // bounds a failure only
		if err != nil {
			t.Fatalf("%s: no stop notice before the connection ended: %v", name, err)
		}
		m, _ := f.Message()
		e, ok := m.(*proto.ErrorReply)
		if f.ReqID != 0 || f.Flags&proto.FlagPush == 0 || f.Flags&proto.FlagEnd == 0 || !ok || e.Code != proto.CodeShuttingDown {
			t.Fatalf("%s: got %s on request %d (flags %v): %#v; want the stop notice", name, f.Type, f.ReqID, f.Flags, m)
		}
		if _, err := c.read(30 * time.Second); !errors.Is(err, io.EOF) {
			t.Fatalf("%s: after the stop notice: %v; want the connection's end", name, err)
		}
	}
}

// TestAStoppingHostAnswersTheHellosQueuedForIt proves the other half:
// once a stop begins the socket file is gone (no connection can queue
// any more), the host lock says the host is stopping (a client that
// finds no socket neither asks it to listen again nor waits for it), and
// a connection that had queued before, never accepted, has its hello
// answered with shutting-down rather than cut off.
func TestAStoppingHostAnswersTheHellosQueuedForIt(t *testing.T) {
	th := newTestHost(t)
	if err := th.paths.EnsureRuntimeDir(); err != nil {
		t.Fatal(err)
	}
	h, err := New(Options{Paths: th.paths, Config: persist.DefaultConfig(), Build: "test", IdleExit: -1})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := listenSocket(th.paths.SocketFile())
	if err != nil {
		t.Fatal(err)
	}
	lock, err := persist.Lock(th.paths.LockFile(), persist.CanRelisten)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lock.Close() })
	h.mu.Lock()
	h.ln, h.lock = ln, lock // nobody accepts: what connects waits in the queue
	h.mu.Unlock()
	var queued []*proto.FdConn
	for range 3 {
		c, err := net.Dial("unix", th.paths.SocketFile())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		_ = c.SetDeadline(time.Now().Add(30 * time.Second)) // bounds a failure only
		fc := proto.NewFdConn(c.(*net.UnixConn))
		if err := fc.WriteFrame(mustFrame(1, 0, &proto.HelloReq{Min: proto.MinVersion, Max: proto.MaxVersion})); err != nil {
			t.Fatal(err)
		}
		queued = append(queued, fc)
	}
	h.stopListening()
	if _, err := os.Stat(th.paths.SocketFile()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the socket file once the stop began: %v; want it gone", err)
	}
	if h, _ := persist.LockHolder(th.paths.LockFile()); !slices.Equal(h.Can, []string{persist.Stopping}) {
		t.Fatalf("the host lock once the stop began advertises %q; want only %q", h.Can, persist.Stopping)
	}
	h.refuseQueued()
	for _, fc := range queued {
		f, err := fc.ReadFrame()
		if err != nil {
			t.Fatalf("a hello queued before the stop got no answer: %v", err)
		}
		m, _ := f.Message()
		if e, ok := m.(*proto.ErrorReply); !ok || f.ReqID != 1 || e.Code != proto.CodeShuttingDown {
			t.Fatalf("a hello queued before the stop got %s on request %d: %#v; want shutting-down", f.Type, f.ReqID, m)
		}
	}
	if _, err := ln.Accept(); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("the listener after the queue was answered: %v; want it closed", err)
	}
}

// TestAStoppingHostWaitsForAHelloThatComesLate: a production client
// writes its hello after connect returns, which may be after the
// stopping host has taken the connection off the queue. The refusal
// reads the hello first and answers it: answered before the hello came
// and closed, the connection would fail the client's write instead.
func TestAStoppingHostWaitsForAHelloThatComesLate(t *testing.T) {
	th := newTestHost(t)
	if err := th.paths.EnsureRuntimeDir(); err != nil {
		t.Fatal(err)
	}
	ln, err := listenSocket(th.paths.SocketFile())
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c, err := net.Dial("unix", th.paths.SocketFile())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	accepted := acceptQueued(ln)
	if len(accepted) != 1 {
		t.Fatalf("accepted %d queued connections; want 1", len(accepted))
	}
	refused := make(chan struct{})
	go func() {
		defer close(refused)
		refuseStopping(accepted[0])
	}()
	_ = c.SetDeadline(time.Now().Add(30 * time.Second)) // bounds a failure only
	_, err = proto.Hello(proto.NewFdConn(c.(*net.UnixConn)), proto.HelloReq{Min: proto.MinVersion, Max: proto.MaxVersion})
	if !errors.Is(err, &proto.ErrorReply{Code: proto.CodeShuttingDown}) {
		t.Fatalf("a hello written after the host took the connection got %v; want shutting-down", err)
	}
	<-refused
}
