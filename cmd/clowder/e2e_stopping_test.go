//go:build linux

package main

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"clowder/persist"
)

// TestE2EHostStopWaitsForAHostThatIsStopping: a `host stop` that finds a
// host already stopping (its socket gone, its lock held and saying
// "stopping") waits until that host lets go of the lock, as a stop waits
// for the host it stopped, instead of saying at once that none runs while
// it still kills its panes; and `ls` meanwhile says no host runs without
// waiting for it. The test process plays the stopping host.
func TestE2EHostStopWaitsForAHostThatIsStopping(t *testing.T) {
	e := newE2E(t)
	paths := persist.Paths{RuntimeDir: e.dir + "/run", StateDir: e.dir + "/state"}
	if err := paths.EnsureRuntimeDir(); err != nil {
		t.Fatal(err)
	}
	lock, err := persist.Lock(paths.LockFile(), persist.Stopping)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if out, errb, code := e.run("ls"); code != 0 || errb != "" || !strings.HasPrefix(out, "ID ") {
		t.Fatalf("ls beside a stopping host: exit %d, %q, %q; want the (empty) list of recorded panes", code, out, errb)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second) // bounds a failure only
	defer cancel()
	stop := e.command(ctx, "host", "stop")
	var errb lockedBuffer // written by exec's copying goroutine, read here
	stop.Stderr = &errb
	if err := stop.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- stop.Wait() }()
	e.eventually(30*time.Second, "host stop saying it waits", func() bool {
		select {
		case err := <-exited:
			t.Fatalf("host stop returned (%v, %q) while the host still held its lock", err, errb.String())
		default:
		}
		return strings.Contains(errb.String(), "is stopping; waiting for it to exit")
	})
	_ = lock.Close() // the host exits
	if err := <-exited; err != nil {
		t.Fatalf("host stop after the host exited: %v, %q", err, errb.String())
	}
}

// lockedBuffer is a bytes.Buffer safe to write on one goroutine and read
// on another.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
