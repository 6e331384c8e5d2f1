package host

import (
	"bytes"
	"crypto/sha256"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"clowder/persist"
	"clowder/supervisor"
	"clowder/supervisor/internal/testproc"
	"clowder/supervisor/proto"
)

func TestHostRunsAPaneThroughItsLife(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFake(c, "lines")
	c.waitText(p.ID, "READY")
	c.call(&proto.InputReq{Pane: p.ID, Data: []byte("hi"), Keys: []string{"Enter"}})
	c.waitText(p.ID, "got: hi")
	if s := c.screen(p.ID); !contains(s, "got: hi") {
		t.Fatalf("capture:\n%s", s)
	}
	if in := c.info(p.ID); in.State != "running" || in.Pid == 0 || in.PidStart == 0 || in.Name == "" || in.Containment == "" {
		t.Fatalf("running pane info %+v", in)
	}
	reg := th.registry()
	if len(reg.Panes) != 1 || reg.Panes[0].State != persist.StateRunning {
		t.Fatalf("agents.json after spawn: %+v", reg.Panes)
	}
	c.call(&proto.KillReq{Pane: p.ID, GraceMS: 2000})
	in := c.info(p.ID)
	if in.State != "exited" || in.ExitReason != "killed" || in.Attention != "exited" {
		t.Fatalf("killed pane info %+v", in)
	}
	eventually(t, "exit in agents.json", func() bool {
		r := th.registry()
		return len(r.Panes) == 1 && r.Panes[0].State == persist.StateExited
	})
	c.call(&proto.RemoveReq{Pane: p.ID})
	if l := c.call(&proto.ListReq{}).(*proto.PaneListReply); len(l.Panes) != 0 {
		t.Fatalf("panes after rm: %+v", l.Panes)
	}
}

func (th *testHost) registry() *persist.Registry {
	th.t.Helper()
	r, err := persist.LoadRegistry(th.paths.AgentsFile())
	if err != nil {
		th.t.Fatalf("agents.json: %v", err)
	}
	return r
}

// TestHostKnowsWhereAPaneIsNow: a split opens where the user cd'ed to.
func TestHostKnowsWhereAPaneIsNow(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	dir := t.TempDir()
	r := c.call(&proto.SpawnReq{Nonce: "cwd", Argv: []string{"sh", "-c", "cd \"$1\" && echo moved && exec sleep 60", "sh", dir},
		Env: th.o.Env(), Cwd: "/"}).(*proto.SpawnedReply)
	c.waitText(r.Pane.ID, "moved")
	if in := c.info(r.Pane.ID); in.Cwd != "/" || in.CwdNow != dir {
		t.Fatalf("cwd %q, cwd now %q; want / and %s", in.Cwd, in.CwdNow, dir)
	}
	r2 := c.call(&proto.SpawnReq{Nonce: "osc7", Argv: []string{"sh", "-c", "printf '\\033]7;file://localhost/osc/dir\\007reported'; exec sleep 60"},
		Env: th.o.Env()}).(*proto.SpawnedReply)
	c.waitText(r2.Pane.ID, "reported")
	if in := c.info(r2.Pane.ID); in.CwdNow != "/osc/dir" {
		t.Fatalf("after OSC 7, cwd now %q", in.CwdNow)
	}
}

// TestAPaneWithNoCwdStartsInTheHome: a spawn that names no directory (a
// raw protocol client, a record from before cwds were kept) ran in the
// host's own directory, wherever the command that started the host ran,
// and was recorded with none, so a respawn could start it elsewhere. It
// starts in the home directory, and that is what is recorded.
func TestAPaneWithNoCwdStartsInTheHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	th := startHost(t)
	c := th.dial()
	r := c.call(&proto.SpawnReq{Nonce: "nocwd", Argv: []string{"sh", "-c", "echo in:$(pwd -P); exec sleep 60"},
		Env: th.o.Env()}).(*proto.SpawnedReply)
	want, err := filepath.EvalSymlinks(home)
	if err != nil {
		t.Fatal(err)
	}
	c.waitText(r.Pane.ID, "in:"+regexp.QuoteMeta(want))
	if in := c.info(r.Pane.ID); in.Cwd != home {
		t.Fatalf("pane info cwd %q, want %s", in.Cwd, home)
	}
	if rec, _ := th.registry().Get(r.Pane.ID); rec.Cwd != home {
		t.Fatalf("agents.json cwd %q, want %s", rec.Cwd, home)
	}
}

