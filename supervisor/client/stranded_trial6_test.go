//go:build linux

package client

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// A command run while the host stops (host stop, its last pane killed)
// found the lock held and the socket gone, waited for the host to listen
// again and failed after 3 s with "the socket ... of the clowder host is
// gone, and it did not listen again", although the host had simply
// stopped (TestE2ELsAndCaptureInALoopAcrossHostStop, under load). A lock
// released while the client waits means no host: ErrNoHost.
func TestDialOfAHostThatStopsWhileWaitedForIsNoHost(t *testing.T) {
	sock := filepath.Join(privateRuntimeDir(t), "host.sock")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	checks := 0
	gone := func() bool { checks++; return checks > 1 } // the host stops after the first try
	c, err := dialUntil(ctx, sock, gone, "did not listen again")
	if err == nil {
		_ = c.Close()
	}
	if !errors.Is(err, ErrNoHost) {
		t.Fatalf("dial of a host that stopped: %v, want ErrNoHost", err)
	}
}
