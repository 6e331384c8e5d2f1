package host

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"clowder/panes"
	"clowder/persist"
	"clowder/supervisor"
	"clowder/supervisor/internal/testproc"
	"clowder/supervisor/proto"
)

// rawCall sends body as the JSON of a request of type typ, byte for byte
// as given, and returns the host's error reply (nil when it succeeded).
func (c *tclient) rawCall(typ proto.MsgType, body string) *proto.ErrorReply {
	c.t.Helper()
	c.nextID++
	if err := c.fc.WriteFrame(proto.Frame{Type: typ, ReqID: c.nextID, Body: []byte(body)}); err != nil {
		c.t.Fatalf("send %s: %v", typ, err)
	}
	_, fds, err := c.await(c.nextID)
	proto.CloseFds(fds)
	var e *proto.ErrorReply
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// TestHostRefusesEveryBadField pins issue 7: the host took any value the
// CLI would refuse (a spawn with idle_timeout_ms -5 was accepted and saved,
// and the next host start rejected its own agents.json as corrupt). Every
// bad field now gets bad-request with one line naming the field, before
// the host acts.
func TestHostRefusesEveryBadField(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFake(c, "sleep")
	argv := `"argv":["` + os.Args[0] + `"]`
	pane := `"pane":"` + p.ID + `"`
	cases := []struct {
		name, field string
		typ         proto.MsgType
		body        string
	}{
		{"negative idle timeout", "idle_timeout_ms", proto.MsgSpawn, `{"nonce":"a",` + argv + `,"idle_timeout_ms":-5}`},
		{"negative timeout", "timeout_ms", proto.MsgSpawn, `{"nonce":"b",` + argv + `,"timeout_ms":-1}`},
		{"no timeout and a timeout", "no_timeout", proto.MsgSpawn, `{"nonce":"n",` + argv + `,"timeout_ms":5,"no_timeout":true}`},
		{"timeout past a year", "timeout_ms", proto.MsgSpawn, `{"nonce":"c",` + argv + `,"timeout_ms":99999999999999}`},
		{"oversized spawn", "cols/rows", proto.MsgSpawn, `{"nonce":"d",` + argv + `,"cols":2000,"rows":2000}`},
		{"one-column spawn", "cols/rows", proto.MsgSpawn, `{"nonce":"e",` + argv + `,"cols":1}`},
		{"bad name", "name", proto.MsgSpawn, `{"nonce":"f",` + argv + `,"name":"two words"}`},
		{"bad kind", "kind", proto.MsgSpawn, `{"nonce":"g",` + argv + `,"kind":"daemon"}`},
		{"relative cwd", "cwd", proto.MsgSpawn, `{"nonce":"h",` + argv + `,"cwd":"src"}`},
		{"env without =", "env", proto.MsgSpawn, `{"nonce":"i",` + argv + `,"env":["NOEQUALS"]}`},
		{"NUL in argv", "argv", proto.MsgSpawn, `{"nonce":"j","argv":["sh","a\u0000b"]}`},
		{"long nonce", "nonce", proto.MsgSpawn, `{"nonce":"` + strings.Repeat("n", proto.MaxNonceLen+1) + `",` + argv + `}`},
		{"bad cgroup", "cgroup", proto.MsgSpawn, `{"nonce":"k",` + argv + `,"cgroup":"sometimes"}`},
		{"bad adapter", "adapter", proto.MsgSpawn, `{"nonce":"l",` + argv + `,"adapter":"../x"}`},
		{"relative worktree", "worktree", proto.MsgSpawn, `{"nonce":"m",` + argv + `,"worktree":{"repo":"r","path":"p"}}`},
		{"wide resize", "cols/rows", proto.MsgResize, `{` + pane + `,"cols":4000,"rows":30}`},
		{"zero resize", "cols/rows", proto.MsgResize, `{` + pane + `,"cols":0,"rows":0}`},
		{"negative grace", "grace_ms", proto.MsgKill, `{` + pane + `,"grace_ms":-1}`},
		{"unknown kill signal", "signal", proto.MsgKill, `{` + pane + `,"signal":"BOGUS"}`},
		{"unknown signal", "signal", proto.MsgSignal, `{` + pane + `,"signal":"BOGUS"}`},
		{"negative pid", "pid", proto.MsgSignal, `{` + pane + `,"signal":"USR1","pid":-3}`},
		{"negative wait idle", "idle_ms", proto.MsgWait, `{` + pane + `,"idle_ms":-1,"exit":true}`},
		{"negative wait timeout", "timeout_ms", proto.MsgWait, `{` + pane + `,"exit":true,"timeout_ms":-1}`},
		{"negative scrollback", "scrollback", proto.MsgCapture, `{` + pane + `,"scrollback":-1}`},
		{"negative history count", "count", proto.MsgHistory, `{` + pane + `,"count":-1}`},
		{"empty pane", "pane", proto.MsgInput, `{"pane":"","data":"eA=="}`},
		{"control pane ref", "pane", proto.MsgSubscribe, `{"pane":"p\u001b[2J"}`},
		{"empty rename", "name", proto.MsgRename, `{` + pane + `,"name":""}`},
		{"empty respawn", "pane", proto.MsgRespawn, `{"pane":""}`},
		{"respawn env without =", "env", proto.MsgRespawn, `{` + pane + `,"env":["NOEQUALS"]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := c.rawCall(tc.typ, tc.body)
			switch {
			case e == nil:
				t.Fatalf("%s %s was accepted", tc.typ, tc.body)
			case e.Code != proto.CodeBadRequest || !strings.HasPrefix(e.Message, tc.field+": ") || strings.Contains(e.Message, "\n"):
				t.Fatalf("error %+v; want one bad-request line naming %s", e, tc.field)
			}
		})
	}
	if l := c.call(&proto.ListReq{}).(*proto.PaneListReply); len(l.Panes) != 1 || l.Panes[0].State != "running" {
		t.Fatalf("panes after the bad requests: %+v", l.Panes)
	}
	if reg := th.registry(); len(reg.Panes) != 1 {
		t.Fatalf("agents.json after the bad requests: %+v", reg.Panes)
	}
}

// TestHostRefusesOversizedPanes pins issue 7: a 65535x65535 spawn over the
// protocol took the host past 3 GB and froze it, and a resize was checked
// against other bounds than the CLI's. Both are refused before anything is
// allocated.
func TestHostRefusesOversizedPanes(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFake(c, "sleep")
	before := rssKB(t)
	for _, size := range [][2]uint16{{65535, 65535}, {2000, 2000}, {1000, 1000}} {
		spawn := &proto.SpawnReq{Nonce: "big" + strconv.Itoa(int(size[0])), Argv: []string{os.Args[0]}, Env: th.o.Env(testproc.FakeAgentEnv + "=sleep"), Cols: size[0], Rows: size[1]}
		if e := c.callErr(spawn); e.Code != proto.CodeBadRequest || !contains(e.Message, "out of bounds") {
			t.Errorf("spawn %dx%d: %+v", size[0], size[1], e)
		}
		if e := c.callErr(&proto.ResizeReq{Pane: p.ID, Cols: size[0], Rows: size[1]}); e.Code != proto.CodeBadRequest || !contains(e.Message, "out of bounds") {
			t.Errorf("resize %dx%d: %+v", size[0], size[1], e)
		}
	}
	after := rssKB(t)
	t.Logf("host (test process) RSS %d kB before the oversized requests, %d kB after", before, after)
	if after-before > 100<<10 {
		t.Errorf("RSS grew by %d kB on refused requests", after-before)
	}
	c.call(&proto.ResizeReq{Pane: p.ID, Cols: 1000, Rows: 131})
	if in := c.info(p.ID); in.Cols != 1000 || in.Rows != 131 {
		t.Fatalf("largest allowed resize gave %dx%d", in.Cols, in.Rows)
	}
}

// rssKB is this process's resident set size in kB.
func rssKB(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc/self/status: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return n
		}
	}
	t.Fatal("no VmRSS in /proc/self/status")
	return 0
}

// TestHostSpawnNonceReuseWithAnotherSpecConflicts pins docs/protocol.md:
// the same nonce with the same spec returns the first pane, the same nonce
// with a different spec is a conflict (it used to return the first pane,
// silently dropping the second command).
func TestHostSpawnNonceReuseWithAnotherSpecConflicts(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	req := &proto.SpawnReq{Nonce: "once", Argv: []string{os.Args[0]}, Env: th.o.Env(testproc.FakeAgentEnv + "=sleep")}
	first := c.call(req).(*proto.SpawnedReply)
	again := c.call(req).(*proto.SpawnedReply)
	if again.Pane.ID != first.Pane.ID || !again.Existing {
		t.Fatalf("same nonce, same spec: %+v then %+v", first.Pane, again)
	}
	other := *req
	other.Argv = []string{"sh", "-c", "echo other"}
	if e := c.callErr(&other); e.Code != proto.CodeConflict || !contains(e.Message, "nonce") {
		t.Fatalf("same nonce, other spec: %+v", e)
	}
	if l := c.call(&proto.ListReq{}).(*proto.PaneListReply); len(l.Panes) != 1 {
		t.Fatalf("panes after a conflicting nonce: %+v", l.Panes)
	}
}

// TestHostClampsASizeSetThroughThePassedMaster pins the attach path: a
// client holding the master dup sets the PTY size itself (TIOCSWINSZ), and
// the host's screen followed any size, so 5000x5000 there allocated a
// 25-million-cell screen. The host keeps its screen, and the PTY, within
// the pane size limits.
func TestHostClampsASizeSetThroughThePassedMaster(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFake(c, "keys")
	c.waitText(p.ID, "READY")
	r, fds, err := c.await(c.send(&proto.SubscribeReq{Pane: p.ID, WantFd: true}))
	if err != nil || len(fds) != 1 || !r.(*proto.SubscribedReply).Fd {
		t.Fatalf("subscribe with fd: %v %v %+v", err, fds, r)
	}
	master := os.NewFile(uintptr(fds[0]), "master")
	defer master.Close()
	if err := unix.IoctlSetWinsize(int(master.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Col: 5000, Row: 5000}); err != nil {
		t.Fatal(err)
	}
	if _, err := master.Write([]byte("y")); err != nil { // output after the resize lets the host see it
		t.Fatal(err)
	}
	c.waitText(p.ID, "IN 79")
	in := c.info(p.ID)
	if err := panes.ValidateSize(persist.Size{Cols: int(in.Cols), Rows: int(in.Rows)}); err != nil {
		t.Fatalf("host screen after TIOCSWINSZ 5000x5000: %v", err)
	}
	ws, err := unix.IoctlGetWinsize(int(master.Fd()), unix.TIOCGWINSZ)
	if err != nil || int(ws.Col) != int(in.Cols) || int(ws.Row) != int(in.Rows) {
		t.Fatalf("PTY size %+v (%v), host screen %dx%d", ws, err, in.Cols, in.Rows)
	}
}

// TestHostNoTimeoutOverridesTheConfigDefault pins issue 7: timeout_ms 0
// means "the host's default", so `new --timeout 0` still got config.toml's
// timeout. no_timeout says "none"; the host records the effective
// watchdogs and runs the pane without one.
func TestHostNoTimeoutOverridesTheConfigDefault(t *testing.T) {
	th := startHost(t, func(c *persist.Config) {
		c.Supervisor.Timeout = persist.Duration(time.Hour)
		c.Supervisor.IdleTimeout = persist.Duration(time.Hour)
	})
	c := th.dial()
	env := th.o.Env(testproc.FakeAgentEnv + "=sleep")
	none := c.call(&proto.SpawnReq{Nonce: "none", Argv: []string{os.Args[0]}, Env: env, NoTimeout: true, NoIdleTimeout: true}).(*proto.SpawnedReply).Pane
	def := c.call(&proto.SpawnReq{Nonce: "default", Argv: []string{os.Args[0]}, Env: env}).(*proto.SpawnedReply).Pane
	limits := func(id string) supervisor.Limits {
		p, err := th.host.find(id)
		if err != nil {
			t.Fatal(err)
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.run.Limits()
	}
	if l := limits(none.ID); l.Timeout > 0 || l.IdleTimeout > 0 {
		t.Errorf("no_timeout pane runs with watchdogs %v / %v", l.Timeout, l.IdleTimeout)
	}
	if l := limits(def.ID); l.Timeout != time.Hour || l.IdleTimeout != time.Hour {
		t.Errorf("defaulted pane runs with watchdogs %v / %v; want config's 1h", l.Timeout, l.IdleTimeout)
	}
	for _, rec := range th.registry().Panes {
		want := persist.Duration(time.Hour)
		if rec.ID == none.ID {
			want = 0
		}
		if rec.Timeouts.Overall != want || rec.Timeouts.Idle != want {
			t.Errorf("agents.json records %s with timeouts %+v; want %v", rec.ID, rec.Timeouts, want)
		}
	}
}
