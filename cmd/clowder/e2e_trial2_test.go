//go:build linux

package main

// Tests from the second trial of 2026-12-01: clowder tried as a new user
// (README's commands in order) and attacked as an adversary (hostile
// files, values and clients), on what changed that day: files opened
// without following links, bad values as usage errors, and the host's
// image split into one-page mappings after it listens.

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestE2ETrial2DemoFileThatNeverEndsIsRefused pins a trial bug: `clowder
// demo --file F` read F whole with no check, so a fifo hung it for ever
// and /dev/zero filled the memory until the kernel killed it. A recording
// must be a regular file of at most 64 MiB: anything else is one line
// naming the file, at once.
func TestE2ETrial2DemoFileThatNeverEndsIsRefused(t *testing.T) {
	e := newE2E(t)
	fifo := filepath.Join(e.dir, "rec.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(e.dir, "rec.huge")
	if err := os.WriteFile(huge, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 65<<20); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	for _, file := range []string{fifo, huge} {
		_, stderr, code := e.run("demo", "--plain", "--file", file)
		if code != 1 || !strings.Contains(stderr, file) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("demo --file %s: exit %d, stderr %q; want exit 1 and one line naming the file", file, code, stderr)
		}
	}
	small := filepath.Join(e.dir, "rec.raw")
	if err := os.WriteFile(small, []byte("hello from a recording\r\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out := e.must("demo", "--plain", "--file", small); !strings.Contains(out, "hello from a recording") {
		t.Errorf("demo --file of a small recording printed %q; want its text", out)
	}
}

// TestE2ETrial2SubmitZeroTimeoutBlamesTheTimeout pins a trial bug:
// `clowder submit P T --timeout 0`, with no --wait, said "--wait needs a
// positive timeout" of a flag never given. The line now names --timeout
// alone, and the check comes before TEXT is read from stdin.
func TestE2ETrial2SubmitZeroTimeoutBlamesTheTimeout(t *testing.T) {
	e := newE2E(t)
	_, stderr, code := e.run("submit", "p1", "x", "--timeout", "0")
	if code != 2 || !strings.Contains(stderr, "--timeout 0s") || strings.Contains(stderr, "--wait needs") {
		t.Errorf("submit --timeout 0: exit %d, stderr %q; want exit 2 naming --timeout, not --wait", code, stderr)
	}
	_, stderr, code = e.run("submit", "p1", "x", "--wait", "--timeout", "0")
	if code != 2 || !strings.Contains(stderr, "--wait needs a positive timeout") {
		t.Errorf("submit --wait --timeout 0: exit %d, stderr %q; want exit 2 saying --wait needs a positive timeout", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(e.dir, "run", "host.sock")); err == nil {
		t.Error("a usage error started a host")
	}
}

// TestE2ETrial2UpgradeTwiceSplitsTheImageAgain checks the host's image
// split (host_pages_linux.go) against upgrades: after two upgrades in a
// row, the second asked while the first image may still be splitting, a
// pane flooding output and a ticking pane run on under the same pids, the
// new image is split into one mapping per page again, and the host serves.
func TestE2ETrial2UpgradeTwiceSplitsTheImageAgain(t *testing.T) {
	e := newE2E(t)
	tick := e.tickPane()
	flood := strings.TrimSpace(e.must("new", "--", "sh", "-c", "yes flood"))
	before := map[string]int{tick: e.pane(tick).Pid, flood: e.pane(flood).Pid}
	pid := e.hostPid()
	e.must("host", "upgrade")
	e.must("host", "upgrade")
	if now := e.hostPid(); now != pid {
		t.Fatalf("host pid %d after the upgrades; want %d (in place)", now, pid)
	}
	e.eventually(60*time.Second, "the upgraded host's image split into one mapping per page", func() bool {
		maps, pages, _, _ := imageResidency(t, pid)
		return maps > 0 && maps == pages
	})
	for id, was := range before {
		if p := e.pane(id); p.State != "running" || p.Pid != was {
			t.Errorf("pane %s after two upgrades: %s pid %d; want running pid %d", id, p.State, p.Pid, was)
		}
	}
	e.must("kill", flood)
	e.must("wait", flood, "--exit", "--timeout", "30s")
}

// TestE2ETrial2AgentShellWithAScriptRunsItInTheShell pins a trial bug:
// `new --shell -- SCRIPT` runs `$SHELL -c SCRIPT`, but the same shell
// named as an adapter, `new --agent shell -- SCRIPT`, still ran `$SHELL
// SCRIPT`, which reads a script file named SCRIPT: "echo hi: No such file
// or directory", exit 127. Both spellings now run the script.
func TestE2ETrial2AgentShellWithAScriptRunsItInTheShell(t *testing.T) {
	e := newE2E(t)
	id := strings.TrimSpace(e.must("new", "--agent", "shell", "--", "echo agent-shell-ran; exit 3"))
	e.must("wait", id, "--exit", "--timeout", "30s")
	p := e.pane(id)
	if p.ExitCode != 3 || !strings.Contains(e.must("capture", id), "agent-shell-ran") {
		t.Fatalf("new --agent shell -- SCRIPT: exit %d, screen %q; want the script's exit 3 and its output", p.ExitCode, e.must("capture", id))
	}
	_, stderr, code := e.run("new", "--agent", "shell", "--", "echo", "two words")
	if code != 2 || !strings.Contains(stderr, "--agent shell") {
		t.Errorf("new --agent shell -- with two words: exit %d, stderr %q; want exit 2 naming --agent shell", code, stderr)
	}
}
