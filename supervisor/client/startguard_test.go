//go:build linux

package client

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"
)

// TestClientConnectStartsNoHostItWasToldIsNotNeeded: under StartOnlyIf,
// Connect with no host running asks need at the moment it would start
// one; no says ErrNoHostNeeded (matching ErrNoHost too) and starts
// nothing, yes starts the host as ever.
func TestClientConnectStartsNoHostItWasToldIsNotNeeded(t *testing.T) {
	paths := shortPaths(t)
	t.Setenv(fakeHostEnv, "serve")
	exe, _ := os.Executable()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	asked := 0
	_, err := Connect(StartOnlyIf(ctx, func() bool { asked++; return false }), paths, exe)
	if !errors.Is(err, ErrNoHostNeeded) || !errorsIsNoHost(err) || asked != 1 {
		t.Fatalf("Connect told no host is needed: %v (need asked %d times); want ErrNoHostNeeded and ErrNoHost, asked once", err, asked)
	}
	if _, err := Dial(ctx, paths.SocketFile()); !errorsIsNoHost(err) {
		t.Fatalf("after Connect was told no host is needed, Dial: %v; want no host", err)
	}
	c, err := Connect(StartOnlyIf(ctx, func() bool { return true }), paths, exe)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	info, err := c.HostStatus(ctx)
	if err != nil {
		t.Fatal(err)
	}
	stopFakeHost(ctx, t, paths, info.Pid)
}

// TestRedialerRequestsStartNoHostAfterTheHostStopped pins a way a TUI
// started a host behind the back of a user who stopped it: a request on
// the lost connection (never sent, so sent again) connected again the way
// the client was made, which starts a host. A Redialer's connections wait
// for a host instead (its owner starts one only if a held pane still
// runs): the request fails and no host is started.
func TestRedialerRequestsStartNoHostAfterTheHostStopped(t *testing.T) {
	paths := shortPaths(t)
	t.Setenv(fakeHostEnv, "serve")
	exe, _ := os.Executable()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := Connect(ctx, paths, exe)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRedialer(c, nil)
	defer r.Close()
	info, err := c.HostStatus(ctx)
	if err != nil {
		t.Fatal(err)
	}
	stopFakeHost(ctx, t, paths, info.Pid)
	select {
	case <-c.Done():
	case <-ctx.Done():
		t.Fatal("the connection never ended after the host stopped")
	}
	short, cancelShort := context.WithTimeout(ctx, 2*time.Second)
	defer cancelShort()
	if _, err := r.Client().List(short); err == nil {
		t.Error("a request after the host stopped succeeded: a host was started for it")
	}
	if nc, err := Dial(ctx, paths.SocketFile()); !errorsIsNoHost(err) {
		if err == nil {
			st, _ := nc.HostStatus(ctx)
			stopFakeHost(ctx, t, paths, st.Pid)
			_ = nc.Close()
		}
		t.Fatalf("after the host stopped, a Redialer's request started one (Dial: %v)", err)
	}
}
