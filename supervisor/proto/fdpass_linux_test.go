//go:build linux

package proto

import (
	"errors"
	"io"
	"net"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// fdSocketPair returns two FdConns over a real unix socketpair.
func fdSocketPair(t *testing.T) (a, b *FdConn) {
	t.Helper()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	return fdConnFromFd(t, fds[0], "a"), fdConnFromFd(t, fds[1], "b")
}

// fdConnFromFd wraps one end of a socketpair; the test closes it.
func fdConnFromFd(t *testing.T, fd int, name string) *FdConn {
	t.Helper()
	f := os.NewFile(uintptr(fd), name)
	c, err := net.FileConn(f) // dups fd
	_ = f.Close()             // best effort: net.FileConn holds its own dup
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return NewFdConn(c.(*net.UnixConn))
}

// openFds counts this process's open fds.
func openFds(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(ents) - 1 // ReadDir's own fd
}

func TestFdPassPipeWriteEndOverSocketpair(t *testing.T) {
	a, b := fdSocketPair(t)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	f, err := NewFrame(4, FlagReply, SubscribedReply{Pane: "p1", Fd: true})
	if err != nil {
		t.Fatal(err)
	}
	f.Fds = []int{int(pw.Fd())}
	if err := a.WriteFrame(f); err != nil {
		t.Fatal(err)
	}
	_ = pw.Close() // only the received dup keeps the pipe open now
	got, err := b.ReadFrame()
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Fds) != 1 || got.Type != MsgSubscribed || got.ReqID != 4 {
		t.Fatalf("got %s id %d with %d fds", got.Type, got.ReqID, len(got.Fds))
	}
	if flags, err := unix.FcntlInt(uintptr(got.Fds[0]), unix.F_GETFD, 0); err != nil || flags&unix.FD_CLOEXEC == 0 {
		t.Errorf("received fd is not close-on-exec (%#x, %v)", flags, err)
	}
	w := os.NewFile(uintptr(got.Fds[0]), "received")
	if _, err := w.Write([]byte("through the fd")); err != nil {
		t.Fatal(err)
	}
	_ = w.Close()
	data, err := io.ReadAll(pr)
	if err != nil || string(data) != "through the fd" {
		t.Fatalf("read back %q, %v", data, err)
	}
}

func TestFdPassFramesWithoutFdsInterleaveWithFdFrames(t *testing.T) {
	a, b := fdSocketPair(t)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	frames := []Frame{
		{Type: MsgOutput, Body: make([]byte, 100000)},
		{Type: MsgSubscribed, Body: []byte("{}"), Fds: []int{int(pr.Fd()), int(pw.Fd())}},
		{Type: MsgOK, Body: []byte("{}")},
	}
	crossWhole(t, a, b, frames)
}

// crossWhole writes frames on a (from a goroutine of its own, as a
// connection's writer) and reads them on b: each must arrive with its
// type, its body byte for byte and as many fds.
func crossWhole(t *testing.T, a, b *FdConn, frames []Frame) {
	t.Helper()
	go func() {
		for _, f := range frames {
			if err := a.WriteFrame(f); err != nil {
				t.Error(err)
			}
		}
	}()
	for i, want := range frames {
		got, err := b.ReadFrame()
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		CloseFds(got.Fds)
		if got.Type != want.Type || string(got.Body) != string(want.Body) || len(got.Fds) != len(want.Fds) {
			t.Fatalf("frame %d: got %s, %d bytes, %d fds; want %s, %d bytes, %d fds", i, got.Type, len(got.Body), len(got.Fds), want.Type, len(want.Body), len(want.Fds))
		}
	}
}

// TestFdPassTruncatedFdsAreClosed receives three fds with room for one:
// the kernel sets MSG_CTRUNC, and the fd that did arrive must be closed.
func TestFdPassTruncatedFdsAreClosed(t *testing.T) {
	a, b := fdSocketPair(t)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	before := openFds(t)
	f := Frame{Type: MsgSubscribed, Body: []byte("{}"), Fds: []int{int(pr.Fd()), int(pw.Fd()), int(pr.Fd())}}
	if err := a.WriteFrame(f); err != nil {
		t.Fatal(err)
	}
	_, _ = pr.Close(), pw.Close()
	b.oob = make([]byte, unix.CmsgLen(4)) // room for exactly one fd
	_, err = b.ReadFrame()
	if !errors.Is(err, ErrFdsTruncated) {
		t.Fatalf("got %v, want ErrFdsTruncated", err)
	}
	if after := openFds(t); after != before-2 {
		t.Fatalf("%d fds open after the truncated receive, want %d (the pipe closed, nothing leaked)", after, before-2)
	}
}

func TestFdPassCleanEOF(t *testing.T) {
	a, b := fdSocketPair(t)
	if err := a.c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.ReadFrame(); err != io.EOF {
		t.Fatalf("got %v, want io.EOF", err)
	}
}

// TestBigBodiesCrossWholeBothWays: frames with bodies past writevBody (a
// capture of a long history), written with writev, arrive byte for byte
// between frames with fds and small ones, whether the reader reads bodies
// in doubling steps (a host) or whole (a client).
func TestBigBodiesCrossWholeBothWays(t *testing.T) {
	for _, whole := range []bool{false, true} {
		a, b := fdSocketPair(t)
		if whole {
			b.ReadBodiesWhole()
		}
		pr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		big := make([]byte, 3*writevBody+77)
		for i := range big {
			big[i] = byte(i * 31)
		}
		frames := []Frame{
			{Type: MsgCapturedText, Body: big},
			{Type: MsgSubscribed, Body: []byte("{}"), Fds: []int{int(pr.Fd())}},
			{Type: MsgCapturedText, Body: big[:writevBody+1]},
			{Type: MsgOK, Body: []byte("{}")},
			{Type: MsgCapturedText, Body: big[1:]},
		}
		t.Logf("bodies read whole: %v", whole)
		crossWhole(t, a, b, frames)
		pr.Close()
		pw.Close()
	}
}
