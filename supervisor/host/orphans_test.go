package host

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"clowder/persist"
	"clowder/supervisor"
	"clowder/supervisor/internal/testproc"
	"clowder/supervisor/proto"
)

// fakeHupImmune survives its host's death (it ignores SIGHUP, not
// SIGTERM) and has a member in its group that ignores SIGTERM too.
func fakeHupImmune() int {
	signal.Ignore(syscall.SIGHUP)
	startFakeChild("ignore-term", nil)
	fmt.Println("READY")
	return testproc.Block()
}

// fakeHupBackground dies of SIGHUP with its host, leaving a job of its
// session (own group, ignoring SIGTERM and SIGHUP) behind.
func fakeHupBackground() int {
	startFakeChild("ignore-term", &syscall.SysProcAttr{Setpgid: true})
	fmt.Println("READY")
	return testproc.Block()
}

// startFakeChild starts the fake agent in mode with attr and prints
// "CHILD <pid>".
func startFakeChild(mode string, attr *syscall.SysProcAttr) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), testproc.FakeAgentEnv+"="+mode)
	cmd.Stdout, cmd.SysProcAttr = os.Stdout, attr
	if err := cmd.Start(); err != nil {
		fmt.Println("START FAILED", err)
		os.Exit(3)
	}
	fmt.Printf("CHILD %d\n", cmd.Process.Pid)
}

