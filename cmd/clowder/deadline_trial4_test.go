package main

import (
	"os"
	"testing"
	"time"

	"clowder/supervisor/proto"
)

// TestKillDeadlineCoversTheConfiguredGrace pins a trial-4 bug: a kill or
// rm with no --grace waited 3 s (the default grace) plus its slack for the
// host, while the host applies config.toml's supervisor.kill_grace; with
// kill_grace = "45s", `clowder kill` of a pane that ignores SIGTERM failed
// after 33 s saying the host "may be stopped (SIGSTOP) or overloaded",
// and the pane was killed later all the same; `host stop --force`, which
// kills every pane with that grace, failed so after 60 s.
func TestKillDeadlineCoversTheConfiguredGrace(t *testing.T) {
	a, _, _ := unitApp(t)
	cfg, _ := a.lookup("CLOWDER_CONFIG")
	if err := os.WriteFile(cfg, []byte("[supervisor]\nkill_grace = \"45s\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	deadline := a.deadlines()
	for _, m := range []proto.Message{proto.KillReq{Pane: "p1"}, proto.RemoveReq{Pane: "p1"}} {
		if d := deadline(m); d < 45*time.Second+killSlack {
			t.Errorf("%T with no grace: deadline %s, under kill_grace 45s plus the slack %s", m, d, killSlack)
		}
	}
	if d := deadline(proto.HostStopReq{Force: true}); d < 45*time.Second+killSlack {
		t.Errorf("host stop --force: deadline %s, under kill_grace 45s plus the slack %s", d, killSlack)
	}
	if d := deadline(proto.HostStopReq{}); d != slowCallTimeout {
		t.Errorf("host stop: deadline %s, want %s", d, slowCallTimeout)
	}
	if d := deadline(proto.KillReq{Pane: "p1", GraceMS: 1000}); d < time.Second+killSlack {
		t.Errorf("kill --grace 1s: deadline %s", d)
	}
}

// TestKillDeadlineWithABadConfigIsTheDefaultGrace: a config that does not
// load (the host would not start with it either) leaves the default.
func TestKillDeadlineWithABadConfigIsTheDefaultGrace(t *testing.T) {
	a, _, _ := unitApp(t)
	cfg, _ := a.lookup("CLOWDER_CONFIG")
	if err := os.WriteFile(cfg, []byte("[supervisor\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if d := a.deadlines()(proto.KillReq{Pane: "p1"}); d != defaultKillGrace+killSlack {
		t.Errorf("deadline %s, want %s", d, defaultKillGrace+killSlack)
	}
}

// TestKillGraceIsReadOnceACommand: config.toml's kill_grace is read once
// for a command, not again for each request's deadline (a kill asks it
// for the pane's kill and again on each retry, rm --worktree for a kill
// and a remove, and each client of a command makes its own deadlines).
func TestKillGraceIsReadOnceACommand(t *testing.T) {
	a, _, _ := unitApp(t)
	cfg, _ := a.lookup("CLOWDER_CONFIG")
	if err := os.WriteFile(cfg, []byte("[supervisor]\nkill_grace = \"45s\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	first := a.deadlines()(proto.KillReq{Pane: "p1"})
	if err := os.WriteFile(cfg, []byte("[supervisor]\nkill_grace = \"1s\"\n"), 0o600); err != nil {
		t.Fatal(err) // a changed file now shows whether it is read again
	}
	deadline := a.deadlines() // as a second client of the same command
	for _, m := range []proto.Message{proto.KillReq{Pane: "p1"}, proto.RemoveReq{Pane: "p1"}} {
		if d := deadline(m); d != first {
			t.Errorf("%T: deadline %s after the first kill's %s: config.toml was read again", m, d, first)
		}
	}
	if d := a.deadlines()(proto.HostStopReq{Force: true}); d != 45*time.Second+killSlack {
		t.Errorf("host stop --force: deadline %s: config.toml was read again", d)
	}
}
