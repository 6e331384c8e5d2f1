package host

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"clowder/persist"
	"clowder/supervisor"
	"clowder/supervisor/internal/testproc"
	"clowder/supervisor/proto"
)

// Regression (issue 10 §5, "SIGKILL at each step of spawn"): the nonce
// table lived only in memory, so a client's retry of a spawn whose host
// was SIGKILLed ran again on the next host, and the pane was recorded
// twice (22 times in 200 spawns). Crashed at every step of a spawn, the
// host leaves exactly one pane per request: the retry on the next host
// gets the pane the first attempt made (or an error that names it, when
// it was lost with the host), or a fresh one when nothing was recorded.
func TestSpawnRetryAfterHostCrashAtEachStepMakesOnePane(t *testing.T) {
	for _, step := range spawnSteps {
		t.Run(step, func(t *testing.T) {
			th := newTestHost(t)
			first := th.startProc("HOST_CRASH_AT=" + step)
			req := &proto.SpawnReq{Nonce: "crash-" + step, Argv: []string{os.Args[0]}, Kind: "run",
				Env: th.o.Env(testproc.FakeAgentEnv + "=sleep")}
			c := first.dial()
			c.send(req)
			if f, err := c.read(60 * time.Second); err == nil {
				t.Fatalf("host answered %v; want it to crash at %s", f, step)
			}
			waitClosed(t, "the crashed host", first.exited)

			th.startProc()
			p := retrySpawn(t, th.dial(), req, step)
			recs := recordsWithNonce(t, th.paths.AgentsFile(), req.Nonce)
			if len(recs) != 1 || recs[0].ID != p {
				t.Fatalf("agents.json holds %d records of the request (%+v); want exactly pane %s", len(recs), recs, p)
			}
			if l := th.dial().call(&proto.ListReq{}).(*proto.PaneListReply); len(l.Panes) != 1 {
				t.Fatalf("the new host lists %s; want one pane", ids(l.Panes))
			}
		})
	}
}

// retrySpawn sends the request again, as the client does after a broken
// connection, and returns the id of the pane it names.
func retrySpawn(t *testing.T, c *tclient, req *proto.SpawnReq, step string) string {
	t.Helper()
	m, fds, err := c.await(c.send(req))
	proto.CloseFds(fds)
	var e *proto.ErrorReply
	switch {
	case errors.As(err, &e) && e.Code == proto.CodeExited && strings.Contains(e.Message, "already made pane p1"):
		if step == "registered" {
			t.Fatalf("nothing was recorded, yet the retry says %q", e.Message)
		}
		return "p1"
	case err != nil:
		t.Fatalf("retry: %v", err)
	}
	r := m.(*proto.SpawnedReply)
	if r.Existing != (step != "registered") || r.Pane.ID != "p1" {
		t.Fatalf("retry after a crash at %s = %+v (existing %v); want pane p1, existing unless nothing was recorded", step, r.Pane, r.Existing)
	}
	return r.Pane.ID
}

// recordsWithNonce are the records of agents.json made by one request.
func recordsWithNonce(t *testing.T, path, nonce string) []persist.PaneRecord {
	t.Helper()
	reg, err := persist.LoadRegistry(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []persist.PaneRecord
	for _, r := range reg.Panes {
		if r.Nonce == nonce {
			out = append(out, r)
		}
	}
	return out
}

// fakeHupSetsid ignores SIGHUP, starts a setsid grandchild (its own
// session and group) and only then writes both pids to FAKE_OUT, at once
// (a rename): a host that waits for that file before it dies
// (HOST_CRASH_WAIT) dies after both can survive it.
func fakeHupSetsid() int {
	signal.Ignore(syscall.SIGHUP)
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), testproc.FakeAgentEnv+"=sleep")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return 3
	}
	out := os.Getenv("FAKE_OUT")
	if err := os.WriteFile(out+".tmp", fmt.Appendf(nil, "%d\n%d\n", os.Getpid(), cmd.Process.Pid), 0o600); err != nil {
		return 3
	}
	if err := os.Rename(out+".tmp", out); err != nil {
		return 3
	}
	return testproc.Block()
}

