package host

import (
	"os"
	"testing"
	"time"

	"clowder/supervisor/internal/testproc"
	"clowder/supervisor/proto"
)

// spawnFakeClaude starts testproc's fake Claude Code (its input contract)
// under the claude adapter; env tunes it (FAKE_DEAF_MS...).
func (th *testHost) spawnFakeClaude(c *tclient, env ...string) proto.PaneInfo {
	th.t.Helper()
	env = th.o.Env(append(env, testproc.FakeAgentEnv+"=claude")...)
	r := c.call(&proto.SpawnReq{Nonce: "claude" + time.Now().String(), Argv: []string{os.Args[0]}, Env: env, Kind: "agent", Adapter: "claude"})
	return r.(*proto.SpawnedReply).Pane
}

// TestSubmitFirstPromptWaitsForClaude pins issue 11 §3: Claude Code drops
// the Enter of a prompt submitted within about 2 s after its prompt first
// shows (7 of 7 fresh panes lost their first prompt). The host holds a
// pane's first submission until it has needed input for the adapter's
// FirstSubmitWait, so a submit sent the moment the pane starts is taken.
func TestSubmitFirstPromptWaitsForClaude(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFakeClaude(c, "FAKE_BOOT_MS=300", "FAKE_DEAF_MS=2000")
	c.call(&proto.PasteReq{Pane: p.ID, Text: "hello", Submit: true})
	c.waitText(p.ID, `got: hello`)
	// Later submissions are not held: the second goes at once.
	c.call(&proto.PasteReq{Pane: p.ID, Text: "again", Submit: true})
	c.waitText(p.ID, `got: again`)
}

// TestSubmitFirstPromptPressesEnterAgain pins issue 11 §3: offline and
// under load, Claude Code dropped a first Enter even 1.5 s after its
// prompt had settled (1 of 4 fresh panes). The host confirms a first
// submission and presses Enter again while the text is left in the
// prompt, so it is taken without --wait too.
func TestSubmitFirstPromptPressesEnterAgain(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFakeClaude(c, "FAKE_DROP_ENTERS=1")
	c.call(&proto.PasteReq{Pane: p.ID, Text: "hello", Submit: true})
	c.waitText(p.ID, `got: hello`)
}

// TestWaitNeedsInputAfterSubmit pins issue 11 §3: `submit … && wait
// --needs-input` returned at once (0.00 s with Claude Code): the pane
// still showed the prompt the agent had not left yet, because the agent
// (here with a lag of 500 ms per read) had not yet drawn anything. After an input the
// pane works until its adapter judges its screen again, so the wait ends
// only once the agent has answered.
func TestWaitNeedsInputAfterSubmit(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFakeClaude(c, "FAKE_LAG_MS=500", "FAKE_REACT_MS=300", "FAKE_BUSY_MS=300")
	c.call(&proto.WaitReq{Pane: p.ID, NeedsInput: true, TimeoutMS: 60000})
	c.call(&proto.PasteReq{Pane: p.ID, Text: "hello", Submit: true})
	c.call(&proto.WaitReq{Pane: p.ID, NeedsInput: true, TimeoutMS: 60000})
	if s := c.screen(p.ID); !contains(s, "got: hello") {
		t.Fatalf("wait --needs-input returned before the agent answered; screen:\n%s", s)
	}
}

// TestSubmitWaitConfirmsTaken pins issue 11 §3: a submission with a wait
// is answered once the agent shows it took the text (here its prompt
// clears and it works), not when the bytes are written.
func TestSubmitWaitConfirmsTaken(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFakeClaude(c, "FAKE_LAG_MS=500", "FAKE_REACT_MS=1500", "FAKE_BUSY_MS=60000")
	c.call(&proto.PasteReq{Pane: p.ID, Text: "hello", Submit: true, WaitMS: 60000})
	if s := c.screen(p.ID); !contains(s, "❯ hello") {
		t.Fatalf("submit --wait returned before the agent took the text; screen:\n%s", s)
	}
}

// TestSubmitWaitReportsLeftInPrompt pins issue 11 §3: a submission whose
// Enter the agent dropped (the text stays in its prompt, as Claude Code's
// first prompt did) fails with not-taken instead of passing for sent.
func TestSubmitWaitReportsLeftInPrompt(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFakeClaude(c, "FAKE_DEAF_MS=600000")
	e := c.callErr(&proto.PasteReq{Pane: p.ID, Text: "hello there", Submit: true, WaitMS: 60000})
	if e.Code != proto.CodeNotTaken || !contains(e.Message, "still in its prompt") {
		t.Fatalf("error = %v, want not-taken saying the text is still in the prompt", e)
	}
}
