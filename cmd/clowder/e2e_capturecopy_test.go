//go:build linux

package main

import (
	"os"
	"runtime"
	"strings"
	"testing"

	"clowder/persist"
)

// tallyWriter counts what it is given and keeps none of it; like an
// *os.File, it takes a string without a copy.
type tallyWriter struct{ n int }

func (w *tallyWriter) Write(p []byte) (int, error)       { w.n += len(p); return len(p), nil }
func (w *tallyWriter) WriteString(s string) (int, error) { w.n += len(s); return len(s), nil }

// TestE2ECaptureWritesTheTextWithoutCopyingIt pins issue 12 (capture
// --scrollback 10000, Session 17): capture printed the text with
// fmt.Fprint, which copied it into a buffer of its own: the text again in
// fresh memory (470 KB of scrollback: 115 page faults, 4.0x the text in
// all). It writes the text as it is (3.0x). The bound leaves room for
// reading the reply (about twice the text, as proto reads a large body
// in growing steps) and the text decoded from it.
func TestE2ECaptureWritesTheTextWithoutCopyingIt(t *testing.T) {
	e := newE2E(t)
	id := strings.TrimSpace(e.must("new", "--", "sh", "-c",
		`i=0; while [ $i -lt 10100 ]; do echo "line $i of the history, as a build prints it"; i=$((i+1)); done; echo filled; exec sleep 600`))
	e.must("wait", id, "--text", "filled", "--timeout", "60s")
	a := &app{lookup: persist.LookupEnv(func(k string) (string, bool) { return lookupIn(e.env, k) }),
		environ: func() []string { return e.env }, getwd: os.Getwd,
		stdin: strings.NewReader(""), stdout: &tallyWriter{}, stderr: os.Stderr,
		exe: func() (string, error) { return e.bin, nil }}
	run([]string{"capture", id, "--scrollback", "10000"}, a) // warm: the first use builds tables
	out := &tallyWriter{}
	a.stdout = out
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if code := run([]string{"capture", id, "--scrollback", "10000"}, a); code != 0 {
		t.Fatalf("capture exited %d", code)
	}
	runtime.ReadMemStats(&after)
	if out.n < 400_000 {
		t.Fatalf("capture wrote %d bytes; want 10,000 lines of history", out.n)
	}
	if got, most := after.TotalAlloc-before.TotalAlloc, uint64(7*out.n/2); got > most {
		t.Errorf("capture of %d bytes allocated %d bytes; at most %d (3.5x the text): print it without copying", out.n, got, most)
	}
}

// lookupIn is os.LookupEnv over env (the last assignment wins).
func lookupIn(env []string, key string) (string, bool) {
	v, ok := "", false
	for _, kv := range env {
		if k, val, _ := strings.Cut(kv, "="); k == key {
			v, ok = val, true
		}
	}
	return v, ok
}
