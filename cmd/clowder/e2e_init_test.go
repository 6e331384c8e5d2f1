//go:build linux

package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
)

// Bounds on the package initialization of each of clowder's own packages
// (and main), as the runtime's init trace reports it.
const (
	maxInitBytes     = 16 << 10 // bytes allocated
	maxOwnInitAllocs = 40       // allocations: a few small maps and sync.OnceValue closures
)

// initCost is one package's line of the init trace.
type initCost struct {
	pkg           string
	bytes, allocs int
}

// ownInitCosts runs `clowder --version` with the runtime's init trace
// and returns the cost of each of clowder's own packages and main.
func ownInitCosts(t *testing.T) []initCost {
	t.Helper()
	e := newE2E(t)
	cmd := exec.Command(e.bin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("clowder --version: %v\n%s", err, out)
	}
	var costs []initCost
	trace := regexp.MustCompile(`(?m)^init (clowder/\S+|main) @.*?, (\d+) bytes, (\d+) allocs`)
	for _, m := range trace.FindAllStringSubmatch(string(out), -1) {
		b, _ := strconv.Atoi(m[2])
		n, _ := strconv.Atoi(m[3])
		costs = append(costs, initCost{m[1], b, n})
	}
	if len(costs) == 0 {
		t.Fatalf("no init trace of clowder's packages in:\n%s", out)
	}
	return costs
}

// TestE2EOwnPackagesInitCheaply pins issue 12 (CLI cost): every clowder
// process, `clowder ls` included, built at package init what only some
// use, in every process:
//   - the attention rules' regular expressions, the secret scanner's and
//     the profile templates' (about 280 KB and 3,400 allocations, 15% of
//     an ls's CPU), though only a host matching a screen or spawning a
//     pane uses them;
//   - panes' table of key names (with fmt.Sprintf) and their lower-cased
//     map (158 allocations, 2% of an ls's CPU), though only send-keys and
//     the TUI name keys;
//   - vtgrid's parse table and 128 one-character strings (133
//     allocations) and panes' worktree-name regexp (28), though a CLI
//     command parses no terminal output and removes no worktree
//     (Session 17).
//
// They are built on first use; the runtime's own init trace proves it.
func TestE2EOwnPackagesInitCheaply(t *testing.T) {
	for _, c := range ownInitCosts(t) {
		if c.bytes > maxInitBytes || c.allocs > maxOwnInitAllocs {
			t.Errorf("package %s allocates %d bytes in %d allocations at init; at most %d bytes and %d allocations: build its tables and regexps on first use",
				c.pkg, c.bytes, c.allocs, maxInitBytes, maxOwnInitAllocs)
		}
	}
}