// hostConfig is the config of a host process (fakeRealHost): the
// default, with supervisor.cgroup = HOST_CGROUP when set.
func hostConfig() (persist.Config, error) {
	cfg := persist.DefaultConfig()
	if m := os.Getenv("HOST_CGROUP"); m != "" {
		if err := cfg.Supervisor.Cgroup.UnmarshalText([]byte(m)); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// crashFixture is a host process with panes, SIGKILLed with no client,
// and the host that comes after it.
type crashFixture struct {
	*procHost
	c    *tclient                         // a client of the new host
	pids map[string][]supervisor.Identity // pane id → leader, then the children it printed
	recs map[string]persist.PaneRecord    // what the dead host recorded
	oldH int                              // the dead host's pid
	mode map[string]string                // fake mode → pane id
}

// crashHost spawns one pane per mode on a host process with cgroup mode
// cg, waits until each printed READY, SIGKILLs the host while no client
// is connected, and starts the next host (in this process) on its paths.
func crashHost(t *testing.T, cg string, modes ...string) *crashFixture {
	t.Helper()
	ph := startProcHost(t, "HOST_CGROUP="+cg)
	f := &crashFixture{procHost: ph, pids: map[string][]supervisor.Identity{}, mode: map[string]string{}, oldH: ph.cmd.Process.Pid}
	c := ph.dial()
	for _, m := range modes {
		p := ph.spawnFake(c, m)
		f.mode[m] = p.ID
		if m != "sleep" { // the one mode that prints nothing
			c.waitText(p.ID, "READY")
		}
		f.pids[p.ID] = append(f.pids[p.ID], mustIdentity(t, p.Pid))
		for _, m := range regexp.MustCompile(`CHILD (\d+)`).FindAllStringSubmatch(c.screen(p.ID), -1) {
			n, _ := strconv.Atoi(m[1])
			f.pids[p.ID] = append(f.pids[p.ID], mustIdentity(t, n))
		}
	}
	c.uc.Close()
	reg, err := persist.LoadRegistry(ph.paths.AgentsFile())
	if err != nil {
		t.Fatal(err)
	}
	f.recs = map[string]persist.PaneRecord{}
	for _, r := range reg.Panes {
		f.recs[r.ID] = r
	}
	if err := ph.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	// Reaped, not only a zombie: a zombie leader's other threads may still
	// hold the host lock.
	eventually(t, "the host process reaped", func() bool {
		_, err := os.Stat("/proc/" + strconv.Itoa(f.oldH))
		return os.IsNotExist(err)
	})
	ph.waitLocksFree()
	return f
}

// restart starts the next host on the dead one's paths.
func (f *crashFixture) restart() {
	f.serve(persist.DefaultConfig())
	f.c = f.dial()
}

// diedOfHangup waits until the processes that the hangup of their
// terminal kills are gone, so the next host finds them gone.
func (f *crashFixture) diedOfHangup(groups ...[]supervisor.Identity) {
	f.t.Helper()
	for _, ids := range groups {
		eventually(f.t, fmt.Sprintf("%v dead of SIGHUP", pidsOf(ids)), func() bool {
			return len(aliveOf(ids)) == 0 && !slices.ContainsFunc(ids, exiting)
		})
	}
}

// exiting reports whether id's process has more threads than its leader
// left: a leader that exited first is a zombie (dead to alive) while its
// other threads still exit, and they keep its cgroup populated, so a host
// starting then found the tree alive (flaky "orphaned with survivors []").
func exiting(id supervisor.Identity) bool {
	ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", id.PID))
	return err == nil && len(ents) > 1
}

// infoWhen waits until pane's info satisfies cond.
func (f *crashFixture) infoWhen(pane, what string, cond func(proto.PaneInfo) bool) proto.PaneInfo {
	f.t.Helper()
	var in proto.PaneInfo
	eventually(f.t, pane+" "+what, func() bool {
		in = f.c.info(pane)
		return cond(in)
	})
	return in
}

func mustIdentity(t *testing.T, pid int) supervisor.Identity {
	t.Helper()
	id, err := supervisor.ReadIdentity(pid)
	if err != nil {
		t.Fatalf("identity of %d: %v", pid, err)
	}
	return id
}

// alive reports whether id still runs (a pid alone when Start is 0).
func alive(id supervisor.Identity) bool {
	now, err := supervisor.ReadIdentity(id.PID)
	return err == nil && (id.Start == 0 || now == id)
}

// aliveOf lists which of ids still run.
func aliveOf(ids []supervisor.Identity) []supervisor.Identity {
	return slices.DeleteFunc(slices.Clone(ids), func(id supervisor.Identity) bool { return !alive(id) })
}

func pidsOf(ids []supervisor.Identity) []int {
	var out []int
	for _, id := range ids {
		out = append(out, id.PID)
	}
	slices.Sort(out)
	return out
}

func sorted(pids []int) []int {
	out := slices.Clone(pids)
	slices.Sort(out)
	return out
}

// TestHostCrashWithNoClientLosesNoLiveProcess is issue 10's fault "host
// SIGKILLed with no client". Regressions it pins: kill on a live orphan
// returned 0 while a member of its group that ignores SIGTERM survived;
// a pane whose leader died of SIGHUP with the host was "lost" (kill: "not
// running (lost)") while its setsid grandchild lived on; an orphan that
// died stayed "orphaned" for ever; cgroup leaves of the dead host stayed.
func TestHostCrashWithNoClientLosesNoLiveProcess(t *testing.T) {
	f := crashHost(t, "auto", "hup-immune", "tree", "ignore-term", "sleep")
	live, setsid, dying, dead := f.mode["hup-immune"], f.mode["tree"], f.mode["ignore-term"], f.mode["sleep"]
	if f.recs[live].Cgroup == "" {
		t.Skip("no writable cgroup2 here: the cgroup half of this fault cannot run (the process-group half is TestHostCrashKillsAnOrphansSessionWithoutCgroup)")
	}
	// Fixture: a leaf of the dead host that no record names, empty, and
	// one holding a process of no pane.
	parent := filepath.Dir(f.recs[live].Cgroup)
	emptyLeaf := filepath.Join(parent, fmt.Sprintf("p90.%d.900", f.oldH))
	busyLeaf := filepath.Join(parent, fmt.Sprintf("p91.%d.901", f.oldH))
	stray := startInLeaf(t, f.o, busyLeaf, emptyLeaf)
	f.diedOfHangup(f.pids[dead], f.pids[setsid][:2])
	f.restart()

	// Survived, and reported: every process alive after the crash is a
	// survivor of an orphaned pane.
	for pane, want := range map[string][]supervisor.Identity{
		live:   f.pids[live],       // leader and its TERM-immune member
		setsid: f.pids[setsid][2:], // the setsid grandchild only: the leader and its group died of SIGHUP
		dying:  f.pids[dying],
	} {
		in := f.infoWhen(pane, "reports its survivors", func(in proto.PaneInfo) bool { return len(in.Survivors) == len(want) })
		if in.State != "orphaned" || !slices.Equal(sorted(in.Survivors), pidsOf(want)) {
			t.Errorf("%s: survived but reported %s with survivors %v; want orphaned with %v", pane, in.State, in.Survivors, pidsOf(want))
		}
	}
	st := f.c.call(&proto.HostStatusReq{}).(*proto.HostInfoReply)
	if want := fmt.Sprintf("%s: %d", setsid, f.pids[setsid][2].PID); !slices.Contains(st.Orphans, want) || len(st.Orphans) != 3 {
		t.Errorf("host status orphans %q; want the 3 orphaned panes, among them %q", st.Orphans, want)
	}
	// Lost, and said so: the pane whose whole tree died with the host.
	if in := f.c.info(dead); in.State != "lost" || len(in.Survivors) != 0 || len(aliveOf(f.pids[dead])) != 0 {
		t.Errorf("%s: its tree died with the host, but it is %s with survivors %v", dead, in.State, in.Survivors)
	}

	// Read-only view from /proc, and an attach that says why it cannot.
	if s := f.c.screen(live); !contains(s, "read-only view from /proc") || !contains(s, strconv.Itoa(f.pids[live][1].PID)) {
		t.Errorf("orphan's screen:\n%s", s)
	}
	if e := f.c.callErr(&proto.SubscribeReq{Pane: live, WantFd: true}); !contains(e.Message, "orphaned") || !contains(e.Message, "read-only") {
		t.Errorf("attach to an orphan: %v", e)
	}

	// Dead ones are marked: an orphan that dies ends as lost-parent.
	killed := time.Now()
	if err := syscall.Kill(f.pids[dying][0].PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	in := f.infoWhen(dying, "marked exited", func(in proto.PaneInfo) bool { return in.State == "exited" })
	t.Logf("an orphan's death was marked %v after its SIGKILL", time.Since(killed))
	if in.ExitReason != "lost-parent" || len(in.Survivors) != 0 {
		t.Errorf("an orphan that died: %+v; want exited, lost-parent", in)
	}
	if e := f.c.callErr(&proto.KillReq{Pane: dying}); e.Code != proto.CodeExited || contains(e.Message, "process is gone") {
		t.Errorf("kill of an orphan that died: %+v; want not running (exited)", e)
	}
	f.c.call(&proto.RemoveReq{Pane: dying})

	// Killed whole: the ladder reaches the member that ignores SIGTERM.
	f.c.call(&proto.KillReq{Pane: live, GraceMS: 200})
	if left := aliveOf(f.pids[live]); len(left) != 0 {
		t.Errorf("kill of a live orphan leaked %v", left)
	}
	if in := f.c.info(live); in.State != "exited" || in.ExitReason != "killed" {
		t.Errorf("killed orphan: %+v", in)
	}
	// rm ends the survivors of a pane whose leader is gone.
	f.c.call(&proto.RemoveReq{Pane: setsid})
	if left := aliveOf(f.pids[setsid]); len(left) != 0 {
		t.Errorf("rm of a pane whose leader is gone leaked %v", left)
	}

	// Cgroup leaves of the dead host: the empty ones go; one still holding
	// a process of no pane is reported until it empties.
	for _, pane := range []string{dead, live, setsid, dying} {
		leaf := f.recs[pane].Cgroup
		eventually(t, "leaf of "+pane+" removed", func() bool { _, err := os.Stat(leaf); return os.IsNotExist(err) })
	}
	if _, err := os.Stat(emptyLeaf); !os.IsNotExist(err) {
		t.Errorf("an empty leaf of the dead host leaked: %v", err)
	}
	st = f.c.call(&proto.HostStatusReq{}).(*proto.HostInfoReply)
	if !slices.Contains(st.StaleCgroups, busyLeaf) {
		t.Errorf("host status stale_cgroups %v; want %s reported", st.StaleCgroups, busyLeaf)
	}
	stray()
	st = f.c.call(&proto.HostStatusReq{}).(*proto.HostInfoReply)
	if _, err := os.Stat(busyLeaf); len(st.StaleCgroups) != 0 || !os.IsNotExist(err) {
		t.Errorf("emptied stale leaf: reported %v, stat %v; want removed", st.StaleCgroups, err)
	}
}

// startInLeaf creates the leaves (the first to hold a process) and
// starts a process of the oracle in the first; the returned func kills it
// and waits for it.
func startInLeaf(t *testing.T, o *testproc.Oracle, leaves ...string) func() {
	t.Helper()
	for _, l := range leaves {
		if err := os.Mkdir(l, 0o755); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = syscall.Rmdir(l) })
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = o.Env(testproc.FakeAgentEnv + "=sleep")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	stop := func() {
		_ = cmd.Process.Kill()
		<-done
	}
	t.Cleanup(stop)
	if err := os.WriteFile(filepath.Join(leaves[0], "cgroup.procs"), []byte(strconv.Itoa(cmd.Process.Pid)), 0); err != nil {
		t.Fatal(err)
	}
	return stop
}

// TestHostCrashKillsAnOrphansSessionWithoutCgroup is the process-group
// half of the fault: with no cgroup, a pane whose leader died of SIGHUP
// with the host still has a job of its session alive (its own group,
// ignoring SIGTERM); the next host finds it by session and CLOWDER_PANE_ID
// and kill ends it.
func TestHostCrashKillsAnOrphansSessionWithoutCgroup(t *testing.T) {
	f := crashHost(t, "off", "hup-bg", "hup-immune")
	session, live := f.mode["hup-bg"], f.mode["hup-immune"]
	f.diedOfHangup(f.pids[session][:1])
	f.restart()

	in := f.infoWhen(session, "reports its survivor", func(in proto.PaneInfo) bool { return len(in.Survivors) > 0 })
	if job := f.pids[session][1]; in.State != "orphaned" || !slices.Equal(in.Survivors, []int{job.PID}) {
		t.Errorf("survived but reported %s with %v; want orphaned with the job %d", in.State, in.Survivors, job.PID)
	}
	f.c.call(&proto.KillReq{Pane: session, GraceMS: 200})
	f.c.call(&proto.KillReq{Pane: live, GraceMS: 200})
	for _, p := range []string{session, live} {
		if left := aliveOf(f.pids[p]); len(left) != 0 {
			t.Errorf("kill of %s leaked %v", p, left)
		}
		if in := f.c.info(p); in.State != "exited" || in.ExitReason != "killed" {
			t.Errorf("killed orphan %s: %+v", p, in)
		}
	}
}

// TestHostSignalTakesTheWholeIdentity pins issue 10's finding: a signal
// naming the right pid and start time was refused, because the boot id
// (part of every identity) was missing from the wire. Now the three travel
// together: all three are obeyed, a wrong boot id is refused with nothing
// sent, and pid without boot id is a bad request that says what to send.
func TestHostSignalTakesTheWholeIdentity(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFake(c, "signals")
	c.waitText(p.ID, "READY")
	in := c.info(p.ID)
	if in.BootID == "" {
		t.Fatalf("ls gives no boot id: %+v", in)
	}
	c.call(&proto.SignalReq{Pane: p.ID, Signal: "USR1", Pid: in.Pid, PidStart: in.PidStart, BootID: in.BootID})
	c.waitText(p.ID, "GOT SIGUSR1")
	if e := c.callErr(&proto.SignalReq{Pane: p.ID, Signal: "USR2", Pid: in.Pid, PidStart: in.PidStart, BootID: "00000000-0000-0000-0000-000000000000"}); e.Code != proto.CodeIdentity {
		t.Errorf("another boot's identity: %+v; want identity-mismatch", e)
	}
	if e := c.callErr(&proto.SignalReq{Pane: p.ID, Signal: "USR2", Pid: in.Pid, PidStart: in.PidStart}); e.Code != proto.CodeBadRequest || !contains(e.Message, "boot_id") {
		t.Errorf("pid without boot id: %+v; want bad-request naming boot_id", e)
	}
	c.call(&proto.SignalReq{Pane: p.ID, Signal: "INT", Pid: in.Pid, PidStart: in.PidStart, BootID: in.BootID})
	if s := c.waitText(p.ID, "GOT SIGINT"); contains(c.screen(p.ID), "USR2") {
		t.Errorf("a refused signal reached the process:\n%s", s)
	}
	c.call(&proto.KillReq{Pane: p.ID, GraceMS: 200, Pid: in.Pid, PidStart: in.PidStart, BootID: in.BootID})
	if got := c.info(p.ID); got.State != "exited" || got.ExitReason != "killed" {
		t.Errorf("kill by the whole identity: %+v", got)
	}
}
