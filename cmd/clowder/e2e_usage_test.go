//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EBadValuesAreUsageErrors pins a trial bug: bad values given on
// the command line (an empty, over-long or control-laden PANE, an
// invalid --name or NAME, an unknown key or signal, an empty command,
// a string flag given as "") exited 1, as failures do, or were taken
// silently as the default, instead of exiting 2 as usage errors with one
// line naming the flag or operand. Each is refused before any host is
// asked: none is started.
func TestE2EBadValuesAreUsageErrors(t *testing.T) {
	e := newE2E(t)
	long := strings.Repeat("x", 10<<10)
	for _, tc := range []struct {
		args []string
		want string // in the one line
	}{
		{[]string{"capture", ""}, "PANE"},
		{[]string{"log", "p1\x1b[2J"}, "PANE"},
		{[]string{"poll", long}, "PANE"},
		{[]string{"send-keys", "", "Enter"}, "PANE"},
		{[]string{"paste", "", "x"}, "PANE"},
		{[]string{"submit", "", "x"}, "PANE"},
		{[]string{"wait", ""}, "PANE"},
		{[]string{"kill", ""}, "PANE"},
		{[]string{"rm", ""}, "PANE"},
		{[]string{"rename", "", "a"}, "PANE"},
		{[]string{"respawn", ""}, "PANE"},
		{[]string{"land", ""}, "PANE"},
		{[]string{"discard", ""}, "PANE"},
		{[]string{"attach", ""}, "PANE"},
		{[]string{"rename", "p1", "a b"}, "NAME"},
		{[]string{"rename", "p1", ""}, "NAME"},
		{[]string{"send-keys", "p1", "NoSuchKey"}, "NoSuchKey"},
		{[]string{"paste", "p1", "a\x1bb"}, "ESC"},
		{[]string{"submit", "p1", "\x03"}, "^C"},
		{[]string{"kill", "p1", "--signal", "NOPE"}, "--signal"},
		{[]string{"kill", "p1", "--signal", ""}, "--signal"},
		{[]string{"wait", "p1", "--text", ""}, "--text"},
		{[]string{"wait", "p1", "--idle", "0"}, "--idle"},
		{[]string{"kill", "p1", "--grace", "0"}, "--grace"},
		{[]string{"submit", "p1", "--timeout", "-1s", "x"}, "--timeout"},
		{[]string{"new", "--name", "", "--", "true"}, "--name"},
		{[]string{"new", "--name", "a b", "--", "true"}, "--name"},
		{[]string{"new", "--agent", "", "--", "true"}, "--agent"},
		{[]string{"new", "--cwd", "", "--", "true"}, "--cwd"},
		{[]string{"new", "--size", "", "--", "true"}, "--size"},
		{[]string{"new", "--", ""}, "command"},
		{[]string{"exec", "--", ""}, "command"},
		{[]string{"adopt", "tmux", ""}, "target"},
		{[]string{"adopt", "tmux", "-L", "", "x"}, "--socket-name"},
		{[]string{"adopt", "tmux", "-L", "a", "x", "--name", "a b"}, "--name"},
		{[]string{"host", "upgrade", "--binary", ""}, "--binary"},
		{[]string{"demo", "--file", ""}, "--file"},
	} {
		_, stderr, code := e.run(tc.args...)
		line := strings.TrimSuffix(stderr, "\n")
		if code != 2 || !strings.Contains(line, tc.want) || strings.Contains(line, "\n") || len(line) > 300 {
			t.Errorf("clowder %q: exit %d, stderr %q; want exit 2 and one short line naming %s", clipArgs(tc.args), code, clipArgs([]string{stderr}), tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(e.dir, "run", "host.sock")); err == nil {
		t.Error("a usage error started a host")
	}
}

// clipArgs shortens long arguments for a failure message.
func clipArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if len(a) > 200 {
			a = a[:200] + "..."
		}
		out[i] = a
	}
	return out
}

