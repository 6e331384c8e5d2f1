package host

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"clowder/persist"
	"clowder/supervisor"
	"clowder/supervisor/internal/testproc"
	"clowder/supervisor/proto"
)

// fakeArgv is the fake agent that says how it was started.
func fakeArgv() int {
	wd, _ := os.Getwd()
	fmt.Printf("ARGV %s\nCWD %s\nKEEP=%s\nREADY\n", strings.Join(os.Args[1:], " "), wd, os.Getenv("KEEP"))
	return testproc.Block()
}

// waitExited waits for the pane's process to end.
func (c *tclient) waitExited(pane string) {
	c.t.Helper()
	c.call(&proto.WaitReq{Pane: pane, Exit: true, TimeoutMS: 20000})
}

// respawn asks for a respawn and returns the reply.
func (c *tclient) respawn(pane string, env ...string) *proto.RespawnedReply {
	c.t.Helper()
	return c.call(&proto.RespawnReq{Pane: pane, Env: env}).(*proto.RespawnedReply)
}

// restart stops the host (killing its panes) and serves again on the
// same paths.
func (th *testHost) restart(cfg persist.Config) {
	th.t.Helper()
	th.dial().call(&proto.HostStopReq{Force: true})
	select {
	case <-th.done:
	case <-time.After(30 * time.Second):
		th.t.Fatal("host did not stop")
	}
	th.serve(cfg)
}

// fakeClaudeDir is a directory holding "claude", the test binary under
// that name: on PATH, it is a fake Claude Code (with FakeAgentEnv=argv).
func fakeClaudeDir(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(self, filepath.Join(dir, "claude")); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestRespawnRunsAnExitedPaneAgainInPlace(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	env := th.o.Env(testproc.FakeAgentEnv+"=argv", "KEEP=started-with-this")
	p := c.call(&proto.SpawnReq{Nonce: "n1", Name: "job", Argv: []string{os.Args[0], "a1"}, Env: env, Kind: "run"}).(*proto.SpawnedReply).Pane
	c.waitText(p.ID, "READY")
	c.call(&proto.KillReq{Pane: p.ID})
	c.waitExited(p.ID)
	before := c.info(p.ID).Seq
	r := c.respawn(p.ID, "KEEP=the-client-s") // ignored: the host holds the pane's own
	if r.Pane.ID != p.ID || r.Pane.Name != "job" || r.Pane.State != "running" || r.ClientEnv || len(r.Notes) != 0 {
		t.Fatalf("respawned %+v client env %v notes %q; want %s named job, running, with its own environment", r.Pane, r.ClientEnv, r.Notes, p.ID)
	}
	c.waitText(p.ID, "KEEP=started-with-this")
	if got := c.screen(p.ID); !strings.Contains(got, "ARGV a1") || strings.Count(got, "READY") != 1 {
		t.Errorf("screen after respawn:\n%s\nwant the same argv on a blank screen", got)
	}
	if after := c.info(p.ID).Seq; after <= before {
		t.Errorf("ring end %d after respawn, %d before: the output ring must go on", after, before)
	}
	l := c.call(&proto.ListReq{}).(*proto.PaneListReply)
	if len(l.Panes) != 1 {
		t.Errorf("panes after respawn: %s; want the one, replaced", ids(l.Panes))
	}
	eventually(t, "the respawn in agents.json", func() bool {
		r := th.registry()
		return len(r.Panes) == 1 && r.Panes[0].State == persist.StateRunning && r.Panes[0].PID == c.info(p.ID).Pid
	})
	if b, _ := os.ReadFile(th.paths.AgentsFile()); strings.Contains(string(b), "started-with-this") {
		t.Errorf("agents.json holds an environment value:\n%s", b)
	}
}

func TestRespawnAfterAHostRestartUsesTheClientsEnvironmentAndSaysSo(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := c.call(&proto.SpawnReq{Nonce: "n1", Name: "job", Argv: []string{os.Args[0]}, Kind: "run",
		Env: th.o.Env(testproc.FakeAgentEnv+"=argv", "KEEP=first")}).(*proto.SpawnedReply).Pane
	c.waitText(p.ID, "READY")
	th.restart(persist.DefaultConfig()) // kills it: exited, and its environment is gone with the host
	c = th.dial()
	r := c.respawn("job", th.o.Env(testproc.FakeAgentEnv+"=argv", "KEEP=from-the-client")...)
	if !r.ClientEnv || len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "this client's environment") {
		t.Errorf("client env %v notes %q; want the reply to say the client's environment is used", r.ClientEnv, r.Notes)
	}
	c.waitText(p.ID, "KEEP=from-the-client")
	if in := c.info(p.ID); in.ID != p.ID || in.Note == "" {
		t.Errorf("after respawn %+v; want %s with the note", in, p.ID)
	}
}

