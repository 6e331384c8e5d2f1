//go:build linux

package main

// A real tmux on its own -L socket as the outer terminal for end-to-end
// tests of clowder's terminal UIs (the TUI, attach): send-keys types,
// capture-pane reads the screen.

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// outerTmux is a tmux server running one clowder command in a window of a
// fixed size.
type outerTmux struct {
	t           *testing.T
	env         []string // the test's isolated environment, for tmux itself
	sock        string
	lastCommand string // the shell line the window runs (for respawn-pane)
}

// startTmux runs `clowder args...` in a new tmux server of e's world, at
// cols x rows, and kills the server (proving it gone) when the test ends.
func startTmux(t *testing.T, e *e2eEnv, cols, rows int, args ...string) *outerTmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it)")
	}
	o := &outerTmux{t: t, env: e.env, sock: "clw-" + e.mark}
	cmd := []string{"env"}
	for _, kv := range e.env {
		for _, p := range []string{"CLOWDER_", "XDG_", "TMUX_TMPDIR=", "SHELL=", "PS1=", "PATH=", "HOME="} {
			if strings.HasPrefix(kv, p) {
				cmd = append(cmd, kv)
			}
		}
	}
	cmd = append(cmd, "TERM=xterm-256color", e2eBinary)
	cmd = append(cmd, args...)
	// exec: the pane's pid is clowder itself, not the shell tmux runs it
	// with (dash does not exec a lone command), so signals reach the TUI.
	o.lastCommand = "exec " + shellLine(cmd)
	full := []string{"new-session", "-d", "-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows), o.lastCommand}
	o.run(full...)
	o.run("set-option", "-g", "remain-on-exit", "on")
	t.Cleanup(o.kill)
	return o
}

// shellLine quotes argv for tmux's shell.
func shellLine(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

func (o *outerTmux) run(args ...string) string {
	o.t.Helper()
	cmd := exec.Command("tmux", append([]string{"-L", o.sock, "-f", "/dev/null"}, args...)...)
	cmd.Env = o.env // the server inherits the isolated world, not the user's
	out, err := cmd.CombinedOutput()
	if err != nil {
		o.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// keys types tmux key names into the outer pane.
func (o *outerTmux) keys(keys ...string) { o.run(append([]string{"send-keys", "-t", "0"}, keys...)...) }

// screen is the outer pane's text.
func (o *outerTmux) screen() string { return o.run("capture-pane", "-p", "-t", "0") }

// waitScreen waits until the screen contains want, or fails showing it.
func (o *outerTmux) waitScreen(want string) string {
	o.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		s := o.screen()
		if strings.Contains(s, want) {
			return s
		}
		if time.Now().After(deadline) {
			o.t.Fatalf("%q never showed; the screen:\n%s", want, s)
		}
		time.Sleep(20 * time.Millisecond) // polling a condition with a deadline
	}
}

// waitCount waits until want shows n times on the screen.
func (o *outerTmux) waitCount(want string, n int) {
	o.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for strings.Count(o.screen(), want) < n {
		if time.Now().After(deadline) {
			o.t.Fatalf("%q never showed %d times; the screen:\n%s", want, n, o.screen())
		}
		time.Sleep(20 * time.Millisecond) // polling a condition with a deadline
	}
}

// shows reports whether the screen contains want within d.
func (o *outerTmux) shows(want string, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for !strings.Contains(o.screen(), want) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond) // polling a condition with a deadline
	}
	return true
}

// settled waits until the screen has stopped changing (the same twice,
// 300 ms apart) with no pane still marked working, and returns it.
func (o *outerTmux) settled() string {
	o.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	prev := ""
	for {
		s := o.screen()
		if s == prev && !strings.Contains(s, "working") {
			return s
		}
		if time.Now().After(deadline) {
			o.t.Fatalf("the screen never settled:\n%s", s)
		}
		prev = s
		time.Sleep(300 * time.Millisecond) // polling a condition with a deadline
	}
}

// resize sets the outer window's size.
func (o *outerTmux) resize(cols, rows int) {
	o.run("resize-window", "-t", "0", "-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows))
}

// pid is the pid of the program in the outer pane.
func (o *outerTmux) pid() int {
	n, _ := strconv.Atoi(strings.TrimSpace(o.run("display-message", "-p", "-t", "0", "#{pane_pid}")))
	return n
}

// kill stops the server and proves its socket no longer answers.
func (o *outerTmux) kill() {
	kill := exec.Command("tmux", "-L", o.sock, "kill-server")
	kill.Env = o.env
	_ = kill.Run() // may already be gone
	list := exec.Command("tmux", "-L", o.sock, "list-sessions")
	list.Env = o.env
	if list.Run() == nil {
		o.t.Errorf("tmux server %s still answers after kill-server", o.sock)
	}
}
