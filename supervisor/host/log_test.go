package host

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestHostLogRotatesAtItsCap pins issue 7: host.log had no size cap (60 MB
// after an abusive run). It is rotated to host.log.1, the fds that were
// the old file (stderr) follow to the new one, and the two files stay
// within about twice the cap.
func TestHostLogRotatesAtItsCap(t *testing.T) {
	const max = 1 << 10
	path := filepath.Join(t.TempDir(), "host.log")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := unix.Dup(int(f.Fd())) // stands in for the process's fd 2
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(stderr)
	l, err := OpenLog(path, max, stderr)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	line := strings.Repeat("x", 99) + "\n"
	for i := 0; i < 100; i++ {
		if _, err := l.Write([]byte(line)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := unix.Write(stderr, []byte("CRASH\n")); err != nil {
		t.Fatal(err)
	}
	cur, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile(path + ".1")
	if err != nil {
		t.Fatalf("no rotated copy: %v", err)
	}
	if len(cur) > max+len("CRASH\n") || len(old) > max {
		t.Fatalf("host.log is %d bytes and host.log.1 %d; the cap is %d", len(cur), len(old), max)
	}
	if !strings.HasSuffix(string(cur), "CRASH\n") {
		t.Fatalf("a write to stderr after rotation did not reach the new host.log:\n%s", cur)
	}
	if SameFile(stderr, path+".1") || !SameFile(stderr, path) {
		t.Fatal("stderr still points at the rotated file")
	}
}
