//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// fakePasteHoldEnv makes the test binary a fake agent that turns on
// bracketed paste, reads a paste's first bytes, says PASTE-BEGAN, then
// reads nothing more until the file the variable names exists (so the
// paste's writer is held in its middle), then reads on: PASTE-ENDED once
// the paste's end marker came, then AFTER and the hex of every byte after
// it.
const fakePasteHoldEnv = "CLOWDER_E2E_FAKE_PASTEHOLD"

func fakePasteHold() int {
	if t, err := unix.IoctlGetTermios(0, unix.TCGETS); err == nil {
		t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
		t.Oflag &^= unix.OPOST
		t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
		_ = unix.IoctlSetTermios(0, unix.TCSETS, t)
	}
	fmt.Print("\x1b[?2004hHOLD-READY\r\n")
	start, end := []byte("\x1b[200~"), []byte("\x1b[201~")
	var got []byte
	buf := make([]byte, 4096)
	for !bytes.Contains(got, start) || len(got) < bytes.Index(got, start)+len(start)+1 {
		n, err := os.Stdin.Read(buf)
		if err != nil {
			return 1
		}
		got = append(got, buf[:n]...)
	}
	fmt.Print("PASTE-BEGAN\r\n")
	for {
		if _, err := os.Stat(os.Getenv(fakePasteHoldEnv)); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond) // the fake's own pace, not a test's synchronisation
	}
	for !bytes.Contains(got, end) {
		n, err := os.Stdin.Read(buf)
		if err != nil {
			return 1
		}
		got = append(got, buf[:n]...)
	}
	fmt.Print("PASTE-ENDED\r\n")
	after := got[bytes.Index(got, end)+len(end):]
	for {
		if len(after) > 0 {
			fmt.Printf("AFTER %x\r\n", after)
		}
		n, err := os.Stdin.Read(buf)
		if err != nil {
			return 0
		}
		after = buf[:n]
	}
}

// A TUI killed (SIGKILL) in the middle of a big bracketed paste, while it
// still wrote the body to the pane's terminal, left the program inside the
// paste: ESC[201~ never came, so every key typed later (send-keys, a new
// TUI) went into the paste and the pane seemed dead. The host now holds
// the paste open for the TUI's connection and closes it when the
// connection ends; a key sent after that arrives as a key.
func TestE2ETUIKilledMidPasteLeavesThePasteClosed(t *testing.T) {
	e := newE2E(t)
	e.env = append(e.env, "SHELL=/bin/sh", "PS1=$ ")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	release := filepath.Join(e.dir, "read-on")
	// The release path in env, not on the command line, which would take
	// NAME=/long/path for a token (supervisor/secret.go).
	cfg := fmt.Sprintf("[tui]\ndefault_adapter = \"holds\"\n[agents.holds]\ncommand = [%q]\nenv = { %s = %q }\n", self, fakePasteHoldEnv, release)
	if err := os.WriteFile(filepath.Join(e.dir, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	o := startTmux(t, e, 120, 30)
	o.waitScreen("HOLD-READY")
	o.keys("C-Space", "1") // the pane that holds the paste
	file := filepath.Join(e.dir, "paste.txt")
	// 1 MiB: far more than the pane's terminal holds while the fake does
	// not read, so the TUI is still writing it when it is killed.
	if err := os.WriteFile(file, []byte(strings.Repeat(strings.Repeat("x", 99)+"\n", 1<<20/100)), 0o600); err != nil {
		t.Fatal(err)
	}
	o.run("load-buffer", file)
	o.run("paste-buffer", "-p", "-t", "0")
	var id string
	e.eventually(60*time.Second, "the paste to begin in the pane", func() bool {
		for _, p := range e.panes() {
			if out, _, _ := e.run("capture", p.ID); strings.Contains(out, "PASTE-BEGAN") {
				id = p.ID
				return true
			}
		}
		return false
	})
	killMidPaste(t, e, o.pid(), release, id)
}

// The same through `clowder attach`, which passed the terminal's paste to
// the master brackets and all: an attach killed mid-paste left the
// program inside it.
func TestE2EAttachKilledMidPasteLeavesThePasteClosed(t *testing.T) {
	e := newE2E(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	release := filepath.Join(e.dir, "read-on")
	base := e.env
	e.env = append(slices.Clone(base), fakePasteHoldEnv+"="+release) // the pane gets the caller's environment
	id := strings.TrimSpace(e.must("new", "--name", "holds", "--", self))
	e.env = base
	e.eventually(30*time.Second, "the fake to start", func() bool {
		out, _, _ := e.run("capture", id)
		return strings.Contains(out, "HOLD-READY")
	})
	o := startTmux(t, e, 120, 30, "attach", id)
	o.waitScreen("HOLD-READY")
	file := filepath.Join(e.dir, "paste.txt")
	if err := os.WriteFile(file, []byte(strings.Repeat(strings.Repeat("x", 99)+"\n", 1<<20/100)), 0o600); err != nil {
		t.Fatal(err)
	}
	o.run("load-buffer", file)
	o.run("paste-buffer", "-p", "-t", "0")
	e.eventually(60*time.Second, "the paste to begin in the pane", func() bool {
		out, _, _ := e.run("capture", id)
		return strings.Contains(out, "PASTE-BEGAN")
	})
	killMidPaste(t, e, o.pid(), release, id)
}

// killMidPaste SIGKILLs the UI process ui while pane id holds a paste,
// lets the pane read on (the release file), and checks that the paste
// ended and a key typed after it arrives as a key.
func killMidPaste(t *testing.T, e *e2eEnv, ui int, release, id string) {
	t.Helper()
	if err := syscall.Kill(ui, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(release, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	e.eventually(60*time.Second, "the paste to end in the pane", func() bool {
		out, _, _ := e.run("capture", id)
		return strings.Contains(out, "PASTE-ENDED")
	})
	e.must("send-keys", id, "-l", "after")
	want := fmt.Sprintf("AFTER %x", "after")
	e.eventually(30*time.Second, "a key after the paste", func() bool {
		out, _, _ := e.run("capture", id)
		return strings.Contains(out, want)
	})
}
