//go:build linux

package client

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"clowder/persist"
	"clowder/supervisor/proto"
)

// TestAStopNoticeEndsCallsWithNoWaitForAHost proves the client's half of
// the stop notice: a call whose connection ends with it fails at once
// with ErrHostStopped (and ErrNoHost, so that ls and capture say no host
// runs), and no new connection is tried. Before, the client took the end
// for a crash and dialled again, waiting 20 s for a host to come back.
func TestAStopNoticeEndsCallsWithNoWaitForAHost(t *testing.T) {
	c, first, _, dials := reconnectingPair(t)
	errc := make(chan error, 1)
	go func() {
		_, err := c.List(context.Background())
		errc <- err
	}()
	first.next() // the list, never answered
	first.send(0, proto.FlagPush|proto.FlagEnd, &proto.ErrorReply{Code: proto.CodeShuttingDown, Message: "stopping"})
	first.hangUp()
	within(t, "List", func() {
		err := <-errc
		if !errors.Is(err, ErrHostStopped) || !errors.Is(err, ErrNoHost) {
			t.Errorf("List on a host that stopped: %v; want ErrHostStopped and ErrNoHost", err)
		}
	})
	if n := dials.Load(); n != 0 {
		t.Fatalf("the client dialled %d times after the stop notice; want none", n)
	}
}

// TestAHelloAnsweredShuttingDownIsNoHost proves the other half: a dial
// whose hello a stopping host answered with shutting-down (it had queued
// before the host removed its socket) reports no host at once, for Dial
// and for a request sent with the hello alike. Before, Dial returned the
// handshake's error, which ls printed instead of the recorded panes.
func TestAHelloAnsweredShuttingDownIsNoHost(t *testing.T) {
	stopping := func(uc *net.UnixConn) {
		fc := proto.NewFdConn(uc)
		if g, err := proto.ReadHello(fc, proto.MinVersion, proto.MaxVersion, proto.WelcomeReply{}); err == nil {
			_ = g.Refuse(fc, &proto.ErrorReply{Code: proto.CodeShuttingDown, Message: "stopping"})
		}
	}
	sock := earlyHost(t, stopping, stopping)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second) // bounds a failure only
	defer cancel()
	c, err := Dial(ctx, sock)
	if c != nil {
		_ = c.Close()
	}
	if !errors.Is(err, ErrHostStopped) || !errors.Is(err, ErrNoHost) {
		t.Fatalf("Dial to a stopping host: %v; want ErrHostStopped and ErrNoHost", err)
	}
	c, _, err = DialList(ctx, sock, func(c *Client) { c.RetryAcrossHostLoss() })
	if c != nil {
		_ = c.Close()
	}
	if !errors.Is(err, ErrHostStopped) || ctx.Err() != nil {
		t.Fatalf("DialList to a stopping host: %v (context: %v); want ErrHostStopped at once", err, ctx.Err())
	}
}

// TestADialFindingAStoppingHostsLockIsNoHost: a dial that finds no socket
// and the host lock held by a host that says it is stopping reports no
// host at once. Before, it asked that host to listen again (SIGUSR1),
// which a stopping host does not do, and waited for it (3 s), or said it
// could not.
func TestADialFindingAStoppingHostsLockIsNoHost(t *testing.T) {
	paths := shortPaths(t)
	if err := paths.EnsureRuntimeDir(); err != nil {
		t.Fatal(err)
	}
	lock, err := persist.Lock(paths.LockFile(), persist.Stopping)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second) // bounds a failure only
	defer cancel()
	c, err := Dial(ctx, paths.SocketFile())
	if c != nil {
		_ = c.Close()
	}
	if !errors.Is(err, ErrHostStopped) || !errors.Is(err, ErrNoHost) {
		t.Fatalf("Dial beside a stopping host's lock: %v; want ErrHostStopped and ErrNoHost", err)
	}
}