// TestE2ELongBadValueStaysOneShortLine pins a trial bug: a 10 KB --name
// was echoed whole in the error line. A bad value is named, clipped with
// an ellipsis, and the line says the limit where there is one.
func TestE2ELongBadValueStaysOneShortLine(t *testing.T) {
	e := newE2E(t)
	long := strings.Repeat("y", 10<<10)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"new", "--name", long, "--", "true"}, "at most 40"},
		{[]string{"rename", "p1", long}, "at most 40"},
		{[]string{"adopt", "tmux", "-L", "a", "x", "--name", long}, "at most 40"},
		{[]string{"new", "--agent", long, "--", "true"}, "…"},
		{[]string{"new", "--size", long, "--", "true"}, "…"},
		{[]string{"wait", "p1", "--text", "(" + long}, "…"},
		{[]string{"kill", "p1", "--signal", long}, "…"},
		{[]string{"send-keys", "p1", long}, "…"},
		{[]string{"adopt", "tmux", "-L", "a", long}, "…"},
		{[]string{"adopt", "tmux", "-L", long, "x"}, "…"},
	} {
		_, stderr, code := e.run(tc.args...)
		line := strings.TrimSuffix(stderr, "\n")
		if code != 2 || len(line) > 300 || strings.Contains(line, "\n") || !strings.Contains(line, tc.want) {
			t.Errorf("clowder %q: exit %d, %d bytes of stderr %q; want exit 2 and one line under 300 bytes with %q", clipArgs(tc.args), code, len(stderr), clipArgs([]string{stderr}), tc.want)
		}
	}
	// What only the host can refuse (no such program) echoes the value in
	// its reply; the CLI still shows one line, cut in the middle.
	_, stderr, code := e.run("exec", "--", long)
	if line := strings.TrimSuffix(stderr, "\n"); code != 1 || len(line) > 1100 || strings.Contains(line, "\n") || !strings.Contains(line, "bytes cut") {
		t.Errorf("exec of a 10 KB program name: exit %d, %d bytes of stderr %q; want exit 1 and one line of at most about 1000 bytes", code, len(stderr), clipArgs([]string{stderr}))
	}
}

// TestE2ENewShellWithACommandRunsItInTheShell pins a trial bug: `clowder
// new --shell -- ls` ran `bash ls`, which reads a file named ls as a
// script. --shell with one SCRIPT now runs `$SHELL -c SCRIPT` (the
// user's shell, so pipelines work); more than one word is refused, as
// joining them would lose their quoting.
func TestE2ENewShellWithACommandRunsItInTheShell(t *testing.T) {
	e := newE2E(t)
	e.env = append(e.env, "SHELL=/bin/sh")
	id := strings.TrimSpace(e.must("new", "--shell", "--", "echo one | tr o O; exit 3"))
	e.must("wait", id, "--exit", "--timeout", "60s")
	if p := e.pane(id); p.ExitCode != 3 || !strings.Contains(e.must("capture", id), "One") {
		t.Fatalf("new --shell -- SCRIPT: exit %d, screen %q; want the script run by $SHELL -c (One, exit 3)", p.ExitCode, e.must("capture", id))
	}
	_, stderr, code := e.run("new", "--shell", "--", "ls", "-la")
	if code != 2 || !strings.Contains(stderr, "--shell") || !strings.Contains(stderr, "'ls -la'") {
		t.Fatalf("new --shell -- ls -la: exit %d, stderr %q; want a usage error showing the quoted form", code, stderr)
	}
}

// TestE2EClashingKeysAreRefusedAtConfigLoad pins a trial bug: config.toml
// binding two actions to one key (zoom = "x" while close keeps x, or two
// [keys] entries on one key) was accepted, and one action silently never
// ran. The TUI and every command that loads the config refuse it with
// one line naming both actions and the key, and the TUI starts no host.
func TestE2EClashingKeysAreRefusedAtConfigLoad(t *testing.T) {
	e := newE2E(t)
	config := filepath.Join(e.dir, "config.toml")
	for _, tc := range []struct{ text, want string }{
		{"[keys]\nzoom = \"x\"\n", "close and zoom share the key \"x\""},
		{"[keys]\nzoom = \"x\"\nclose = [\"q\", \"x\"]\n", "keys.zoom: key \"x\" is also close"},
	} {
		if err := os.WriteFile(config, []byte(tc.text), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{}, {"new", "--", "true"}} {
			if len(args) > 0 && strings.HasPrefix(tc.want, "close and") {
				continue // a clash with a default is the TUI's to see
			}
			_, stderr, code := e.run(args...)
			if code != 1 || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("clowder %v with %q: exit %d, stderr %q; want exit 1 and one line with %q", args, tc.text, code, stderr, tc.want)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(e.dir, "run", "host.sock")); err == nil {
		t.Error("a refused config started a host")
	}
}
