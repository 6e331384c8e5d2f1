//go:build linux

package client

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"clowder/supervisor/internal/testproc"
)

// waitingIn reports whether one of own's goroutines has fn on its stack.
func waitingIn(own, fn string) bool {
	for _, g := range testproc.OwnGoroutines(own) {
		if strings.Contains(g, fn) {
			return true
		}
	}
	return false
}

// pollerFds is the fds this process's network poller watches, from the
// fdinfo of its epoll fd.
func pollerFds(t *testing.T) map[int]bool {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	watched := map[int]bool{}
	for _, e := range ents {
		if link, _ := os.Readlink("/proc/self/fd/" + e.Name()); link != "anon_inode:[eventpoll]" {
			continue
		}
		info, err := os.ReadFile("/proc/self/fdinfo/" + e.Name())
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(info), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "tfd:" {
				n, _ := strconv.Atoi(f[1])
				watched[n] = true
			}
		}
	}
	return watched
}

// Issue 12: a master passed to a client sat in its poller, registered
// for input edge-triggered, so every chunk the pane's program printed
// woke the client (the TUI) for nothing: most of its CPU in a flood. A
// Master stays out of it; the *os.File it was made from is in it (the
// check sees the poller).
func TestAMasterStaysOutOfThePoller(t *testing.T) {
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty here: %v", err)
	}
	defer tty.Close()
	defer ptm.Close()
	m, err := MasterOf(ptm)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	var fd int
	if err := m.Control(func(f uintptr) { fd = int(f) }); err != nil {
		t.Fatal(err)
	}
	watched := pollerFds(t)
	if !watched[int(ptm.Fd())] {
		t.Fatalf("the pty's own *os.File (fd %d) is not among the poller's fds %v: the check sees nothing", ptm.Fd(), watched)
	}
	if watched[fd] {
		t.Fatalf("the master's fd %d is in the poller", fd)
	}
	if _, err := m.Write([]byte("x")); err != nil {
		t.Fatalf("writing to the master: %v", err)
	}
}

// A write that finds no room waits for it until its deadline, then says
// how much it wrote; room made by a reader lets the next write through;
// Close ends a write waiting with no deadline.
func TestAMasterWriteWaitsForRoom(t *testing.T) {
	own := testproc.LabelGoroutines(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	m, err := MasterOf(w)
	_ = w.Close()
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 4096)
	filled := 0
	for {
		n, err := m.WriteWithin(chunk, 20*time.Millisecond)
		filled += n
		if errors.Is(err, os.ErrDeadlineExceeded) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if filled == 0 {
		t.Fatal("the pipe took nothing")
	}
	if _, err := r.Read(make([]byte, 8192)); err != nil { // room for the next
		t.Fatal(err)
	}
	if n, err := m.Write(chunk[:100]); n != 100 || err != nil {
		t.Fatalf("a write after the reader made room: %d, %v", n, err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := m.Write(make([]byte, 1<<20)) // more than the pipe holds, no deadline
		done <- err
	}()
	// Close once that write waits for room (the pipe is full again), not
	// before it began: the case is a Close ending a wait under way.
	deadline := time.Now().Add(10 * time.Second)
	for !waitingIn(own, "(*Master).waitRoom") {
		if time.Now().After(deadline) {
			t.Fatal("the write never waited for room")
		}
		time.Sleep(time.Millisecond) // polling a condition with a deadline
	}
	if err := m.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := <-done; !errors.Is(err, os.ErrClosed) {
		t.Fatalf("a write waiting when the master closed: %v; want os.ErrClosed", err)
	}
	if _, err := m.Write([]byte("x")); !errors.Is(err, os.ErrClosed) {
		t.Fatalf("a write after Close: %v", err)
	}
}
