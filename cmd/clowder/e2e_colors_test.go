//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The outer terminal's colours in these tests: tmux answers a program's
// OSC 10/11 queries from its window-style.
const (
	outerStyle = "bg=#fafaf0,fg=#101010"
	outerBG    = "BG ]11;rgb:fafa/fafa/f0f0"
)

// colorProbe writes a script that, in raw mode, asks its terminal's
// background (OSC 11, ended by ST) each time a key arrives and prints the
// answer without its escapes ("BG ]11;rgb:...").
func colorProbe(t *testing.T, e *e2eEnv) string {
	t.Helper()
	script := `stty raw -echo
printf 'PROBE READY\r\n'
while :; do
  dd bs=1 count=1 >/dev/null 2>&1
  printf '\033]11;?\033\\'
  r=$(dd bs=1 count=25 2>/dev/null | tr -d '\033\\')
  printf 'BG %s\r\n' "$r"
done
`
	path := filepath.Join(e.dir, "probe.sh")
	if err := os.WriteFile(path, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

// lightOuter gives the outer tmux a light window style and restarts the
// clowder command in it, so that this time it finds the style when it asks.
func lightOuter(o *outerTmux) {
	o.run("set-option", "-g", "window-style", outerStyle)
	o.run("respawn-pane", "-k", "-t", "0", o.lastCommand)
}

// Regression (issue 8 §2): a program in a clowder pane asking its
// background was told black whatever the user's terminal was, so Codex
// painted its composer dark on a light terminal. Through attach, in real
// tmux with a light background, it is now told that background.
func TestE2EAttachPassesTheOuterBackground(t *testing.T) {
	e := newE2E(t)
	probe := colorProbe(t, e)
	id := strings.TrimSpace(e.must("new", "--", "sh", probe))
	e.must("wait", id, "--text", "PROBE READY", "--timeout", "10s")
	o := startTmux(t, e, 100, 30, "attach", id)
	o.waitScreen("PROBE READY")
	lightOuter(o)
	o.waitScreen("PROBE READY")
	o.keys("x")
	s := o.waitScreen("BG ]11;")
	if !strings.Contains(s, outerBG) {
		t.Fatalf("the pane was told another background than the outer terminal's; the screen:\n%s", s)
	}
}

// The same through the TUI, which learns the colours as bubbletea messages
// and passes them on while it runs. The probe is the default agent, so the
// test types single keys only.
func TestE2ETUIPassesTheOuterBackground(t *testing.T) {
	e := newE2E(t)
	probe := colorProbe(t, e)
	cfg := "[tui]\ndefault_adapter = \"probe\"\n[agents.probe]\ncommand = [\"/bin/sh\", \"" + probe + "\"]\n"
	if err := os.WriteFile(filepath.Join(e.dir, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	e.env = append(e.env, "SHELL=/bin/sh", "PS1=$ ")
	o := startTmux(t, e, 120, 40)
	o.waitScreen("PROBE READY")
	lightOuter(o)
	o.waitScreen("PROBE READY")
	deadline := time.Now().Add(15 * time.Second)
	for n := 1; !o.shows(outerBG, time.Second); n++ { // the TUI tells the host while it runs: ask until it has
		if time.Now().After(deadline) {
			t.Fatalf("the pane never saw the outer background; the screen:\n%s", o.screen())
		}
		o.keys("x")
		o.waitCount("BG ]11;", n)
	}
}

// TestE2ETUIDrawsThePanesColours: the real TUI in a real tmux draws a
// pane's colours and attributes. The TUI once drew none (its renderer took
// the colour profile of the buffer it rendered into, not of the terminal),
// and only in-process tests looked at its output.
func TestE2ETUIDrawsThePanesColours(t *testing.T) {
	e, o := tuiEnv(t, 120, 30)
	e.must("new", "--name", "colours", "--", "/bin/sh", "-c", `printf '\033[31mRED\033[0m \033[1;44mBOLDBLUE\033[0m\n'; exec sleep 600`)
	o.waitScreen("BOLDBLUE")
	deadline := time.Now().Add(15 * time.Second)
	for {
		s := o.run("capture-pane", "-p", "-e", "-t", "0")
		if strings.Contains(s, "\x1b[31mRED") && strings.Contains(s, "\x1b[1m\x1b[44mBOLDBLUE") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the TUI drew the pane without its colours; the outer screen with its escapes:\n%q", s)
		}
		o.waitScreen("BOLDBLUE")
	}
}
