package host

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"clowder/supervisor/internal/testproc"
	"clowder/supervisor/proto"
)

// TestUpgradeWindowAnswersWhatItWillNotRunAndTellsEveryConnection proves
// the host side of issue 10 §2's exactly-once across an upgrade, on the
// path where the exec itself fails (so the test process stays itself): a
// wait in flight when the upgrade starts is answered `upgrading` (not
// run, send it again), every other connection gets the upgrade notice
// (push on id 0, flagged end, `upgrading`) as its last frame before the
// exec, and a connection that got it executes nothing again, even though
// the host serves on; a new connection is served as before. Regression:
// the wait was cut with its connection, with no way for the client to
// know what had run.
func TestUpgradeWindowAnswersWhatItWillNotRunAndTellsEveryConnection(t *testing.T) {
	th := startHost(t)
	p := th.spawnFake(th.dial(), "sleep")
	c := th.dial()
	env := th.o.Env(testproc.FakeAgentEnv + "=sleep")
	owned := c.call(&proto.SpawnReq{Nonce: "owned", Argv: []string{os.Args[0]}, Env: env, Kind: "run", KillOnDisconnect: true}).(*proto.SpawnedReply).Pane
	wait := c.send(&proto.WaitReq{Pane: p.ID, Text: "never shown"})
	bin := vanishingBinary(t)
	up := th.dial()
	if e := up.callErr(&proto.UpgradeReq{Binary: bin}); e.Code != proto.CodeUnsupported {
		t.Fatalf("upgrade to a binary that cannot be executed: %v; want unsupported", e)
	}
	if _, _, err := c.await(wait); !isUpgrading(err) {
		t.Fatalf("wait in flight during the upgrade: %v; want upgrading (not executed)", err)
	}
	if n := c.notice(); n == nil || n.Code != proto.CodeUpgrading {
		t.Fatalf("no upgrade notice on a bystander connection (got %v)", n)
	}
	if e := c.callErr(&proto.ListReq{}); e.Code != proto.CodeUpgrading {
		t.Fatalf("list on a connection told of the upgrade: %v; want upgrading, never run", e)
	}
	if _, ok := th.dial().call(&proto.ListReq{}).(*proto.PaneListReply); !ok {
		t.Fatal("a new connection after the failed upgrade is not served")
	}
	if _, ok := up.call(&proto.ListReq{}).(*proto.PaneListReply); !ok {
		t.Fatal("the requester's connection (which gets no notice) is not served after the failed upgrade")
	}
	// A client told of the upgrade hangs up to follow it: the pane it
	// owns must not be killed as if the client had died.
	before := up.call(&proto.HostStatusReq{}).(*proto.HostInfoReply).Clients
	_ = c.uc.Close()
	eventually(t, "the host seeing the told client go", func() bool { // it counts clients after killing what they own
		return up.call(&proto.HostStatusReq{}).(*proto.HostInfoReply).Clients < before
	})
	if got := up.info(owned.ID); got.State != "running" {
		t.Fatalf("the pane owned by a client that followed the upgrade notice is %s; want running", got.State)
	}
}

// vanishingBinary is a binary that says the right state format, then
// cannot be executed: an upgrade to it tells every connection and then
// fails, so the test process stays the host.
func vanishingBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "vanishing")
	script := "#!/bin/sh\nif [ \"$1 $2\" = \"host --state-format\" ]; then echo " + stateFormat + "; chmod -x \"$0\"; exit 0; fi\nexit 1\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// isUpgrading reports whether err is the error reply `upgrading`.
func isUpgrading(err error) bool {
	e, ok := err.(*proto.ErrorReply)
	return ok && e.Code == proto.CodeUpgrading
}

