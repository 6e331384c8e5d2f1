package host

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"clowder/persist"
	"clowder/supervisor/internal/testproc"
	"clowder/supervisor/proto"
)

// testHost is a real host serving on a real unix socket in a short temp
// dir (sun_path is about 108 bytes), stopped when the test ends.
type testHost struct {
	t     *testing.T
	paths persist.Paths
	o     *testproc.Oracle
	host  *Server
	done  chan error // Serve's result
}

func startHost(t *testing.T, tune ...func(*persist.Config)) *testHost {
	t.Helper()
	th := newTestHost(t)
	cfg := persist.DefaultConfig()
	for _, f := range tune {
		f(&cfg)
	}
	th.serve(cfg)
	return th
}

// newTestHost makes a test's directories and oracle; serve starts the host.
func newTestHost(t *testing.T) *testHost {
	t.Helper()
	o := newOracle(t)
	rt, err := os.MkdirTemp("/tmp", "clh")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(rt) })
	return &testHost{t: t, paths: persist.Paths{RuntimeDir: rt + "/run", StateDir: t.TempDir()}, o: o}
}

// serve starts (or restarts) the host on th's paths; tune, if any, adjusts
// the host before it serves.
func (th *testHost) serve(cfg persist.Config, tune ...func(*Server)) {
	t := th.t
	h, err := New(Options{Paths: th.paths, Config: cfg, Build: "test", IdleExit: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range tune {
		f(h)
	}
	th.host = h
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	th.done = done
	served := make(chan error, 1)
	go func() {
		err := h.Serve(ctx)
		done <- err
		served <- err
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-served:
			if err != nil {
				t.Errorf("host: %v", err)
			}
		case <-time.After(20 * time.Second):
			t.Errorf("host did not stop")
		}
	})
	eventually(t, "host socket", func() bool {
		c, err := net.Dial("unix", th.paths.SocketFile())
		if err == nil {
			c.Close()
		}
		return err == nil && h.listener() != nil // serving: tests may call the host's methods
	})
}

// waitLocksFree waits until no process holds the host locks of th's
// paths, after a test killed their host: a child the host was forking
// then keeps the lock's file open until it execs, and a host started
// meanwhile fails to take it (CI, once, under load: "locked by another
// process").
func (th *testHost) waitLocksFree() {
	th.t.Helper()
	for _, path := range []string{th.paths.LockFile(), th.paths.StateLockFile()} {
		deadline := time.Now().Add(time.Minute)
		for {
			if _, held := persist.PeekLockHolder(path); !held {
				break
			}
			if time.Now().After(deadline) {
				th.t.Fatalf("%s still locked a minute after its host was killed; open in %v", path, openers(path))
			}
			time.Sleep(5 * time.Millisecond) // polling a condition with a deadline
		}
	}
}

// openers lists the processes that have path open, "PID command".
func openers(path string) []string {
	var out []string
	fds, _ := filepath.Glob("/proc/[0-9]*/fd/*")
	for _, fd := range fds {
		if target, err := os.Readlink(fd); err == nil && target == path {
			pid := strings.Split(fd, "/")[2]
			cmd, _ := os.ReadFile("/proc/" + pid + "/cmdline")
			out = append(out, pid+" "+strings.ReplaceAll(strings.TrimRight(string(cmd), "\x00"), "\x00", " "))
		}
	}
	return out
}

// eventually polls cond with backoff until it holds or a minute passes.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	// Generous: it only bounds a failure. A 2-core CI machine running the
	// whole suite under -race parses an escape-dense megabyte in seconds.
	deadline := time.Now().Add(60 * time.Second)
	for step := time.Millisecond; !cond(); step = min(step*2, 50*time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(step)
	}
}

// tclient is a minimal synchronous client for host tests: requests in
// order, pushes kept per subscription.
type tclient struct {
	t      *testing.T
	uc     *net.UnixConn
	fc     *proto.FdConn
	nextID uint32
	pushes map[uint32][]proto.Frame
}

func (th *testHost) dial() *tclient {
	t := th.t
	t.Helper()
	c, err := net.Dial("unix", th.paths.SocketFile())
	if err != nil {
		t.Fatal(err)
	}
	uc := c.(*net.UnixConn)
	tc := &tclient{t: t, uc: uc, fc: proto.NewFdConn(uc), nextID: 1, pushes: map[uint32][]proto.Frame{}}
	t.Cleanup(func() { uc.Close() })
	if _, err := proto.Hello(tc.fc, proto.HelloReq{Min: proto.MinVersion, Max: proto.MaxVersion, Caps: []string{proto.CapFdPassing, proto.CapScreen, proto.CapRaw, proto.CapEvents}}); err != nil {
		t.Fatalf("hello: %v", err)
	}
	return tc
}

