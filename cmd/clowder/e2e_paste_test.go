//go:build linux

package main

import (
	"crypto/sha256"
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"
	"time"
)

// fakeAgent starts the test binary as a fake agent (env var mode) in a
// pane and waits until it says ready.
func fakeAgent(t *testing.T, e *e2eEnv, mode, ready string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimSpace(e.must("new", "--", "env", mode+"=1", self))
	e.must("wait", id, "--text", ready, "--timeout", "20s")
	return id
}

// TestE2EPasteKeepsInvalidUTF8 pins issue 7 §3: the paste text travelled
// as a JSON string, so invalid UTF-8 reached the pane as U+FFFD; it now
// arrives as sent, as with send-keys -l.
func TestE2EPasteKeepsInvalidUTF8(t *testing.T) {
	e := newE2E(t)
	id := fakeAgent(t, e, fakeKeysEnv, "KEYS-READY")
	text := "a\xff\xfe\xc3b"
	if _, errOut, code := e.runStdin([]byte(text), "paste", id, "-"); code != 0 {
		t.Fatalf("paste: exit %d: %s", code, errOut)
	}
	want := fmt.Sprintf("%x", "\x1b[200~"+text+"\x1b[201~")
	e.eventually(20*time.Second, "the paste's bytes in the pane", func() bool {
		return strings.Contains(strings.Join(hexIn(e.must("log", id)), ""), want)
	})
}

// hexIn is the hex of every IN line fakeKeys printed, in order.
func hexIn(log string) []string {
	var out []string
	for _, line := range strings.Split(log, "\n") {
		if h, ok := strings.CutPrefix(line, "IN "); ok {
			out = append(out, strings.TrimSpace(h))
		}
	}
	return out
}

// TestE2EPasteOf50MBArrivesWhole pins issue 7 §3: a 50 MB paste failed
// with "frame exceeds the maximum frame size". The client now sends it in
// chunks under the frame limit, in order, bracketed once as a whole; a
// raw-mode child receives exactly the bytes pasted.
func TestE2EPasteOf50MBArrivesWhole(t *testing.T) {
	const size = 50_000_000
	e := newE2E(t)
	id := fakeAgent(t, e, fakePasteEnv, "PASTE-READY")
	letters := []byte("abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789\t.,;:!?é世")
	text := make([]byte, 0, size+4)
	r := rand.New(rand.NewSource(7))
	for len(text) < size {
		i := r.Intn(len(letters))
		for i > 0 && letters[i]&0xc0 == 0x80 { // start of a character
			i--
		}
		end := i + 1
		for end < len(letters) && letters[end]&0xc0 == 0x80 {
			end++
		}
		text = append(text, letters[i:end]...)
	}
	if _, errOut, code := e.runStdin(text, "paste", id, "-"); code != 0 {
		t.Fatalf("paste of %d bytes: exit %d: %s", len(text), code, errOut)
	}
	want := fmt.Sprintf("PASTED %x %d", sha256.Sum256(text), len(text))
	out := e.must("wait", id, "--text", "PASTED|BAD", "--timeout", "60s")
	if got := e.must("capture", id); !strings.Contains(got, want) {
		t.Errorf("the pane received something else: %s\nscreen:\n%s\nwant %s", out, got, want)
	}
}
