//go:build linux

package main

// Failing tests for bugs found by trying clowder as a new user and as an
// adversary (the trial of 2026-12-01). Each is skipped with "bug: ..." so
// the suite stays green; remove the t.Skip line once the bug is fixed.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2ETrialUpgradeWithBadConfigKeepsPanes pins a bug: `clowder host
// upgrade` while config.toml has an error (a typo made after the host
// started) execs the new image, which fails on the config before it takes
// the handed-over state, so the host exits and every pane dies (lost).
// docs/cli.md promises exit 1 "with the host serving on as it was".
func TestE2ETrialUpgradeWithBadConfigKeepsPanes(t *testing.T) {
	t.Skip("bug: host upgrade with an invalid config.toml kills the host and every pane")
	e := newE2E(t)
	id := strings.TrimSpace(e.must("new", "--", "sleep", "1000"))
	before := e.pane(id)
	if err := os.WriteFile(filepath.Join(e.dir, "config.toml"), []byte("bogus_key = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := e.run("host", "upgrade")
	t.Logf("host upgrade: exit %d: %s", code, stderr)
	if err := os.Remove(filepath.Join(e.dir, "config.toml")); err != nil {
		t.Fatal(err)
	}
	if _, _, c := e.run("host", "status"); c != 0 {
		t.Fatalf("the host is gone after an upgrade refused for a bad config (exit %d)", code)
	}
	after := e.pane(id)
	if after.State != "running" || after.Pid != before.Pid {
		t.Fatalf("pane %s after the upgrade: state %s pid %d, want running pid %d", id, after.State, after.Pid, before.Pid)
	}
}
