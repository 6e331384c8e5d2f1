//go:build linux

package main

// End-to-end tests of the CLI trial's faults: recorded panes with no host
// running, usage errors of completion, help and nested commands.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"clowder/supervisor/proto"
)

// Regression (CLI trial, the worst new-user trap): after `host stop
// --force` agents.json still held pane q, yet `ls` printed an empty table,
// `rm q` said "no clowder host is running ... so there are no panes", and
// `new --name q` then failed with "a pane is already named q".
func TestRecordedPaneWithNoHostIsListedRemovedAndItsNameFreed(t *testing.T) {
	e := newE2E(t)
	e.must("new", "--name", "q", "--", "sleep", "9")
	e.must("host", "stop", "--force")

	out, errOut, code := e.run("ls")
	if code != 0 || !strings.Contains(out, " q ") || !strings.Contains(out, "exited") {
		t.Fatalf("ls with no host: exit %d, want q listed as exited:\n%s%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "no clowder host is running") || !strings.Contains(errOut, "clowder host") {
		t.Fatalf("ls with no host: stderr does not say no host runs and what to do: %q", errOut)
	}
	var list []proto.PaneInfo
	if err := json.Unmarshal([]byte(e.must("ls", "--json")), &list); err != nil || len(list) != 1 || list[0].Name != "q" {
		t.Fatalf("ls --json with no host: %v %+v, want pane q", err, list)
	}
	if _, _, code := e.run("host", "status"); code != 1 {
		t.Fatalf("ls started a host (host status exit %d, want 1)", code)
	}

	_, errOut, code = e.run("rm", "nosuch") // names no record: no host is started for it
	if code != 1 || !strings.Contains(errOut, "agents.json records 1 pane") {
		t.Fatalf("rm nosuch with no host: exit %d: %q", code, errOut)
	}
	if _, _, code := e.run("host", "status"); code != 1 {
		t.Fatalf("rm of no recorded pane started a host (host status exit %d, want 1)", code)
	}
	e.must("rm", "q")
	e.must("new", "--name", "q", "--", "true")
}

// With no host and a recorded pane, a command that only talks to a host
// says what to do, not that there are no panes.
func TestPaneCommandWithNoHostNamesTheRecordedPanes(t *testing.T) {
	e := newE2E(t)
	e.must("new", "--name", "q", "--", "sleep", "9")
	e.must("host", "stop", "--force")
	_, errOut, code := e.run("send-keys", "q", "Enter")
	if code != 1 || strings.Contains(errOut, "there are no panes") || !strings.Contains(errOut, "clowder host") {
		t.Fatalf("send-keys with no host: exit %d: %q", code, errOut)
	}
}

// Regression (CLI trial): `clowder completion foo`, `clowder completion`
// and `clowder help foo` printed help and exited 0; `clowder host stop
// extra` said "see clowder stop --help", a command that does not exist.
// Each is a usage error: exit 2, one line naming the bad word (or the
// full command path) and the valid choices.
func TestBadCompletionHelpAndNestedArgsAreUsageErrors(t *testing.T) {
	e := newE2E(t)
	for _, tc := range []struct {
		args []string
		want []string // in the one line
	}{
		{[]string{"completion", "foo"}, []string{`"foo"`, "bash, zsh, fish or powershell"}},
		{[]string{"completion"}, []string{"completion needs a shell", "bash, zsh, fish or powershell"}},
		{[]string{"help", "foo"}, []string{`"foo"`, "ls", "host"}},
		{[]string{"host", "stop", "extra"}, []string{"host stop takes no arguments", "see clowder host stop --help"}},
		{[]string{"host", "status", "extra"}, []string{"host status takes", "see clowder host status --help"}},
	} {
		out, errOut, code := e.run(tc.args...)
		lines := strings.Split(strings.TrimRight(errOut, "\n"), "\n")
		if code != 2 || out != "" || len(lines) != 1 {
			t.Errorf("clowder %q: exit %d, stdout %d bytes, stderr %q; want exit 2 and one line", tc.args, code, len(out), errOut)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("clowder %q: %q does not say %q", tc.args, errOut, w)
			}
		}
	}
	if out, _, code := e.run("help", "ls"); code != 0 || !strings.Contains(out, "clowder ls") {
		t.Errorf("help ls: exit %d: %q", code, out)
	}
	if out, _, code := e.run("completion", "bash"); code != 0 || !strings.Contains(out, "bash completion") {
		t.Errorf("completion bash: exit %d, %d bytes", code, len(out))
	}
}

// Regression (CLI trial): a runtime dir that is a symbolic link was
// refused with "is not a directory (L---------)", a mode string that says
// nothing; the line now says it is a symbolic link and what to do.
func TestSymlinkedRuntimeDirIsNamedASymbolicLink(t *testing.T) {
	e := newE2E(t)
	real := filepath.Join(e.dir, "real")
	if err := os.Mkdir(real, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(e.dir, "run")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Remove(link) }) // before e's cleanup, whose host stop would refuse the link
	for _, args := range [][]string{{"capture", "p1"}, {"ls"}} {
		_, errOut, code := e.run(args...)
		if code != 1 || !strings.Contains(errOut, "is a symbolic link") || strings.Contains(errOut, "L---") ||
			!strings.Contains(errOut, real) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("clowder %q with a symlinked runtime dir: exit %d, %q; want exit 1 and one line saying it is a symbolic link to %s", args, code, errOut, real)
		}
	}
}

// Regression (CLI trial): errors of config.toml and of `host upgrade`
// that did not say what to do, or said the wrong thing:
//   - a config over 1 MiB was refused without saying what to do;
//   - `[keys] zoom = "Zoom"` ended with "to send text as typed, use -l",
//     send-keys' advice, which means nothing in config.toml;
//   - `[keys] zoom = "x"` with a typo'd `zoom2 = "x"` reported the clash,
//     not the unknown action zoom2;
//   - `host upgrade --binary` with a 10 KB path exited 1, not 2.
func TestConfigAndUpgradeErrorsSayWhatToDo(t *testing.T) {
	e := newE2E(t)
	cfg := filepath.Join(e.dir, "config.toml")
	for _, tc := range []struct {
		name, config string
		args         []string
		code         int
		want, not    []string
	}{
		{"config over 1 MiB", "#" + strings.Repeat("x", 1<<20) + "\n", []string{"new", "--", "true"}, 1,
			[]string{"1 MiB", "CLOWDER_CONFIG", "cut it down"}, nil},
		{"unknown key name in [keys]", "[keys]\nzoom = \"Zoom\"\n", []string{}, 1,
			[]string{"zoom", `"Zoom"`, "config.toml"}, []string{"-l"}},
		{"typo'd action sharing a key", "[keys]\nzoom = \"x\"\nzoom2 = \"x\"\n", []string{"new", "--", "true"}, 1,
			[]string{"zoom2", "unknown action"}, []string{"also zoom"}},
		{"10 KB upgrade binary", "", []string{"host", "upgrade", "--binary", "/" + strings.Repeat("a", 10<<10)}, 2,
			[]string{"--binary", "4096"}, nil},
	} {
		if err := os.WriteFile(cfg, []byte(tc.config), 0o600); err != nil {
			t.Fatal(err)
		}
		_, errOut, code := e.run(tc.args...)
		if code != tc.code || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and one line", tc.name, code, errOut, tc.code)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%s: %q does not say %q", tc.name, errOut, w)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(errOut, w) {
				t.Errorf("%s: %q says %q", tc.name, errOut, w)
			}
		}
	}
}
