//go:build linux

package main

import (
	"strings"
	"testing"
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
