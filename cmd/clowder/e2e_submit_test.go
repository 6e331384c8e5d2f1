//go:build linux

package main

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// fakeDeafEnv makes the test binary a prompt that never takes an Enter:
// raw mode and bracketed paste on, "> " and every printable byte read
// echoed after it, CR ignored, as Claude Code does with an Enter it drops.
const fakeDeafEnv = "CLOWDER_E2E_FAKE_DEAF"

func fakeDeaf() int {
	if t, err := unix.IoctlGetTermios(0, unix.TCGETS); err == nil {
		t.Lflag &^= unix.ICANON | unix.ECHO | unix.ISIG | unix.IEXTEN
		t.Iflag &^= unix.ICRNL | unix.IXON
		_ = unix.IoctlSetTermios(0, unix.TCSETS, t)
	}
	fmt.Print("\x1b[?2004hDEAF-READY\r\n> ")
	buf := make([]byte, 256)
	for {
		n, err := os.Stdin.Read(buf)
		if err != nil {
			return 0
		}
		s := strings.NewReplacer("\x1b[200~", "", "\x1b[201~", "", "\r", "").Replace(string(buf[:n]))
		fmt.Print(s)
	}
}

// TestE2ESubmitWaitReportsNotTaken pins issue 11 §3: submit --wait exits
// 1 with a message naming the pane when the program left the text in its
// prompt, and 0 when it took it.
func TestE2ESubmitWaitReportsNotTaken(t *testing.T) {
	e := newE2E(t)
	id := fakeAgent(t, e, fakeDeafEnv, "DEAF-READY")
	_, errOut, code := e.run("submit", "--wait", id, "hello there")
	if code != 1 || !strings.Contains(errOut, "pane "+id+" did not take the submission: the text is still in its prompt") {
		t.Fatalf("submit --wait to a prompt that drops Enter: exit %d, stderr %q; want 1 and not taken", code, errOut)
	}
	sh := strings.TrimSpace(e.must("new", "--", "/bin/sh"))
	e.must("submit", "--wait", sh, "echo taken-$((6*7))")
	e.must("wait", sh, "--text", "taken-42", "--timeout", "20s")
	if _, errOut, code := e.run("submit", "--wait", "--timeout", "0", sh, "x"); code != 2 || !strings.Contains(errOut, "--wait needs a positive timeout") {
		t.Errorf("--wait --timeout 0: exit %d, stderr %q; want a usage error", code, errOut)
	}
}
