//go:build linux

package main

import (
	"strings"
	"testing"
	"time"
)

// TestE2EAttachShowsThePaneAndDetaches: attach draws the pane's screen,
// passes keys to it, and Ctrl-\ detaches leaving the pane running.
func TestE2EAttachShowsThePaneAndDetaches(t *testing.T) {
	e := newE2E(t)
	id := strings.TrimSpace(e.must("new", "--", "sh", "-c", "echo before-attach; exec cat"))
	e.must("wait", id, "--text", "before-attach", "--timeout", "10s")
	o := startTmux(t, e, 100, 30, "attach", id)
	o.waitScreen("before-attach")
	o.keys("-l", "typed-through")
	o.keys("Enter")
	o.waitScreen("typed-through")
	e.must("wait", id, "--text", "(?s)typed-through.*typed-through", "--timeout", "10s") // the tty echo and cat's copy
	o.keys("C-\\")
	o.waitScreen("[detached]")
	if p := e.pane(id); p.State != "running" {
		t.Fatalf("after detach the pane is %s", p.State)
	}
}

// TestE2EAttachSaysHowToDetachAndEndsWithThePane pins issue 7 §2: attach
// said nothing of how to leave it, and when the pane exited it waited for
// Ctrl-\ without a word. Now it shows the detach key at start (then
// paints that row back), and returns when the pane exits, saying how.
func TestE2EAttachSaysHowToDetachAndEndsWithThePane(t *testing.T) {
	e := newE2E(t)
	id := strings.TrimSpace(e.must("new", "--", "sh", "-c", "echo before-attach; read x; echo got-$x; exit 3"))
	e.must("wait", id, "--text", "before-attach", "--timeout", "10s")
	o := startTmux(t, e, 100, 30, "attach", id)
	o.waitScreen("before-attach")
	o.waitScreen("Ctrl-\\ detaches")
	o.keys("-l", "bye")
	o.keys("Enter")
	screen := o.waitScreen("[" + id + " exited with code 3]")
	if !strings.Contains(screen, "got-bye") {
		t.Errorf("the pane's last output is missing:\n%s", screen)
	}
	if strings.Contains(screen, "detaches") {
		t.Errorf("the detach hint was left on the screen:\n%s", screen)
	}
	e.eventually(10*time.Second, "attach returned", func() bool {
		return strings.TrimSpace(o.run("display-message", "-p", "-t", "0", "#{pane_dead}")) == "1"
	})
}

// TestE2EAttachFromATerminalWiderThanAPaneMayBe: attach in a terminal of
// 1,200 columns gives the pane the widest size it may have. Regression:
// attach asked for 1200 columns, the host refused (panes are at most
// 1,000), and the pane kept its old 80 columns under a wide terminal.
func TestE2EAttachFromATerminalWiderThanAPaneMayBe(t *testing.T) {
	e := newE2E(t)
	id := strings.TrimSpace(e.must("new", "--size", "80x24", "--", "sh", "-c", "echo before-attach; exec cat"))
	e.must("wait", id, "--text", "before-attach", "--timeout", "10s")
	o := startTmux(t, e, 1200, 30, "attach", id)
	o.waitScreen("before-attach")
	e.eventually(10*time.Second, "the pane takes 1000x30", func() bool {
		p := e.pane(id)
		return p.Cols == 1000 && p.Rows == 30
	})
	o.keys("C-\\")
	o.waitScreen("[detached]")
}
