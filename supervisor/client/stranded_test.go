//go:build linux

package client

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
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

// TestDialStrandedSaysNoHostWhenTheHostExitsWhileItWaits pins a fault of
// the stranded-host dial: a client that found the lock held and the
// socket gone asked the holder to listen again and waited for it; when
// the holder exited instead (its lock released), the client waited out
// relistenWait and then blamed a host that "did not listen again", which
// no longer existed. It now says what a dial with no host says.
func TestDialStrandedSaysNoHostWhenTheHostExitsWhileItWaits(t *testing.T) {
	dir := privateRuntimeDir(t)
	lock, err := persist.Lock(filepath.Join(dir, persist.LockFileName), persist.CanRelisten) // this process is the host
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	asked := make(chan os.Signal, 1)
	signal.Notify(asked, syscall.SIGUSR1)
	defer signal.Stop(asked)
	exited := make(chan struct{})
	go func() { // the host, asked to listen again, exits instead
		defer close(exited)
		<-asked
		_ = lock.Close()
	}()
	sock := filepath.Join(dir, "host.sock")
	c, err := dialStranded(context.Background(), sock)
	<-exited
	if err == nil {
		_ = c.Close()
		t.Fatal("dialled a host that exited")
	}
	if want := fmt.Errorf("%w (socket %s)", ErrNoHost, sock).Error(); !errors.Is(err, ErrNoHost) || err.Error() != want {
		t.Fatalf("the host exited while the client waited for it: %q; want the no-host error %q", err, want)
	}
}
