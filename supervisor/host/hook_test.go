package host

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"clowder/panes"
	"clowder/persist"
	"clowder/supervisor/internal/testproc"
	"clowder/supervisor/proto"
)

// spawnClaude starts the fake agent in mode as a pane of the claude
// adapter, through a symlink named claude, so the host adds Claude Code's
// launch arguments.
func (th *testHost) spawnClaude(c *tclient, mode string) proto.PaneInfo {
	th.t.Helper()
	self, err := os.Executable()
	if err != nil {
		th.t.Fatal(err)
	}
	claude := filepath.Join(th.t.TempDir(), "claude")
	if err := os.Symlink(self, claude); err != nil {
		th.t.Fatal(err)
	}
	env := th.o.Env(testproc.FakeAgentEnv + "=" + mode)
	r := c.call(&proto.SpawnReq{Nonce: mode + time.Now().String(), Argv: []string{claude}, Env: env, Kind: "agent", Adapter: "claude"})
	return r.(*proto.SpawnedReply).Pane
}

// TestHookFollowsTheAgentsConversation pins issue 11 §2: resume_argv was
// null in every record, so a respawn could only take the latest
// conversation of the directory. The id chosen at launch is recorded at
// once, a hook's new id (a /clear) replaces it in agents.json with its
// resume command, and SessionEnd's old id does not.
func TestHookFollowsTheAgentsConversation(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnClaude(c, "silent")
	if !panes.ValidSession(p.Session) || !slices.Equal(p.Argv[1:3], []string{"--session-id", p.Session}) {
		t.Fatalf("launched as %q with session %q; want --session-id and its id recorded", p.Argv, p.Session)
	}
	c.call(&proto.HookReq{Pane: p.ID, Agent: "claude", Event: "SessionStart", Source: "clear", Session: "after-clear-1"})
	c.call(&proto.HookReq{Pane: p.ID, Agent: "claude", Event: "SessionEnd", Session: p.Session}) // late, with the old id
	if got := c.info(p.ID).Session; got != "after-clear-1" {
		t.Fatalf("session after /clear = %q, want after-clear-1", got)
	}
	reg, err := persist.LoadRegistry(th.paths.AgentsFile())
	if err != nil {
		t.Fatal(err)
	}
	rec, _ := reg.Get(p.ID)
	if rec.Session != "after-clear-1" || !slices.Equal(rec.ResumeArgv, []string{"claude", "--resume", "after-clear-1"}) {
		t.Errorf("agents.json: session %q resume_argv %q", rec.Session, rec.ResumeArgv)
	}
}

// TestHookWaitingComesBeforeTheScreen pins issue 11 §4, hooks first: when
// Claude Code's Stop hook says its turn ended, the pane needs input at
// once, and its redraw afterwards does not make it working again; a
// UserPromptSubmit does.
func TestHookWaitingComesBeforeTheScreen(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnClaude(c, "silent")
	c.waitText(p.ID, "READY")
	c.call(&proto.HookReq{Pane: p.ID, Agent: "claude", Event: "Stop", Session: p.Session})
	if got := c.info(p.ID).Attention; got != "needs-input" {
		t.Fatalf("attention after the Stop hook = %s, want needs-input", got)
	}
	c.call(&proto.SignalReq{Pane: p.ID, Signal: "USR1"}) // the agent redraws: "ALIVE"
	c.waitText(p.ID, "ALIVE")
	if got := c.info(p.ID).Attention; got != "needs-input" {
		t.Errorf("attention after output that followed the Stop hook = %s, want needs-input", got)
	}
	c.call(&proto.HookReq{Pane: p.ID, Agent: "claude", Event: "UserPromptSubmit", Session: p.Session})
	if got := c.info(p.ID).Attention; got != "working" {
		t.Errorf("attention after UserPromptSubmit = %s, want working", got)
	}
}

func TestHookRefusesAPaneThatRunsNoAgent(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFake(c, "silent")
	if e := c.callErr(&proto.HookReq{Pane: p.ID, Event: "Stop", Session: "x"}); e.Code != proto.CodeBadRequest {
		t.Errorf("hook for a command pane: %v, want bad-request", e)
	}
}

// TestHookHoldEndsOnlyWithTheBusyHint: a standing "waits" outlasts the
// screen's quiet verdicts, and the agent's busy hint (input reached it
// through the TUI's own write to the PTY, which the host does not see)
// ends it.
func TestHookHoldEndsOnlyWithTheBusyHint(t *testing.T) {
	p := &pane{}
	p.attn.hook = hookHold{state: panes.NeedsInput, rule: "hook:Stop"}
	if a := p.overHookLocked(panes.Assessment{State: panes.Idle, Rule: "quiet"}); a.State != panes.NeedsInput || a.Rule != "hook:Stop" {
		t.Errorf("quiet screen over a Stop hook: %+v", a)
	}
	if a := p.overHookLocked(panes.Assessment{State: panes.Working, Rule: "claude-busy"}); a.State != panes.Working || p.hookHoldsLocked() {
		t.Errorf("busy screen over a Stop hook: %+v, hold %v", a, p.hookHoldsLocked())
	}
}

// fakeBusyOnUSR1 waits at READY; after SIGUSR1 it redraws an agent's busy
// line every 50 ms, never pausing long enough for a settled judgement.
func fakeBusyOnUSR1() int {
	usr1 := make(chan os.Signal, 1)
	signal.Notify(usr1, syscall.SIGUSR1)
	fmt.Println("READY")
	<-usr1
	for i := 0; ; i++ {
		fmt.Printf("\r✻ Working… %d (esc to interrupt)", i)
		time.Sleep(50 * time.Millisecond)
	}
}

// TestHookHoldEndsWhenTheBusyAgentNeverPauses: after a Stop hook the user
// types into the TUI, which writes to the PTY itself, so no input reaches
// the host; the agent then works with its spinner redrawn without pause.
// The pane must turn working on its busy hint, not stay needs-input until
// a quiet moment that never comes.
func TestHookHoldEndsWhenTheBusyAgentNeverPauses(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnClaude(c, "busy")
	c.waitText(p.ID, "READY")
	c.call(&proto.HookReq{Pane: p.ID, Agent: "claude", Event: "Stop", Session: p.Session})
	c.call(&proto.SignalReq{Pane: p.ID, Signal: "USR1"})
	eventually(t, "the busy agent turns working", func() bool { return c.info(p.ID).Attention == "working" })
}