func TestRespawnRefusesARunningPaneAndALiveOrphan(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFake(c, "sleep")
	if e := c.callErr(&proto.RespawnReq{Pane: p.ID}); e.Code != proto.CodeBusy || !strings.Contains(e.Message, "clowder kill") {
		t.Errorf("respawn of a running pane: %+v; want busy naming clowder kill", e)
	}
	self, err := supervisor.ReadIdentity(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	th2 := newTestHost(t)
	saveGood(t, th2.paths.AgentsFile(), []persist.PaneRecord{{ID: "p4", Name: "alive", Kind: persist.KindRun, Argv: []string{"x"}, Cwd: "/",
		PID: self.PID, PIDStart: self.Start, State: persist.StateRunning, Resumable: true}})
	th2.serve(persist.DefaultConfig())
	c2 := th2.dial()
	e := c2.callErr(&proto.RespawnReq{Pane: "alive"})
	if e.Code != proto.CodeBusy || !strings.Contains(e.Message, "orphan") || !strings.Contains(e.Message, "clowder kill p4") {
		t.Errorf("respawn of a live orphan: %+v; want busy naming clowder kill p4", e)
	}
	if in := c2.info("p4"); in.State != "orphaned" || in.Pid != self.PID {
		t.Errorf("after the refusal %+v; want it untouched", in)
	}
}

func TestRespawnResumesAnAgentByItsSessionIDElseSaysSo(t *testing.T) {
	th := newTestHost(t)
	bin, dir := fakeClaudeDir(t), t.TempDir()
	recs := []persist.PaneRecord{
		{ID: "p1", Name: "known", Kind: persist.KindAgent, Adapter: "claude", Argv: []string{"claude"}, Cwd: dir, Session: "5e551on-1",
			State: persist.StateExited, Exit: &persist.Exit{Reason: persist.ExitCompleted}, Resumable: true},
		{ID: "p2", Name: "unknown", Kind: persist.KindAgent, Adapter: "claude", Argv: []string{"claude"}, Cwd: dir,
			State: persist.StateExited, Exit: &persist.Exit{Reason: persist.ExitCompleted}, Resumable: true},
	}
	saveGood(t, th.paths.AgentsFile(), recs)
	th.serve(persist.DefaultConfig())
	c := th.dial()
	env := th.o.Env(testproc.FakeAgentEnv+"=argv", "PATH="+bin+":"+os.Getenv("PATH"))
	if r := c.respawn("known", env...); len(r.Notes) != 1 { // only the environment's
		t.Errorf("notes %q; want only the environment's", r.Notes)
	}
	c.waitText("p1", "READY")
	if got := c.screen("p1"); !strings.Contains(got, "ARGV --resume 5e551on-1") || !strings.Contains(got, "CWD "+dir) {
		t.Errorf("agent with a session id came back as:\n%s\nwant claude --resume 5e551on-1 in %s", got, dir)
	}
	r := c.respawn("unknown", env...)
	if len(r.Notes) != 2 || !strings.Contains(r.Notes[1], "no session id") || !strings.Contains(r.Notes[1], "claude --continue") {
		t.Errorf("notes %q; want one saying no session id is recorded and claude --continue is used", r.Notes)
	}
	c.waitText("p2", "ARGV --continue")
}

func TestHostResumesRunningAgentsAfterAReboot(t *testing.T) {
	th := newTestHost(t)
	bin, dir := fakeClaudeDir(t), t.TempDir()
	// The host's own environment is what its resumes run with.
	for _, kv := range append(th.o.Env()[len(os.Environ()):], testproc.FakeAgentEnv+"=argv", "PATH="+bin+":"+os.Getenv("PATH")) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	gone := func(rec persist.PaneRecord) persist.PaneRecord { // ran when the machine went down
		rec.State, rec.PID, rec.PIDStart, rec.Resumable = persist.StateRunning, 999999999, 1, true
		return rec
	}
	recs := []persist.PaneRecord{
		gone(persist.PaneRecord{ID: "p1", Name: "api", Kind: persist.KindAgent, Adapter: "claude", Argv: []string{"claude"}, Cwd: dir, Session: "s-api"}),
		{ID: "p2", Name: "done", Kind: persist.KindAgent, Adapter: "claude", Argv: []string{"claude"}, Cwd: dir, Session: "s-done",
			State: persist.StateExited, Exit: &persist.Exit{Reason: persist.ExitCompleted}, Resumable: true},
		gone(persist.PaneRecord{ID: "p3", Name: "sh", Kind: persist.KindShell, Argv: []string{"claude", "as-a-shell"}, Cwd: dir}),
		gone(persist.PaneRecord{ID: "p4", Name: "wt", Kind: persist.KindAgent, Adapter: "claude", Argv: []string{"claude"}, Cwd: dir + "/gone", Session: "s-wt",
			Worktree: &persist.Worktree{Repo: dir, Path: dir + "/gone", Branch: "clowder/wt"}}),
		gone(persist.PaneRecord{ID: "p5", Name: "cx", Kind: persist.KindAgent, Adapter: "codex", Argv: []string{"codex"}, Cwd: dir}),
		gone(persist.PaneRecord{ID: "p6", Name: "build", Kind: persist.KindRun, Argv: []string{"claude", "build"}, Cwd: dir}),
	}
	saveGood(t, th.paths.AgentsFile(), recs)
	cfg := persist.DefaultConfig()
	cfg.Agents["codex"] = persist.AgentConfig{Command: []string{"codex"}, OnRestart: persist.OnRestartNone}
	th.serve(cfg)
	c := th.dial()
	want := map[string]string{"p1": "running", "p2": "exited", "p3": "running", "p4": "lost", "p5": "lost", "p6": "lost"}
	for id, state := range want {
		if in := c.info(id); in.State != state {
			t.Errorf("%s after the reboot: %s; want %s", id, in.State, state)
		}
	}
	c.waitText("p1", "READY")
	if got := c.screen("p1"); !strings.Contains(got, "ARGV --resume s-api") || !strings.Contains(got, "CWD "+dir) {
		t.Errorf("p1 came back as:\n%s\nwant claude --resume s-api in %s", got, dir)
	}
	if got := c.waitText("p3", "ARGV.*"); got != "ARGV as-a-shell" {
		t.Errorf("the shell came back as %q; want its own argv afresh", got)
	}
	if n := c.info("p4").Note; !strings.Contains(n, "worktree") || !strings.Contains(n, dir+"/gone") {
		t.Errorf("p4's note %q; want the missing worktree named", n)
	}
	for _, r := range th.registry().Panes {
		if r.State.String() != want[r.ID] {
			t.Errorf("agents.json: %s %s; want %s", r.ID, r.State, want[r.ID])
		}
	}
}

// A profile's {{templates}} were expanded only by `clowder new`, so its
// resume command (the profile's args after the adapter's resume) reached
// the agent as the literal "{{name}}" on a respawn or after a reboot.
func TestRespawnExpandsAProfilesTemplatesInItsResumeCommand(t *testing.T) {
	th := newTestHost(t)
	bin, dir := fakeClaudeDir(t), t.TempDir()
	cfg := persist.DefaultConfig()
	cfg.Profiles = map[string]persist.ProfileConfig{"rev": {Agent: "claude", Args: []string{"--name", "{{name}}", "--project", "{{project}}"}}}
	saveGood(t, th.paths.AgentsFile(), []persist.PaneRecord{
		{ID: "p1", Name: "reviewer", Kind: persist.KindAgent, Adapter: "rev", Argv: []string{"claude", "--name", "reviewer"}, Cwd: dir,
			Session: "5e551on-1", State: persist.StateExited, Exit: &persist.Exit{Reason: persist.ExitCompleted}, Resumable: true},
	})
	th.serve(cfg)
	c := th.dial()
	c.respawn("reviewer", th.o.Env(testproc.FakeAgentEnv+"=argv", "PATH="+bin+":"+os.Getenv("PATH"))...)
	c.waitText("p1", "READY")
	want := "ARGV --resume 5e551on-1 --name reviewer --project " + filepath.Base(dir)
	if got := c.screen("p1"); !strings.Contains(got, want) {
		t.Errorf("profile agent came back as:\n%s\nwant %q", got, want)
	}
}
