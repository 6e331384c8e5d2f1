//go:build linux

package client

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"clowder/persist"
	"clowder/supervisor"
	"clowder/supervisor/proto"
)

// The fake host: the test binary re-executed with CLOWDER_FAKE_HOST set,
// as `EXE host --foreground`, stands in for the real host in the tests of
// Connect's start-on-demand logic.
const fakeHostEnv = "CLOWDER_FAKE_HOST"

func init() {
	switch os.Getenv(fakeHostEnv) {
	case "":
	case "fail":
		fmt.Fprintln(os.Stderr, "fake host: config broken, args", os.Args[1:])
		os.Exit(1)
	default:
		os.Exit(fakeHost())
	}
}

// fakeHost takes the host lock (exit 3 if another holds it), listens on
// the socket and answers host-status with its pid until host-stop.
func fakeHost() int {
	if strings.Join(os.Args[1:], " ") != "host --foreground" {
		fmt.Fprintln(os.Stderr, "fake host: unexpected args", os.Args[1:])
		return 2
	}
	paths, err := persist.ResolvePaths(os.LookupEnv)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ready := os.NewFile(3, "ready") // the pipe of EnvReadyFD, as the real host
	defer ready.Close()
	lock, err := persist.Lock(paths.LockFile(), persist.CanRelisten) // as the real host: at once
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake host:", err)
		fmt.Fprintln(ready, HostBusy)
		return 3
	}
	defer lock.Close()
	_ = os.Remove(paths.SocketFile()) // best effort: a stale socket
	ln, err := net.Listen("unix", paths.SocketFile())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Fprintln(ready, HostReady)
	stop := make(chan struct{})
	go fakeHostAccept(ln, stop)
	select {
	case <-stop:
	case <-time.After(30 * time.Second): // never outlive a broken test for long
	}
	_ = os.Remove(paths.SocketFile())
	return 0
}

// fakeHostAccept serves connections until one asks to stop.
func fakeHostAccept(ln net.Listener, stop chan struct{}) {
	var once sync.Once
	for {
		nc, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			c := proto.NewFdConn(nc.(*net.UnixConn))
			if _, _, err := proto.AcceptHello(c, proto.MinVersion, proto.MaxVersion, proto.WelcomeReply{Caps: Caps}); err != nil {
				return
			}
			for {
				f, err := c.ReadFrame()
				if err != nil {
					return
				}
				var m proto.Message = proto.HostInfoReply{Pid: os.Getpid()}
				if f.Type == proto.MsgHostStop {
					m = proto.OKReply{}
				}
				rf, _ := proto.NewFrame(f.ReqID, proto.FlagReply, m)
				_ = c.WriteFrame(rf)
				if f.Type == proto.MsgHostStop {
					once.Do(func() { close(stop) })
				}
			}
		}()
	}
}

// shortPaths isolates a test under a short /tmp path (sun_path is ~108 bytes).
func shortPaths(t *testing.T) persist.Paths {
	t.Helper()
	dir, err := os.MkdirTemp("/tmp", "clw-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return persist.Paths{RuntimeDir: dir + "/run", StateDir: dir + "/state", ConfigFile: dir + "/config.toml"}
}

func TestClientConnectRaceStartsExactlyOneHost(t *testing.T) {
	paths := shortPaths(t)
	t.Setenv(fakeHostEnv, "serve")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	const n = 4
	pids := make(chan int, n)
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := Connect(ctx, paths, exe)
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			info, err := c.HostStatus(ctx)
			if err != nil {
				t.Error(err)
			}
			pids <- info.Pid
		}()
	}
	wg.Wait()
	close(pids)
	first := 0
	for pid := range pids {
		if first == 0 {
			first = pid
		} else if pid != first {
			t.Errorf("clients reached hosts %d and %d; want one host", first, pid)
		}
	}
	if first == 0 {
		t.Fatal("no client reached a host")
	}
	stopFakeHost(ctx, t, paths, first)
}

// stopFakeHost stops the host and proves its process is gone.
func stopFakeHost(ctx context.Context, t *testing.T, paths persist.Paths, pid int) {
	t.Helper()
	id, err := supervisor.ReadIdentity(pid)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Dial(ctx, paths.SocketFile())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.HostStop(ctx, true); err != nil {
		t.Fatal(err)
	}
	if err := supervisor.WaitGone(ctx, id); err != nil {
		t.Fatal(err)
	}
}

func TestClientConnectReusesARunningHost(t *testing.T) {
	paths := shortPaths(t)
	t.Setenv(fakeHostEnv, "serve")
	exe, _ := os.Executable()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c1, err := Connect(ctx, paths, exe)
	if err != nil {
		t.Fatal(err)
	}
	defer c1.Close()
	info1, _ := c1.HostStatus(ctx)
	c2, err := Connect(ctx, paths, "/nonexistent/must-not-be-started")
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if info2, _ := c2.HostStatus(ctx); info2.Pid != info1.Pid {
		t.Errorf("second Connect reached pid %d, want the running %d", info2.Pid, info1.Pid)
	}
	if fi, err := os.Stat(paths.RuntimeDir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("runtime dir: %v %v, want mode 0700", fi.Mode(), err)
	}
	stopFakeHost(ctx, t, paths, info1.Pid)
}

func TestClientConnectNamesTheLogWhenTheHostNeverAnswers(t *testing.T) {
	paths := shortPaths(t)
	t.Setenv(fakeHostEnv, "fail")
	exe, _ := os.Executable()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err := Connect(ctx, paths, exe)
	if err == nil {
		t.Fatal("Connect succeeded with a host that exits at once")
	}
	msg := err.Error()
	for _, want := range []string{paths.LogFile(), "config broken", "exited"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not mention %q", msg, want)
		}
	}
}

// TestClientConnectReportsAHostThatExitsBeforeListening: a host that
// refuses to start (a broken config) is reported as soon as it exits, with
// its last log line. Regression: the client dialled for its whole
// HostStartTimeout (5 s) first.
func TestClientConnectReportsAHostThatExitsBeforeListening(t *testing.T) {
	paths := shortPaths(t)
	t.Setenv(fakeHostEnv, "fail")
	exe, _ := os.Executable()
	_, err := Connect(context.Background(), paths, exe)
	if err == nil {
		t.Fatal("Connect succeeded with a host that exits at once")
	}
	msg := err.Error()
	for _, want := range []string{"exited (exit status 1) before it listened", paths.LogFile(), "config broken"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not mention %q", msg, want)
		}
	}
}

func TestClientDialWithoutHostIsErrNoHost(t *testing.T) {
	paths := shortPaths(t)
	_, err := Dial(context.Background(), paths.SocketFile())
	if !errorsIsNoHost(err) {
		t.Fatalf("Dial with no host: %v, want ErrNoHost", err)
	}
}

func TestClientHostEnvPinsResolvedPaths(t *testing.T) {
	p := persist.Paths{RuntimeDir: "/r", StateDir: "/s", ConfigFile: "/c"}
	env := hostEnv([]string{"A=1", persist.EnvRuntimeDir + "=rel", "B=2"}, p)
	got := strings.Join(env, " ")
	for _, want := range []string{"A=1", "B=2", persist.EnvRuntimeDir + "=/r", persist.EnvStateDir + "=/s", persist.EnvConfig + "=/c"} {
		if !strings.Contains(got, want) {
			t.Errorf("env %q lacks %q", got, want)
		}
	}
	if strings.Contains(got, "=rel") {
		t.Errorf("env %q keeps the relative override", got)
	}
}

func errorsIsNoHost(err error) bool { return errors.Is(err, ErrNoHost) }
