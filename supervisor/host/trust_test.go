//go:build unix

package host

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestClaudeHooksFileFifoDoesNotHangSpawn pins a trial bug: a fifo
// planted as claude-hooks.json in the runtime dir made every claude
// spawn hang on reading it (an open for reading waits for a writer).
// It is now refused without blocking; so is a symlink there, which was
// read through (and, holding the same hooks, handed to Claude Code).
func TestClaudeHooksFileFifoDoesNotHangSpawn(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo", claudeSettingsFile)
	link := filepath.Join(dir, "link", claudeSettingsFile)
	victim := filepath.Join(dir, "victim")
	for _, d := range []string{filepath.Dir(fifo), filepath.Dir(link)} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	data := []byte(`{"hooks":{}}`)
	if err := os.WriteFile(victim, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- writeIfChanged(fifo, data) }()
	select {
	case <-done:
	case <-time.After(time.Minute): // bounds the failure only
		f, _ := os.OpenFile(fifo, os.O_WRONLY, 0) // frees the stuck reader
		f.Close()
		t.Fatal("writeIfChanged blocked on a fifo planted as claude-hooks.json")
	}
	if err := writeIfChanged(link, data); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("a symlink planted as claude-hooks.json: %v; want it refused (Claude Code would read through it)", err)
	}
}
