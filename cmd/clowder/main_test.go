package main

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"clowder/supervisor/proto"
)

// unitApp is a world with isolated paths, no host binary and captured
// output, for tests that need no host.
func unitApp(t *testing.T) (*app, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	dir, err := os.MkdirTemp("/tmp", "clwu-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	env := map[string]string{
		"CLOWDER_RUNTIME_DIR": dir + "/run", "CLOWDER_STATE_DIR": dir + "/state",
		"CLOWDER_CONFIG": dir + "/config.toml", "HOME": dir, "SHELL": "/bin/sh",
	}
	var out, errb bytes.Buffer
	a := &app{
		lookup:  func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		environ: func() []string { return nil },
		getwd:   func() (string, error) { return dir, nil },
		stdin:   strings.NewReader("from stdin"),
		stdout:  &out, stderr: &errb,
		exe: func() (string, error) { t.Error("a unit test tried to start a host"); return "/nonexistent", nil },
	}
	return a, &out, &errb
}

func TestCLIExitCodesWithoutAHost(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		err  string // substring of the one-line error; "" = no error output
	}{
		{"unknown command", []string{"bogus"}, 2, `unknown command "bogus"`},
		{"unknown flag", []string{"ls", "--bogus"}, 2, "unknown flag: --bogus"},
		{"ls extra arg", []string{"ls", "extra"}, 2, "ls takes no arguments"},
		{"capture without pane", []string{"capture"}, 2, "capture takes one PANE"},
		{"capture two panes", []string{"capture", "a", "b"}, 2, "got 2 arguments"},
		{"bad size", []string{"new", "--size", "80"}, 2, "--size"},
		{"agent and shell", []string{"new", "--agent", "claude", "--shell"}, 2, "exclude each other"},
		{"unknown adapter", []string{"new", "--agent", "nosuch"}, 2, `unknown adapter "nosuch"`},
		{"negative timeout", []string{"new", "--timeout", "-1s"}, 2, "cannot be negative"},
		{"huge grace", []string{"kill", "p1", "--grace", "100000h"}, 2, "--grace 100000h0m0s: too long"},
		{"huge wait timeout", []string{"wait", "p1", "--exit", "--timeout", "1000000h"}, 2, "--timeout 1000000h0m0s: too long"},
		{"huge poll wait", []string{"poll", "p1", "--wait", "1000000h"}, 2, "--wait 1000000h0m0s: too long"},
		{"worktree without name", []string{"new", "--worktree"}, 2, "--worktree needs --name"},
		{"bad duration", []string{"wait", "p", "--idle", "soon"}, 2, "invalid argument"},
		{"bad regexp", []string{"wait", "p", "--text", "("}, 2, "not a valid regexp"},
		{"send-keys without key", []string{"send-keys", "p"}, 2, "a PANE and at least one KEY"},
		{"paste without pane", []string{"paste"}, 2, "paste takes"},
		{"submit without text", []string{"submit", "p"}, 2, "submit takes a PANE and a TEXT"},
		{"exec without command", []string{"exec"}, 2, "exec takes a CMD"},
		{"host extra arg", []string{"host", "now"}, 2, "host takes no arguments"},
		{"negative scrollback", []string{"capture", "p", "--scrollback", "-1"}, 2, "--scrollback"},
		{"capture with no host", []string{"capture", "p1"}, 1, "no clowder host is running"},
		{"kill with no host", []string{"kill", "p1"}, 1, "start one with clowder new"},
		{"host status with no host", []string{"host", "status"}, 1, "no clowder host is running"},
		{"host stop with no host", []string{"host", "stop"}, 0, "no host is running"},
		{"ls with no host", []string{"ls"}, 0, ""},
		{"completion script", []string{"completion", "bash"}, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, _, errb := unitApp(t)
			if code := run(tt.args, a); code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, errb)
			}
			lines := strings.Split(strings.TrimRight(errb.String(), "\n"), "\n")
			switch {
			case tt.err == "" && errb.Len() != 0:
				t.Errorf("stderr %q, want none", errb)
			case tt.err != "" && (len(lines) != 1 || !strings.HasPrefix(lines[0], "clowder: ") || !strings.Contains(lines[0], tt.err)):
				t.Errorf("stderr %q, want one line \"clowder: ...%s...\"", errb, tt.err)
			}
		})
	}
}

func TestCLILsJSONWithNoHostIsAnEmptyArray(t *testing.T) {
	a, out, _ := unitApp(t)
	if code := run([]string{"ls", "--json"}, a); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if got := strings.TrimSpace(out.String()); got != "[]" {
		t.Errorf("ls --json = %q, want []", got)
	}
}

func TestCLIErrorLineUsesTheHostMessageAlone(t *testing.T) {
	err := wrapHost(`no pane named "api"; see clowder ls`)
	if got := errorLine(err); got != `no pane named "api"; see clowder ls` {
		t.Errorf("errorLine = %q", got)
	}
	if got := errorLine(errString("two\nlines")); got != "two; lines" {
		t.Errorf("errorLine = %q, want one line", got)
	}
}

func TestCLICommandLineQuotesWords(t *testing.T) {
	if got := commandLine([]string{"sh", "-c", "echo hi"}); got != `sh -c "echo hi"` {
		t.Errorf("commandLine = %q", got)
	}
}

// TestCLIDocsCoverEveryCommand pins issue 8 §3: docs/cli.md had no
// section for attach or demo. Every command cobra knows (the generated
// completion and help commands aside) has a "clowder <path>" entry there.
func TestCLIDocsCoverEveryCommand(t *testing.T) {
	doc := readCLIDoc(t)
	a, _, _ := unitApp(t)
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.Name() == "help" {
				continue
			}
			if path := sub.CommandPath(); !strings.Contains(doc, "`"+path) {
				t.Errorf("docs/cli.md has no entry for %s", path)
			}
			walk(sub)
		}
	}
	walk(newRoot(a))
}

// TestCLIDocsListEveryLsJSONField pins issue 8 §3: the `ls --json` field
// list in docs/cli.md missed fields PaneInfo has.
func TestCLIDocsListEveryLsJSONField(t *testing.T) {
	doc := readCLIDoc(t)
	start := strings.Index(doc, "### `clowder ls")
	end := strings.Index(doc[start+1:], "\n### ")
	if start < 0 || end < 0 {
		t.Fatal("docs/cli.md has no clowder ls section")
	}
	section := doc[start : start+1+end]
	ty := reflect.TypeOf(proto.PaneInfo{})
	for i := 0; i < ty.NumField(); i++ {
		name, _, _ := strings.Cut(ty.Field(i).Tag.Get("json"), ",")
		if !strings.Contains(section, "`"+name+"`") {
			t.Errorf("the ls section of docs/cli.md does not list the --json field %s", name)
		}
	}
}

// readCLIDoc reads docs/cli.md.
func readCLIDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
