package persist

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPeekLockHolderSeesAHeldLockWithoutTakingIt: a held host lock is
// seen with its holder's pid; peeking takes no lock (the holder's file
// can still not be locked by a second Lock), and a released one is free.
func TestPeekLockHolderSeesAHeldLockWithoutTakingIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), LockFileName)
	if _, held := PeekLockHolder(path); held {
		t.Fatal("a missing lock file is held")
	}
	l, err := Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	if pid, held := PeekLockHolder(path); !held || pid != os.Getpid() {
		t.Errorf("held lock: pid %d held %v; want pid %d held", pid, held, os.Getpid())
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if _, held := PeekLockHolder(path); held {
		t.Error("a released lock is held")
	}
	l2, err := Lock(path)
	if err != nil {
		t.Fatalf("lock again after peeking: %v", err)
	}
	_ = l2.Close()
}