func TestHostErrorsNameTheProblem(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	if e := c.callErr(&proto.CaptureReq{Pane: "nope"}); e.Code != proto.CodeNotFound || !contains(e.Message, "clowder ls") {
		t.Errorf("unknown pane: %+v", e)
	}
	if e := c.callErr(&proto.SpawnReq{Nonce: "x"}); e.Code != proto.CodeBadRequest || !contains(e.Message, "empty command") {
		t.Errorf("empty command: %+v", e)
	}
	p := th.spawnFake(c, "lines")
	if e := c.callErr(&proto.InputReq{Pane: p.ID, Keys: []string{"NoSuchKey"}}); e.Code != proto.CodeBadRequest {
		t.Errorf("unknown key: %+v", e)
	}
	if e := c.callErr(&proto.WaitReq{Pane: p.ID, Text: "(", TimeoutMS: 10}); e.Code != proto.CodeBadRequest {
		t.Errorf("bad regexp: %+v", e)
	}
	if e := c.callErr(&proto.WaitReq{Pane: p.ID, Text: "never shown", TimeoutMS: 50}); e.Code != proto.CodeTimeout {
		t.Errorf("wait timeout: %+v", e)
	}
	if e := c.callErr(&proto.HostStopReq{}); e.Code != proto.CodeBusy {
		t.Errorf("stop with a live pane: %+v", e)
	}
	if in := c.info(p.ID); in.State != "running" {
		t.Errorf("bad requests harmed the pane: %+v", in)
	}
}

func TestHostRenamesDurablyAndRefusesATakenName(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	a := th.spawnFake(c, "sleep")
	b := th.spawnFake(c, "sleep")
	c.call(&proto.RenameReq{Pane: a.ID, Name: "api"})
	if in := c.info("api"); in.ID != a.ID {
		t.Fatalf("pane named api is %s, want %s", in.ID, a.ID)
	}
	if e := c.callErr(&proto.RenameReq{Pane: b.ID, Name: "api"}); e.Code != proto.CodeConflict {
		t.Fatalf("taking a used name: %+v", e)
	}
	if e := c.callErr(&proto.RenameReq{Pane: b.ID, Name: "has space"}); e.Code != proto.CodeBadRequest {
		t.Fatalf("a name with a space: %+v", e)
	}
	if r, _ := th.registry().Get(a.ID); r.Name != "api" {
		t.Fatalf("agents.json still names %s %q", a.ID, r.Name)
	}
}

func TestHostRecordsThePanesWorktree(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	wt := &persist.Worktree{Repo: "/src/api", Path: t.TempDir(), Branch: "clowder/fix", Base: "main"}
	r := c.call(&proto.SpawnReq{Nonce: "wt", Argv: []string{os.Args[0]}, Env: th.o.Env(testproc.FakeAgentEnv + "=sleep"),
		Cwd: wt.Path, Worktree: wt}).(*proto.SpawnedReply)
	if got := r.Pane.Worktree; got == nil || *got != *wt {
		t.Fatalf("pane info worktree %+v, want %+v", got, wt)
	}
	if rec, _ := th.registry().Get(r.Pane.ID); rec.Worktree == nil || *rec.Worktree != *wt {
		t.Fatalf("agents.json worktree %+v, want %+v", rec.Worktree, wt)
	}
}

func TestHostWaitIdleHoldsWhileOutputFlows(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	chatty := th.spawnFake(c, "chatty") // a line every 20 ms
	// Once it prints: before its first line (a race-built binary starting
	// on a loaded machine) the pane is idle, and the wait rightly met it.
	c.waitText(chatty.ID, "line 1")
	if e := c.callErr(&proto.WaitReq{Pane: chatty.ID, IdleMS: 200, TimeoutMS: 600}); e.Code != proto.CodeTimeout {
		t.Fatalf("idle wait on a chatty pane: %+v", e)
	}
	quiet := th.spawnFake(c, "sleep")
	if r := c.call(&proto.WaitReq{Pane: quiet.ID, IdleMS: 100, TimeoutMS: 5000}).(*proto.WaitDoneReply); r.Met != "idle" {
		t.Fatalf("idle wait on a silent pane met %q", r.Met)
	}
}