// notice reads the upgrade notice, the next frame on c.
func (c *tclient) notice() *proto.ErrorReply {
	c.t.Helper()
	f, err := c.read(30 * time.Second)
	if err != nil {
		c.t.Fatalf("waiting for the upgrade notice: %v", err)
	}
	if f.ReqID != 0 || f.Flags&proto.FlagPush == 0 || f.Flags&proto.FlagEnd == 0 {
		c.t.Fatalf("frame %+v; want a push flagged end on request 0", f)
	}
	m, err := f.Message()
	if err != nil {
		c.t.Fatal(err)
	}
	e, _ := m.(*proto.ErrorReply)
	return e
}

// TestNoConnectionIsWelcomedThatTheUpgradeNoticeMisses proves that the
// upgrade notice reaches every connection the host welcomed, after its
// welcome, and that no connection is welcomed once it went out.
// Regression: a connection was registered only after its welcome was
// sent, so one welcomed as the upgrade told the others was left out; its
// client sent a paste the exec then dropped unread, and seeing the
// connection reset with no notice, it could not know the paste had not
// run (1 run in 5 of TestE2ERequestsRacingUpgradesRunExactlyOnce with the
// host on one processor).
func TestNoConnectionIsWelcomedThatTheUpgradeNoticeMisses(t *testing.T) {
	own := testproc.LabelGoroutines(t)
	h := &Server{}
	hostEnd, clientEnd := unixPair(t)
	c := &conn{h: h, fc: proto.NewFdConn(hostEnd)}
	sending, release := make(chan struct{}), make(chan struct{})
	welcomed := make(chan error, 1)
	go func() { // ends once release is closed
		ok, err := h.window.welcome(c, func() error {
			close(sending)
			<-release
			return c.fc.WriteFrame(mustFrame(1, proto.FlagReply, &proto.WelcomeReply{Version: proto.MaxVersion}))
		})
		if !ok && err == nil {
			err = errors.New("not welcomed")
		}
		welcomed <- err
	}()
	<-sending
	told := make(chan struct{})
	go func() { // ends once the welcome is sent
		h.tellUpgrading(nil)
		close(told)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !slices.ContainsFunc(testproc.OwnGoroutines(own), func(g string) bool {
		return strings.Contains(g, "(*Server).tellUpgrading") && strings.Contains(g, "RWMutex")
	}) {
		if time.Now().After(deadline) {
			t.Fatal("the upgrade notice never waited for the welcome being sent")
		}
		time.Sleep(time.Millisecond) // polling a condition with a deadline
	}
	close(release)
	<-told
	if err := <-welcomed; err != nil {
		t.Fatalf("a welcome under way as the notice went out: %v", err)
	}
	fc := proto.NewFdConn(clientEnd)
	_ = clientEnd.SetReadDeadline(time.Now().Add(10 * time.Second))
	if f, err := fc.ReadFrame(); err != nil || f.Type != proto.MsgWelcome {
		t.Fatalf("first frame %+v, %v; want the welcome", f, err)
	}
	if f, err := fc.ReadFrame(); err != nil || f.ReqID != 0 || f.Flags&proto.FlagEnd == 0 {
		t.Fatalf("frame after the welcome %+v, %v; want the upgrade notice", f, err)
	}
	lateEnd, _ := unixPair(t)
	late := &conn{h: h, fc: proto.NewFdConn(lateEnd)}
	if ok, err := h.window.welcome(late, func() error { return errors.New("sent") }); ok || err != nil {
		t.Fatalf("a connection whose hello came after the notice: welcomed %v, %v; want not welcomed", ok, err)
	}
}

// unixPair is a connected pair of unix stream sockets, closed when t ends.
func unixPair(t *testing.T) (a, b *net.UnixConn) {
	t.Helper()
	dir, err := os.MkdirTemp("/tmp", "clp") // short: a socket path has a small limit
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: filepath.Join(dir, "s"), Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if a, err = net.DialUnix("unix", nil, ln.Addr().(*net.UnixAddr)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close() })
	if b, err = ln.AcceptUnix(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return a, b
}
