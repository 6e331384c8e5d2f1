package testproc

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// WaitFor bounds every wait in the process tests. Generous: it only
// bounds a failure, and on a loaded 2-core CI machine under -race a
// spawned test binary can take seconds to start.
const WaitFor = 30 * time.Second

// SyncBuffer collects output and wakes waiters on every write.
type SyncBuffer struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	wake chan struct{}
}

// NewSyncBuffer returns an empty buffer.
func NewSyncBuffer() *SyncBuffer { return &SyncBuffer{wake: make(chan struct{}, 1)} }

// Write appends p and wakes a waiter.
func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Write(p)
	select {
	case b.wake <- struct{}{}:
	default:
	}
	return len(p), nil
}

// String is everything written so far.
func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// WaitContains waits until the output contains s, failing after WaitFor.
func (b *SyncBuffer) WaitContains(t *testing.T, s string) string {
	t.Helper()
	return b.WaitCount(t, s, 1)
}

// WaitCount waits until the output contains s at least n times, failing
// after WaitFor.
func (b *SyncBuffer) WaitCount(t *testing.T, s string, n int) string {
	t.Helper()
	deadline := time.NewTimer(WaitFor)
	defer deadline.Stop()
	for {
		if out := b.String(); strings.Count(out, s) >= n {
			return out
		}
		select {
		case <-b.wake:
		case <-deadline.C:
			t.Fatalf("output never contained %q %d times; got %q", s, n, b.String())
		}
	}
}
