//go:build linux

package client

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"clowder/persist"
)

// Regression: a client racing a host's start found the host lock held
// before the host had written its pid (or listened), took it for a
// stranded older host, and failed with "cannot listen again"
// (TestClientConnectRaceStartsExactlyOneHost, 3 runs in 20).
func TestDialWaitsForAHostThatHasJustTakenItsLock(t *testing.T) {
	dir := privateRuntimeDir(t)
	lock, err := persist.Lock(filepath.Join(dir, persist.LockFileName))
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := os.Truncate(filepath.Join(dir, persist.LockFileName), 0); err != nil {
		t.Fatal(err) // the moment before the holder writes its pid
	}
	sock := filepath.Join(dir, "host.sock")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		c, err := dialStranded(ctx, sock)
		if err == nil {
			_ = c.Close()
		}
		errc <- err
	}()
	accepted := recordingListener(t, sock) // the host listens
	err = <-errc
	if err != nil && strings.Contains(err.Error(), "cannot listen again") {
		t.Fatalf("a host that had just taken its lock was taken for a stranded one: %v", err)
	}
	if accepted.Load() == 0 {
		t.Fatalf("the client never dialled the host that took the lock (err %v)", err)
	}
}