// waitForFile waits until path exists (for the crash hook: the host dies
// only once its pane is ready to outlive it). "" waits for nothing.
func waitForFile(path string) {
	deadline := time.Now().Add(60 * time.Second)
	for path != "" && time.Now().Before(deadline) {
		if _, err := os.Stat(path); err == nil {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// readIdentities reads the pids a fake wrote to path and their identities.
func readIdentities(t *testing.T, path string) []supervisor.Identity {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ids []supervisor.Identity
	for _, f := range strings.Fields(string(b)) {
		n, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("pid file %s: %v", path, err)
		}
		ids = append(ids, mustIdentity(t, n))
	}
	return ids
}

// inLeafOf reports whether pid runs in a cgroup leaf that host pid made
// for pane.
func inLeafOf(pid, host int, pane string) bool {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", pid))
	return strings.Contains(string(b), fmt.Sprintf("/%s.%d.", pane, host))
}

// Regression (issue 10 §5, "nothing untracked"): a host SIGKILLed between
// a pane's start and the registry save after it left a record without a
// pid, so the next host called the pane lost while a process that ignores
// SIGHUP and a setsid grandchild ran on, tracked by nobody. The record is
// now saved as starting, with its cgroup leaf and token, before the
// process starts: the next host finds both processes (by the leaf, or
// without a cgroup by the token), reports them, kill ends them, and the
// client's retry still gets that one pane.
func TestHostCrashBetweenStartAndSaveLeavesNothingUntracked(t *testing.T) {
	for _, cg := range []string{"auto", "off"} {
		t.Run("cgroup="+cg, func(t *testing.T) {
			th := newTestHost(t)
			pidFile := filepath.Join(t.TempDir(), "pids")
			first := th.startProc("HOST_CRASH_AT=started", "HOST_CRASH_WAIT="+pidFile, "HOST_CGROUP="+cg)
			req := &proto.SpawnReq{Nonce: "between-" + cg, Argv: []string{os.Args[0]}, Kind: "run",
				Env: th.o.Env(testproc.FakeAgentEnv+"=hup-setsid", "FAKE_OUT="+pidFile)}
			c := first.dial()
			c.send(req)
			if f, err := c.read(60 * time.Second); err == nil {
				t.Fatalf("host answered %v; want it to crash after the start", f)
			}
			waitClosed(t, "the crashed host", first.exited)
			procs := readIdentities(t, pidFile) // the leader, its setsid grandchild
			if cg == "auto" && !inLeafOf(procs[0].PID, first.cmd.Process.Pid, "p1") {
				t.Skip("no writable cgroup2 here: the cgroup variant cannot run (the token variant is cgroup=off)")
			}
			if left := aliveOf(procs); len(left) != 2 {
				t.Fatalf("only %v of %v outlived the host; the fixture is broken", left, procs)
			}
			rec := recordsWithNonce(t, th.paths.AgentsFile(), req.Nonce)
			if len(rec) != 1 || rec[0].State != persist.StateStarting || rec[0].PID != 0 || rec[0].Token == "" || rec[0].Since == 0 || (cg == "auto") != (rec[0].Cgroup != "") {
				t.Fatalf("the dead host left %+v; want one starting record with token, since and (cgroup=auto) its leaf, no pid", rec)
			}

			next := th.startProc()
			c = th.dial()
			var in proto.PaneInfo
			eventually(t, "p1 judged with its survivors", func() bool {
				in = c.info("p1")
				return in.State != "orphaned" || len(in.Survivors) == len(procs)
			})
			if in.State != "orphaned" || !slices.Equal(sorted(in.Survivors), pidsOf(procs)) {
				t.Fatalf("p1 is %s with survivors %v; want orphaned with %v", in.State, in.Survivors, pidsOf(procs))
			}
			if p := retrySpawn(t, c, req, "started"); p != "p1" {
				t.Fatalf("retry made %s", p)
			}
			if l := c.call(&proto.ListReq{}).(*proto.PaneListReply); len(l.Panes) != 1 {
				t.Fatalf("the new host lists %s; want one pane", ids(l.Panes))
			}
			if sc := c.screen("p1"); !contains(sc, "none recorded") || !contains(sc, strconv.Itoa(procs[1].PID)) {
				t.Errorf("the read-only view of an orphan without a leader:\n%s", sc)
			}
			// Its survivors run, with no leader recorded: a respawn would
			// leave them untracked, and a signal has nothing to name.
			if e := c.callErr(&proto.RespawnReq{Pane: "p1"}); e.Code != proto.CodeBusy || !contains(e.Message, "clowder kill p1") {
				t.Errorf("respawn of an orphan whose processes run: %+v; want busy naming clowder kill p1", e)
			}
			if e := c.callErr(&proto.SignalReq{Pane: "p1", Signal: "TERM"}); !contains(e.Message, "no recorded leader") {
				t.Errorf("signal of an orphan without a leader: %+v", e)
			}
			c.call(&proto.KillReq{Pane: "p1", GraceMS: 200})
			if left := aliveOf(procs); len(left) != 0 {
				t.Errorf("kill leaked %v", left)
			}
			if in := c.info("p1"); in.State != "exited" || in.ExitReason != "killed" {
				t.Errorf("killed: %+v; want exited, killed", in)
			}
			for _, log := range []string{first.log.String(), next.log.String()} {
				if contains(log, rec[0].Token) {
					t.Errorf("a host log holds the pane token:\n%s", log)
				}
			}
		})
	}
}

// Regression (issue 10 §1): without a cgroup, a setsid grandchild (its own
// session and group) whose leader died of SIGHUP with the host could not
// be found: the pane was called lost and the grandchild ran on untracked.
// The next host now finds it by the pane's token in its environment, and
// kill ends it.
func TestHostCrashFindsASetsidGrandchildByTokenWithoutCgroup(t *testing.T) {
	f := crashHost(t, "off", "tree")
	pane := f.mode["tree"]
	f.diedOfHangup(f.pids[pane][:2]) // the leader and the grandchild of its session
	f.restart()

	grandchild := f.pids[pane][2]
	in := f.infoWhen(pane, "judged", func(in proto.PaneInfo) bool { return in.State != "orphaned" || len(in.Survivors) > 0 })
	if in.State != "orphaned" || !slices.Equal(in.Survivors, []int{grandchild.PID}) {
		t.Fatalf("%s is %s with survivors %v; want orphaned with the setsid grandchild %d", pane, in.State, in.Survivors, grandchild.PID)
	}
	st := f.c.call(&proto.HostStatusReq{}).(*proto.HostInfoReply)
	if want := fmt.Sprintf("%s: %d", pane, grandchild.PID); !slices.Contains(st.Orphans, want) {
		t.Errorf("host status orphans %q; want %q", st.Orphans, want)
	}
	f.c.call(&proto.KillReq{Pane: pane, GraceMS: 200})
	if left := aliveOf(f.pids[pane]); len(left) != 0 {
		t.Errorf("kill leaked %v", left)
	}
	if in := f.c.info(pane); in.State != "exited" || in.ExitReason != "killed" {
		t.Errorf("killed orphan: %+v", in)
	}
}
