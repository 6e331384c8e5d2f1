//go:build linux

package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestE2ELogRawIsByteExact pins issue 3 §4: a child writes a known 50 MB
// stream through a raw PTY; `clowder log --raw` from sequence 0 (the ring
// sized to hold it) prints exactly those bytes.
func TestE2ELogRawIsByteExact(t *testing.T) {
	const size = 50_000_000
	e := newE2E(t)
	if err := os.WriteFile(filepath.Join(e.dir, "config.toml"), []byte("[host]\nring_bytes = 67108864\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	data := make([]byte, size)
	rand.New(rand.NewSource(42)).Read(data) // every byte value, deterministic
	file := filepath.Join(e.dir, "stream")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	id := string(bytes.TrimSpace([]byte(e.must("new", "--", "sh", "-c", `stty raw -echo; exec cat "$1"`, "sh", file))))
	e.must("wait", id, "--exit", "--timeout", "5m")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := e.command(ctx, "log", id, "--raw")
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("log --raw: %v", err)
	}
	if got, want := sha256.Sum256(out.Bytes()), sha256.Sum256(data); got != want {
		i := 0
		for i < out.Len() && i < size && out.Bytes()[i] == data[i] {
			i++
		}
		t.Fatalf("log --raw gave %d bytes differing from the stream at byte %d", out.Len(), i)
	}
}
