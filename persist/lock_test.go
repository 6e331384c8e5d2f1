package persist

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// helper is a re-executed test binary running runHelper.
type helper struct {
	cmd   *exec.Cmd
	stdin *os.File // closing it releases a "hold" helper
	lines *bufio.Reader
	out   *os.File
}

// startHelper re-executes the test binary in the given mode on lock path.
func startHelper(t *testing.T, mode, path string) *helper {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, helperLockEnv+"="+path)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	_ = inR.Close()  // best effort: the child has its copy
	_ = outW.Close() // best effort: so EOF arrives when the child exits
	h := &helper{cmd: cmd, stdin: inW, lines: bufio.NewReader(outR), out: outR}
	t.Cleanup(func() {
		_ = inW.Close()
		_ = h.cmd.Process.Kill() // best effort: it may have exited already
		_ = h.cmd.Wait()
		_ = outR.Close()
	})
	return h
}

// line reads the helper's next output line, with a deadline.
func (h *helper) line(t *testing.T) string {
	t.Helper()
	if err := h.out.SetReadDeadline(time.Now().Add(20 * time.Second)); err != nil {
		t.Fatal(err)
	}
	s, err := h.lines.ReadString('\n')
	if err != nil {
		t.Fatalf("read helper output: %v (got %q)", err, s)
	}
	return strings.TrimSuffix(s, "\n")
}

func TestLockIsExclusiveAcrossProcessesAndFreedWhenHolderEnds(t *testing.T) {
	ends := []struct {
		name string
		end  func(h *helper) error
	}{
		{"holder unlocks and exits", func(h *helper) error { return h.stdin.Close() }},
		{"holder is SIGKILLed", func(h *helper) error { return h.cmd.Process.Kill() }},
	}
	for _, tc := range ends {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), LockFileName)
			h := startHelper(t, "hold", path)
			if got := h.line(t); got != "locked" {
				t.Fatalf("helper: %q, want locked", got)
			}
			_, err := Lock(path)
			if !errors.Is(err, ErrLocked) {
				t.Fatalf("Lock while another process holds it: %v, want ErrLocked", err)
			}
			want := fmt.Sprintf("(pid %d)", h.cmd.Process.Pid)
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), want) {
				t.Errorf("error %q should name %s and %s", err, path, want)
			}
			if err := tc.end(h); err != nil {
				t.Fatal(err)
			}
			_ = h.cmd.Wait() // a killed helper reports the signal; either end is fine
			l, err := Lock(path)
			if err != nil {
				t.Fatalf("Lock after the holder ended: %v", err)
			}
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestLockHeldHereRefusesAnotherProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), LockFileName)
	l, err := Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	h := startHelper(t, "try", path)
	got := h.line(t)
	want := fmt.Sprintf("refused: lock %s: %v (pid %d)", path, ErrLocked, os.Getpid())
	if got != want {
		t.Errorf("helper said %q, want %q", got, want)
	}
	if err := h.cmd.Wait(); err != nil {
		t.Errorf("helper: %v", err)
	}
}

func TestLockCloseIsIdempotentAndAllowsRelock(t *testing.T) {
	path := filepath.Join(t.TempDir(), LockFileName)
	l, err := Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	// flock locks belong to the open file, so even this process's second
	// open is refused while the first holds it.
	if _, err := Lock(path); !errors.Is(err, ErrLocked) {
		t.Errorf("second Lock in the same process: %v, want ErrLocked", err)
	}
	for i := range 2 {
		if err := l.Close(); err != nil {
			t.Fatalf("Close #%d: %v", i+1, err)
		}
	}
	l2, err := Lock(path)
	if err != nil {
		t.Fatalf("Lock after Close: %v", err)
	}
	_ = l2.Close()
	if _, err := os.Stat(path); err != nil {
		t.Errorf("lock file should stay in place after Close: %v", err)
	}
}

func TestLockInMissingDirFailsWithPath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", LockFileName)
	_, err := Lock(path)
	if err == nil || errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), path) {
		t.Fatalf("Lock in a missing dir: %v, want a not-exist error naming the path", err)
	}
}

// TestLockHolderSaysWhoHoldsALockAndWhatItCan: a client that finds no
// socket reads the host lock to learn whether a host runs and whether it
// can listen again; a lock nobody holds says nothing.
func TestLockHolderSaysWhoHoldsALockAndWhatItCan(t *testing.T) {
	path := filepath.Join(t.TempDir(), "host.lock")
	l, err := Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Advertise(CanRelisten); err != nil {
		t.Fatal(err)
	}
	h, held := LockHolder(path)
	if !held || h.PID != os.Getpid() || !slices.Contains(h.Can, CanRelisten) {
		t.Fatalf("LockHolder = %+v, %v; want this process, holding, able to relisten", h, held)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if h, held := LockHolder(path); held {
		t.Fatalf("a released lock is held by %+v", h)
	}
}
