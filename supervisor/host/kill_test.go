package host

import (
	"strings"
	"testing"

	"clowder/supervisor/proto"
)

// TestHostKillSendsTheGivenSignalFirst pins issue 7: `kill --signal S`
// ignored S and sent HUP and TERM. The child records what it got: S alone,
// then (it ignores S) SIGKILL after the grace.
func TestHostKillSendsTheGivenSignalFirst(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFake(c, "signals")
	c.waitText(p.ID, "READY")
	c.call(&proto.KillReq{Pane: p.ID, Signal: "USR1", GraceMS: 500})
	screen := c.screen(p.ID)
	if got := strings.Count(screen, "GOT "); got != 1 || !contains(screen, "GOT SIGUSR1") {
		t.Fatalf("the child got, in order:\n%s\nwant only SIGUSR1", screen)
	}
	if in := c.info(p.ID); in.ExitReason != "killed" || in.ExitSignal != "SIGKILL" {
		t.Fatalf("after the grace: %+v; want killed by KILL", in)
	}
}

// TestHostKillRefusesAnUnknownSignal: an unknown signal is an error that
// names it, and nothing is signalled.
func TestHostKillRefusesAnUnknownSignal(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFake(c, "signals")
	c.waitText(p.ID, "READY")
	if e := c.callErr(&proto.KillReq{Pane: p.ID, Signal: "NOPE"}); e.Code != proto.CodeBadRequest || !contains(e.Message, `"NOPE"`) {
		t.Fatalf("kill --signal NOPE: %+v", e)
	}
	if in := c.info(p.ID); in.State != "running" || contains(c.screen(p.ID), "GOT") {
		t.Fatalf("a refused kill signalled the pane: %+v\n%s", in, c.screen(p.ID))
	}
}
