package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestTheTerminalIsReadThroughThePoller pins issue 12's input hop: the
// goroutine reading the terminal waited in a system call of its own
// (ultraviolet's cancel reader's epoll_wait), holding its thread and the
// scheduler's P, so the decoder it woke waited 25-90 µs for the runtime to
// take the P back. It now parks in the runtime's poller ("IO wait").
func TestTheTerminalIsReadThroughThePoller(t *testing.T) {
	_, tty := rawPTY(t)
	own := labelGoroutines(t)
	l := newEventLoop(context.Background())
	stop, err := l.readInput(tty, "xterm-256color")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	deadline := time.Now().Add(10 * time.Second)
	for {
		state := readerState(own)
		if state == "IO wait" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the terminal's reader waits in state %q, want IO wait (the runtime's poller)", state)
		}
		time.Sleep(5 * time.Millisecond) // polling a condition with a deadline
	}
}

// readerState is the scheduler state of the goroutine reading the
// terminal ("" if there is none yet), among the goroutines labelled own:
// another test's reader, still ending, is not this one.
func readerState(own string) string {
	for _, g := range ownGoroutines(own) {
		if !strings.Contains(g, "(*eventLoop).scanInput") {
			continue
		}
		head, _, _ := strings.Cut(g, "\n")
		_, state, _ := strings.Cut(head, "[")
		state, _, _ = strings.Cut(state, "]")
		state, _, _ = strings.Cut(state, ",")        // "IO wait, 2 minutes"
		state, _, _ = strings.Cut(state, " labels:") // "IO wait labels:{...}"
		return state
	}
	return ""
}

// Reading through the poller takes a file description of its own: the
// terminal clowder was started on (shared with the shell that started it)
// is never left non-blocking.
func TestPollingTheTerminalLeavesItsDescriptionBlocking(t *testing.T) {
	_, tty := rawPTY(t) // rawPTY's Fd left tty's description blocking
	own := labelGoroutines(t)
	l := newEventLoop(context.Background())
	stop, err := l.readInput(tty, "xterm-256color")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	deadline := time.Now().Add(10 * time.Second)
	for readerState(own) != "IO wait" {
		if time.Now().After(deadline) {
			t.Fatal("the terminal's reader never waited in the poller")
		}
		time.Sleep(5 * time.Millisecond) // polling a condition with a deadline
	}
	rc, err := tty.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var flags int
	var ferr error
	if err := rc.Control(func(fd uintptr) { flags, ferr = unix.FcntlInt(fd, unix.F_GETFL, 0) }); err != nil || ferr != nil {
		t.Fatal(err, ferr)
	}
	if flags&unix.O_NONBLOCK != 0 {
		t.Error("the terminal's own description was made non-blocking")
	}
}
