//go:build linux

package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
)

// maxInitBytes bounds what one of clowder's own packages may allocate in
// its package initialization.
const maxInitBytes = 16 << 10

// TestE2EPackageInitIsCheap pins issue 12 (CLI cost): every clowder
// process, `clowder ls` included, compiled the attention rules' regular
// expressions, the secret scanner's and the profile templates' at package
// init (about 280 KB and 3,400 allocations, 15% of an ls's CPU) though
// only a host matching a screen or spawning a pane uses them. They are
// compiled on first use; the runtime's own init trace proves it.
func TestE2EPackageInitIsCheap(t *testing.T) {
	e := newE2E(t)
	cmd := exec.Command(e.bin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("clowder --version: %v\n%s", err, out)
	}
	trace := regexp.MustCompile(`(?m)^init (clowder/\S+) @.*?, (\d+) bytes, (\d+) allocs`)
	seen := 0
	for _, m := range trace.FindAllStringSubmatch(string(out), -1) {
		seen++
		if n, _ := strconv.Atoi(m[2]); n > maxInitBytes {
			t.Errorf("package %s allocates %d bytes (%s allocs) at init; at most %d: make it lazy", m[1], n, m[3], maxInitBytes)
		}
	}
	if seen == 0 {
		t.Fatalf("no init trace of clowder's packages in:\n%s", out)
	}
}

// maxLazyInitAllocs bounds the allocations of the init of a package whose
// tables a one-shot command does not use (panes: its small maps are about
// 30; a regular expression compiled at init is about 30 more).
const maxLazyInitAllocs = 64

// TestE2EKeyNamesAreBuiltOnFirstUse pins issue 12 (CLI cost): panes built
// its table of key names (with fmt.Sprintf) and their lower-cased map at
// init, 158 allocations in every process, though only send-keys and the
// TUI name keys: 2% of an ls's CPU. They are built on first use.
func TestE2EKeyNamesAreBuiltOnFirstUse(t *testing.T) {
	e := newE2E(t)
	cmd := exec.Command(e.bin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("clowder --version: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`(?m)^init clowder/panes @.*?, (\d+) allocs`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("no init trace of clowder/panes in:\n%s", out)
	}
	if n, _ := strconv.Atoi(string(m[1])); n > maxLazyInitAllocs {
		t.Errorf("clowder/panes allocates %d times at init; at most %d: build its tables and regexps on first use", n, maxLazyInitAllocs)
	}
}

// maxOwnInitAllocs bounds the allocations of the init of each of
// clowder's own packages: a few small maps and sync.OnceValue closures.
const maxOwnInitAllocs = 40

// TestE2EOwnPackagesBuildTheirTablesOnFirstUse pins issue 12 (CLI cost,
// Session 17): vtgrid built its parse table and 128 one-character strings
// (133 allocations) and panes compiled a worktree-name regexp (28) at init,
// in every process, though a CLI command parses no terminal output and
// removes no worktree. They are built on first use.
func TestE2EOwnPackagesBuildTheirTablesOnFirstUse(t *testing.T) {
	e := newE2E(t)
	cmd := exec.Command(e.bin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("clowder --version: %v\n%s", err, out)
	}
	trace := regexp.MustCompile(`(?m)^init (clowder/\S+|main) @.*?, (\d+) allocs`)
	seen := 0
	for _, m := range trace.FindAllStringSubmatch(string(out), -1) {
		seen++
		if n, _ := strconv.Atoi(m[2]); n > maxOwnInitAllocs {
			t.Errorf("package %s allocates %d times at init; at most %d: build its tables on first use", m[1], n, maxOwnInitAllocs)
		}
	}
	if seen == 0 {
		t.Fatalf("no init trace of clowder's packages in:\n%s", out)
	}
}