func TestHostSpawnIsIdempotentOnNonce(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	req := &proto.SpawnReq{Nonce: "once", Argv: []string{os.Args[0]}, Env: th.o.Env(testproc.FakeAgentEnv + "=sleep")}
	a := c.call(req).(*proto.SpawnedReply)
	b := c.call(req).(*proto.SpawnedReply)
	if a.Pane.ID != b.Pane.ID || !b.Existing || a.Existing {
		t.Fatalf("second spawn with the same nonce: %+v then %+v", a, b)
	}
}

// TestHostPassesTheMaster pins ARCHITECTURE.md: a client writes keys straight
// to its dup of the master, and a size set on it reaches the child and the
// host's screen.
func TestHostPassesTheMaster(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFake(c, "keys")
	c.waitText(p.ID, "READY")
	sub := c.send(&proto.SubscribeReq{Pane: p.ID, Screen: true, WantFd: true})
	r, fds, err := c.await(sub)
	if err != nil || len(fds) != 1 || !r.(*proto.SubscribedReply).Fd {
		t.Fatalf("subscribe with fd: %v %v %+v", err, fds, r)
	}
	master := os.NewFile(uintptr(fds[0]), "master")
	defer master.Close()
	if _, err := master.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	c.waitText(p.ID, "IN 78")
	if err := unix.IoctlSetWinsize(int(master.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Col: 100, Row: 30}); err != nil {
		t.Fatal(err)
	}
	master.Write([]byte("y")) // output after the resize lets the host see it
	c.waitText(p.ID, "IN 79")
	if in := c.info(p.ID); in.Cols != 100 || in.Rows != 30 {
		t.Fatalf("host screen is %dx%d after TIOCSWINSZ 100x30", in.Cols, in.Rows)
	}
	// Frames are pushed by the subscription's own goroutine, so under load
	// they may still be on the way after the replies above: read on.
	for len(c.pushes[sub]) == 0 {
		f, err := c.read(30 * time.Second)
		if err != nil {
			t.Fatalf("no screen frames pushed: %v", err)
		}
		if f.Flags&proto.FlagPush != 0 {
			c.pushes[f.ReqID] = append(c.pushes[f.ReqID], f)
		}
	}
}

// TestHostEncodesKeysForThePanesModes pins the fake agent that enables
// DECCKM and bracketed paste: Up arrives as ESC O A, a paste bracketed.
func TestHostEncodesKeysForThePanesModes(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFake(c, "keys")
	c.waitText(p.ID, "READY")
	c.call(&proto.InputReq{Pane: p.ID, Keys: []string{"Up"}})
	c.waitText(p.ID, "IN 1b4f41")
	c.call(&proto.PasteReq{Pane: p.ID, Text: "ab"})
	c.waitText(p.ID, "IN 1b5b3230307e61621b5b3230317e")
}

// TestHostRawOutputIsByteExact pins docs/processes.md: a client reading the raw
// ring from sequence 0 gets exactly what the child wrote. Halfway, the
// first client vanishes (as if SIGKILLed); a new client continues from the
// sequence number it had, with no gap and no duplicate. 4 MiB is every
// byte value thousands of times and far more than the socket and the PTY
// buffer hold, so the first client dies mid-flood; with 16 MiB, the host
// parsing it under the race detector took half a minute of the suite.
func TestHostRawOutputIsByteExact(t *testing.T) {
	const size = 4 << 20
	th := startHost(t, func(c *persist.Config) { c.Host.RingBytes = size + 1<<20 })
	c := th.dial()
	p := th.spawnFake(c, "stream", "FAKE_BYTES="+itoa(size))
	first := th.dial()
	got, seq := readRaw(t, first, p.ID, 0, size/2)
	first.uc.Close() // the client dies mid-flood
	second := th.dial()
	rest, _ := readRaw(t, second, p.ID, seq, size-len(got))
	got = append(got, rest...)
	want := testproc.TestStream(size)
	if sha256.Sum256(got) != sha256.Sum256(want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		t.Fatalf("raw output differs at byte %d of %d (got %d bytes)", i, size, len(got))
	}
	if in := c.info(p.ID); in.State != "running" {
		t.Fatalf("the pane suffered from its client's death: %+v", in)
	}
}

