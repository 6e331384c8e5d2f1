//go:build linux

// A fake host for client tests: the server end of a real socketpair that
// runs the real handshake, then lets each test read the client's requests
// and answer them (or not) by hand. It proves client-side behaviour only;
// the host's own tests cover the server.

package client

import (
	"context"
	"net"
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"clowder/supervisor/proto"
)

// fakeServer is the host end of a client test.
type fakeServer struct {
	t      *testing.T
	conn   *proto.FdConn
	uc     *net.UnixConn
	frames chan proto.Frame // requests, in order; closed when the client hangs up
}

// clientPair connects a Client to a fakeServer over a socketpair.
func clientPair(t *testing.T) (*Client, *fakeServer) {
	t.Helper()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	cu, su := unixConnFromFd(t, fds[0], "client"), unixConnFromFd(t, fds[1], "server")
	srv := &fakeServer{t: t, conn: proto.NewFdConn(su), uc: su, frames: make(chan proto.Frame, 256)}
	go srv.serve() // exits when the client's end closes
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := New(ctx, proto.NewFdConn(cu), cu, "client-test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c, srv
}

// unixConnFromFd wraps one end of a socketpair; the test closes it.
func unixConnFromFd(t *testing.T, fd int, name string) *net.UnixConn {
	t.Helper()
	f := os.NewFile(uintptr(fd), name)
	c, err := net.FileConn(f) // dups fd
	_ = f.Close()             // best effort: net.FileConn holds its own dup
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c.(*net.UnixConn)
}

// serve runs the handshake, then queues every request for the test.
func (s *fakeServer) serve() {
	defer close(s.frames)
	w := proto.WelcomeReply{Caps: []string{proto.CapFdPassing, proto.CapScreen, proto.CapRaw, proto.CapEvents, proto.CapPasteData}, Host: "fake", Pid: 1}
	if _, _, err := proto.AcceptHello(s.conn, proto.MinVersion, proto.MaxVersion, w); err != nil {
		return
	}
	for {
		f, err := s.conn.ReadFrame()
		if err != nil {
			return
		}
		s.frames <- f
	}
}

// next returns the next request, failing the test after fakeWait.
func (s *fakeServer) next() (proto.Frame, proto.Message) {
	s.t.Helper()
	select {
	case f, ok := <-s.frames:
		if !ok {
			s.t.Fatal("client hung up")
		}
		m, err := f.Message()
		if err != nil {
			s.t.Fatal(err)
		}
		return f, m
	case <-time.After(fakeWait):
		s.t.Fatalf("no request within %s", fakeWait)
	}
	panic("unreachable")
}

// send writes one frame, with fds if given.
func (s *fakeServer) send(id uint32, flags proto.Flags, m proto.Message, fds ...int) {
	s.t.Helper()
	f, err := proto.NewFrame(id, flags, m)
	if err != nil {
		s.t.Fatal(err)
	}
	f.Fds = fds
	if err := s.conn.WriteFrame(f); err != nil {
		s.t.Fatal(err)
	}
}

// reply answers request id.
func (s *fakeServer) reply(id uint32, m proto.Message, fds ...int) {
	s.send(id, proto.FlagReply, m, fds...)
}

// push sends a push on subscription id.
func (s *fakeServer) push(id uint32, m proto.Message) { s.send(id, proto.FlagPush, m) }

// endSub sends the last push of subscription id.
func (s *fakeServer) endSub(id uint32, m proto.Message) { s.send(id, proto.FlagPush|proto.FlagEnd, m) }

// hangUp closes the server's end.
func (s *fakeServer) hangUp() { _ = s.uc.Close() }

// fakeWait bounds each wait of these tests. Generous: it only bounds a
// failure, and a 2-core CI machine under -race with other packages'
// tests beside can stall a goroutine for seconds.
const fakeWait = 30 * time.Second

// within fails the test unless fn returns within fakeWait.
func within(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(fakeWait):
		t.Fatalf("%s: still blocked after %s", what, fakeWait)
	}
}

// recvPush reads the next push from sub, failing after fakeWait.
func recvPush(t *testing.T, sub *Subscription) (proto.Message, bool) {
	t.Helper()
	select {
	case m, ok := <-sub.C:
		return m, ok
	case <-time.After(fakeWait):
		t.Fatalf("no push within %s", fakeWait)
	}
	panic("unreachable")
}