// send writes a request and returns its id.
func (c *tclient) send(m proto.Message) uint32 {
	c.t.Helper()
	c.nextID++
	if err := c.fc.WriteFrame(mustFrame(c.nextID, 0, m)); err != nil {
		c.t.Fatalf("send %s: %v", m.MsgType(), err)
	}
	return c.nextID
}

// read returns the next frame, with a deadline.
func (c *tclient) read(d time.Duration) (proto.Frame, error) {
	_ = c.uc.SetReadDeadline(time.Now().Add(d))
	return c.fc.ReadFrame()
}

// await reads until the reply to id, keeping pushes; it returns the reply
// message (an *ErrorReply as error) and the fds sent with it.
func (c *tclient) await(id uint32) (proto.Message, []int, error) {
	c.t.Helper()
	for {
		f, err := c.read(30 * time.Second)
		if err != nil {
			c.t.Fatalf("waiting for reply %d: %v", id, err)
		}
		if f.Flags&proto.FlagPush != 0 {
			c.pushes[f.ReqID] = append(c.pushes[f.ReqID], f)
			continue
		}
		if f.ReqID != id {
			c.t.Fatalf("reply for %d while waiting for %d", f.ReqID, id)
		}
		m, err := f.Message()
		if err != nil {
			c.t.Fatalf("decode reply: %v", err)
		}
		if e, ok := m.(*proto.ErrorReply); ok {
			return nil, f.Fds, e
		}
		return m, f.Fds, nil
	}
}

// call sends m and returns its reply, failing the test on an error reply.
func (c *tclient) call(m proto.Message) proto.Message {
	c.t.Helper()
	r, fds, err := c.await(c.send(m))
	proto.CloseFds(fds)
	if err != nil {
		c.t.Fatalf("%s: %v", m.MsgType(), err)
	}
	return r
}

// callErr sends m and returns the error reply it must get.
func (c *tclient) callErr(m proto.Message) *proto.ErrorReply {
	c.t.Helper()
	_, fds, err := c.await(c.send(m))
	proto.CloseFds(fds)
	var e *proto.ErrorReply
	if !errors.As(err, &e) {
		c.t.Fatalf("%s succeeded; want an error", m.MsgType())
	}
	return e
}

// spawnFake starts the fake agent in mode through the host.
func (th *testHost) spawnFake(c *tclient, mode string, env ...string) proto.PaneInfo {
	th.t.Helper()
	env = th.o.Env(append(env, testproc.FakeAgentEnv+"="+mode)...)
	r := c.call(&proto.SpawnReq{Nonce: mode + time.Now().String(), Argv: []string{os.Args[0]}, Env: env, Kind: "run"})
	return r.(*proto.SpawnedReply).Pane
}

// floodedPane runs the fake agent's flood of lines in a pane, waits until
// it has printed them all, and returns the pane.
func (th *testHost) floodedPane(c *tclient, lines int) *pane {
	th.t.Helper()
	info := th.spawnFake(c, "flood", "FAKE_LINES="+itoa(lines))
	c.waitText(info.ID, "READY")
	c.call(&proto.InputReq{Pane: info.ID, Data: []byte("go\n")})
	c.waitText(info.ID, "FLOOD-END")
	p, err := th.host.find(info.ID)
	if err != nil {
		th.t.Fatal(err)
	}
	return p
}

// waitText waits until the pane's screen matches re.
func (c *tclient) waitText(pane, re string) string {
	c.t.Helper()
	r := c.call(&proto.WaitReq{Pane: pane, Text: re, TimeoutMS: 20000})
	return r.(*proto.WaitDoneReply).Match
}

// screen captures the pane's text.
func (c *tclient) screen(pane string) string {
	c.t.Helper()
	return c.call(&proto.CaptureReq{Pane: pane}).(*proto.CapturedReply).Text
}

// info lists one pane.
func (c *tclient) info(pane string) proto.PaneInfo {
	c.t.Helper()
	l := c.call(&proto.ListReq{Panes: []string{pane}}).(*proto.PaneListReply)
	return l.Panes[0]
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