// readRaw subscribes to raw output from seq and reads n bytes.
func readRaw(t *testing.T, c *tclient, pane string, seq uint64, n int) ([]byte, uint64) {
	t.Helper()
	id := c.send(&proto.SubscribeReq{Pane: pane, Raw: true, FromSeq: seq})
	var out []byte
	for len(out) < n {
		f, err := c.read(30 * time.Second)
		if err != nil {
			t.Fatalf("raw read after %d bytes: %v", len(out), err)
		}
		if f.ReqID != id || f.Flags&proto.FlagPush == 0 {
			continue // the subscribe reply
		}
		m, err := f.Message()
		if err != nil {
			t.Fatal(err)
		}
		ch := m.(*proto.OutputChunk)
		if ch.Gap != 0 || ch.Seq != seq {
			t.Fatalf("chunk at %d (gap %d) when %d was next", ch.Seq, ch.Gap, seq)
		}
		out = append(out, ch.Data...)
		seq += uint64(len(ch.Data))
	}
	return out[:n], seq - uint64(len(out)-n)
}

// TestHostSlowClientNeverBlocksThePane: a subscriber that never reads does
// not stop output reaching the ring and another client. 4 MiB is far more
// than the stuck client's socket holds (8 MiB cost 13 s of the suite
// under the race detector).
func TestHostSlowClientNeverBlocksThePane(t *testing.T) {
	const size = 4 << 20
	th := startHost(t, func(c *persist.Config) { c.Host.RingBytes = size })
	c := th.dial()
	stuck := th.dial()
	p := th.spawnFake(c, "stream", "FAKE_BYTES="+itoa(size))
	stuck.send(&proto.SubscribeReq{Pane: p.ID, Raw: true, Screen: true})
	got, _ := readRaw(t, th.dial(), p.ID, 0, size)
	if !bytes.Equal(got, testproc.TestStream(size)) {
		t.Fatal("a stuck client changed what another client read")
	}
}

func TestHostKillsPaneOfAVanishedExecClient(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	owner := th.dial()
	r := owner.call(&proto.SpawnReq{Nonce: "exec", Argv: []string{os.Args[0]}, Env: th.o.Env(testproc.FakeAgentEnv + "=tree"), KillOnDisconnect: true})
	id := r.(*proto.SpawnedReply).Pane.ID
	c.waitText(id, "READY")
	owner.uc.Close()
	done := c.call(&proto.WaitReq{Pane: id, Exit: true, TimeoutMS: 20000}).(*proto.WaitDoneReply)
	if done.Met != "exit" || done.Pane.ExitReason != "killed" {
		t.Fatalf("after its client vanished: %+v", done)
	}
}

// TestARunTiedToTwoConnectionsDiesWithTheLast: a client that ties its run
// again on a new connection (clowder exec after a host upgrade) and then
// closes the older one keeps its run; the run dies when the last
// connection it is tied to ends. Killed with the first, an exec lost its
// run when it replaced a connection.
func TestARunTiedToTwoConnectionsDiesWithTheLast(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	first, second := th.dial(), th.dial()
	req := &proto.SpawnReq{Nonce: "tied", Argv: []string{os.Args[0]}, Env: th.o.Env(testproc.FakeAgentEnv + "=tree"), KillOnDisconnect: true}
	id := first.call(req).(*proto.SpawnedReply).Pane.ID
	if r := second.call(req).(*proto.SpawnedReply); !r.Existing || r.Pane.ID != id {
		t.Fatalf("the same spawn again: %+v, want pane %s existing", r, id)
	}
	c.waitText(id, "READY")
	p := th.host.paneByID(id)
	ties := func() int { p.mu.Lock(); defer p.mu.Unlock(); return p.ties }
	if n := ties(); n != 2 {
		t.Fatalf("the run is tied to %d connections, want 2", n)
	}
	first.uc.Close()
	eventually(t, "the first connection's end handled", func() bool { return ties() == 1 })
	if in := c.info(id); in.State != "running" {
		t.Fatalf("the run ended with the first of its two connections: %+v", in)
	}
	second.uc.Close()
	done := c.call(&proto.WaitReq{Pane: id, Exit: true, TimeoutMS: 20000}).(*proto.WaitDoneReply)
	if done.Met != "exit" || done.Pane.ExitReason != "killed" {
		t.Fatalf("after its last connection ended: %+v", done)
	}
}

