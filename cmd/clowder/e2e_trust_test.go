//go:build linux

package main

// What clowder does with files it finds where it keeps its own: a link,
// a fifo or a file of the wrong kind planted in the runtime or state dir
// is refused with one line naming it, and nothing is written through it
// (the trial of 2026-12-01).

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// plantLink makes dir (0700) hold a symlink name -> a victim file with
// known content, and returns the victim's path.
func plantLink(t *testing.T, dir, name string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(filepath.Dir(dir), "victim-"+name)
	if err := os.WriteFile(victim, []byte("precious\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
	return victim
}

// TestE2EPlantedSymlinkInRuntimeOrStateDirIsRefused pins a trial bug: a
// symlink planted as host.log or host.lock (runtime dir) or host.lock
// (state dir) was followed when the host started, so the host appended
// its log to, or truncated and rewrote, whatever file the link named.
// Now the start is refused with one line naming the file and the fix,
// and the linked file is untouched.
func TestE2EPlantedSymlinkInRuntimeOrStateDirIsRefused(t *testing.T) {
	for _, tc := range []struct{ name, dir, file string }{
		{"runtime host.log", "run", "host.log"},
		{"runtime host.lock", "run", "host.lock"},
		{"state host.lock", "state", "host.lock"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newE2E(t)
			victim := plantLink(t, filepath.Join(e.dir, tc.dir), tc.file)
			_, stderr, code := e.run("new", "--", "sleep", "1000")
			if data, _ := os.ReadFile(victim); string(data) != "precious\n" {
				t.Errorf("the file the planted %s links to was written: %q", tc.file, data)
			}
			line := strings.TrimSpace(stderr)
			if code != 1 || !strings.Contains(line, tc.file) || !strings.Contains(line, "symbolic link") || strings.Count(line, "\n") > 0 {
				t.Fatalf("new with %s a symlink: exit %d, stderr %q; want exit 1 and one line naming the link", tc.file, code, stderr)
			}
		})
	}
}

// TestE2EPlantedFifoAsHostLogIsRefused: a fifo planted as host.log used
// to hang the starting client (an open for writing waits for a reader).
func TestE2EPlantedFifoAsHostLogIsRefused(t *testing.T) {
	e := newE2E(t)
	run := filepath.Join(e.dir, "run")
	if err := os.MkdirAll(run, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(run, "host.log"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := e.run("new", "--", "sleep", "1000")
	if code != 1 || !strings.Contains(stderr, "host.log") || !strings.Contains(stderr, "not a regular file") {
		t.Fatalf("new with host.log a fifo: exit %d, stderr %q; want exit 1 naming it", code, stderr)
	}
}

// TestE2EPollMarkPlantedFifoOrLinkIsNotFollowed pins a trial bug: poll
// keeps its position in STATE_DIR/poll/PANE; a fifo planted there hung
// `clowder poll` for ever, and a poll dir that is a symlink had the
// position written into the directory it names. Now a mark that is not
// a regular file is ignored (the poll starts from the beginning and
// replaces it), and a linked poll dir is refused, naming it.
func TestE2EPollMarkPlantedFifoOrLinkIsNotFollowed(t *testing.T) {
	e := newE2E(t)
	id := strings.TrimSpace(e.must("new", "--", "echo", "hello"))
	e.must("wait", id, "--exit")
	polls := filepath.Join(e.dir, "state", "poll")
	if err := os.MkdirAll(polls, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(polls, id), 0o600); err != nil {
		t.Fatal(err)
	}
	if out := e.must("poll", id); !strings.Contains(out, "hello") {
		t.Fatalf("poll with a fifo as its mark: %q; want the output from the start", out)
	}
	elsewhere := filepath.Join(e.dir, "elsewhere")
	if err := os.Mkdir(elsewhere, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(polls); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, polls); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := e.run("poll", id)
	if ents, _ := os.ReadDir(elsewhere); len(ents) != 0 {
		t.Errorf("poll wrote %d file(s) through a linked poll dir", len(ents))
	}
	if code != 1 || !strings.Contains(stderr, polls) || !strings.Contains(stderr, "symbolic link") {
		t.Fatalf("poll with a linked poll dir: exit %d, stderr %q; want exit 1 naming it", code, stderr)
	}
}