func TestHostRefusesAnotherUID(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to run a client as another uid")
	}
	th := startHost(t)
	// Open the way through the file system so the host's own check is what
	// refuses the client.
	for _, p := range []string{filepath.Dir(th.paths.RuntimeDir), th.paths.RuntimeDir, th.paths.SocketFile()} {
		if err := os.Chmod(p, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	out := runAs(t, 65534, testproc.FakeAgentEnv+"=dial", "DIAL_SOCKET="+th.paths.SocketFile())
	if !strings.Contains(out, "denied") || !strings.Contains(out, "uid 65534") {
		t.Fatalf("client of uid 65534 got %q", out)
	}
}

func TestHostReportsCorruptRegistryAndServes(t *testing.T) {
	th := startHostWithFile(t, "{ this is not json")
	st := th.dial().call(&proto.HostStatusReq{}).(*proto.HostInfoReply)
	if !contains(st.Registry, "corrupt") && !contains(st.Registry, "moved") {
		t.Fatalf("host status registry %q", st.Registry)
	}
}

// startHostWithFile starts a host whose agents.json starts as content.
func startHostWithFile(t *testing.T, content string) *testHost {
	t.Helper()
	th := newTestHost(t)
	if err := os.WriteFile(th.paths.AgentsFile(), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	th.serve(persist.DefaultConfig())
	return th
}

func TestHostAdoptsRecordedPanes(t *testing.T) {
	self, err := supervisor.ReadIdentity(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	reg := `{"schema_version":1,"panes":[` +
		`{"id":"p4","name":"alive","kind":"agent","argv":["x"],"cwd":"/","created":"2026-01-01T00:00:00Z","pid":` + itoa(self.PID) + `,"pid_start":` + itoa(int(self.Start)) + `,"state":"running","size":{"cols":80,"rows":24},"restart":"never","timeouts":{}},` +
		`{"id":"p7","name":"gone","kind":"agent","argv":["x"],"cwd":"/","created":"2026-01-01T00:00:00Z","pid":999999999,"pid_start":1,"state":"running","size":{"cols":80,"rows":24},"restart":"never","timeouts":{}}]}`
	th := startHostWithFile(t, reg)
	c := th.dial()
	if in := c.info("alive"); in.State != "orphaned" {
		t.Errorf("a recorded pane whose process lives: %+v", in)
	}
	if in := c.info("gone"); in.State != "lost" || in.ExitReason != "lost" {
		t.Errorf("a recorded pane whose process is gone: %+v", in)
	}
	p := th.spawnFake(c, "sleep")
	if p.ID != "p8" {
		t.Errorf("new pane id %s after recorded p7; want p8", p.ID)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// runAs runs the test binary as uid with env added and returns its output.
func runAs(t *testing.T, uid uint32, env ...string) string {
	t.Helper()
	// The test binary's build dir is private; copy it where uid can run it.
	dir, err := os.MkdirTemp("/tmp", "clowder-runas")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	bin := dir + "/test.bin"
	data, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil || os.Chmod(dir, 0o755) != nil {
		t.Fatalf("copy test binary: %v", err)
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: uid}}
	out, _ := cmd.CombinedOutput() // the refusal is the expected outcome
	return string(out)
}

// TestHostReportsThePanesTitle pins a tester's finding: PaneInfo's title
// (ls --json) was never filled in; only the event carried it.
func TestHostReportsThePanesTitle(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFake(c, "titles", "FAKE_COUNT=3")
	c.waitText(p.ID, "DONE")
	if got := c.info(p.ID).Title; got != "t2" {
		t.Fatalf("title %q; want t2", got)
	}
}

// TestHostJudgesAPaneThatNeverPrints pins a tester's finding: the
// attention timer was armed only by output, so `new -- sleep 100` said
// working for ever while `wait --idle` returned at once.
func TestHostJudgesAPaneThatNeverPrints(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFake(c, "sleep")
	eventually(t, "the silent pane judged idle", func() bool { return c.info(p.ID).Attention == "idle" })
}

// TestHostNamesNeverLookLikeIDsOrCarryControls pins two findings: a pane
// could be renamed to another pane's id (lookups try ids first, so the
// name was shadowed), and a default name taken from argv[0] kept escape
// sequences and newlines.
func TestHostNamesNeverLookLikeIDsOrCarryControls(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFake(c, "sleep")
	if e := c.callErr(&proto.RenameReq{Pane: p.ID, Name: "p7"}); e.Code != proto.CodeBadRequest {
		t.Fatalf("rename to p7: %+v; want bad-request", e)
	}
	for argv0, want := range map[string]string{"/bin/sl\x1b[2Jeep\n": "sl--2Jeep", "p3": "run", "\x1b": "run"} {
		if got := defaultName(&proto.SpawnReq{Argv: []string{argv0}}); got != want {
			t.Errorf("default name of %q = %q; want %q", argv0, got, want)
		}
	}
}
