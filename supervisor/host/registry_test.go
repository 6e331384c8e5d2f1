package host

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"clowder/persist"
	"clowder/supervisor/proto"
)

// exitedRecords returns n exited records as a registry would hold them.
func exitedRecords(n int) []persist.PaneRecord {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	recs := make([]persist.PaneRecord, n)
	for i := range recs {
		recs[i] = persist.PaneRecord{
			ID: fmt.Sprintf("p%d", i+1), Name: fmt.Sprintf("agent-%d", i+1), Kind: persist.KindAgent,
			Adapter: "claude", Argv: []string{"claude", "--model", "opus"}, Cwd: "/home/user/src/project",
			EnvKeys: []string{"CLOWDER_PANE_ID"}, Created: at, PID: 1000 + i, PIDStart: 12345, BootID: "b",
			State: persist.StateExited, Exit: &persist.Exit{Code: 0, Reason: persist.ExitCompleted, At: at},
			Size: persist.Size{Cols: 200, Rows: 50},
		}
	}
	return recs
}

// adoptCost loads n exited records into a host (not serving) and returns
// the live heap and the resident memory they cost, per record.
func adoptCost(t testing.TB, n int) (heap, rss int64) {
	dir := t.TempDir()
	paths := persist.Paths{RuntimeDir: dir + "/run", StateDir: dir}
	reg := &persist.Registry{Panes: exitedRecords(n)}
	if err := reg.Save(paths.AgentsFile()); err != nil {
		t.Fatal(err)
	}
	reg = nil
	cfg := persist.DefaultConfig()
	cfg.Host.KeepExited = n
	h, err := New(Options{Paths: paths, Config: cfg, IdleExit: -1})
	if err != nil {
		t.Fatal(err)
	}
	heap0, rss0 := liveHeap(), residentBytes(t)
	h.loadRegistry()
	heap1, rss1 := liveHeap(), residentBytes(t)
	if len(h.panes) != n {
		t.Fatalf("loaded %d panes of %d (%s)", len(h.panes), n, h.regIssue)
	}
	runtime.KeepAlive(h)
	return (heap1 - heap0) / int64(n), (rss1 - rss0) / int64(n)
}

// liveHeap is the heap in use after a full collection.
func liveHeap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// residentBytes is this process's resident set size (0 where /proc has
// no status file).
func residentBytes(t testing.TB) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "VmRSS:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				t.Fatalf("VmRSS %q: %v", l, err)
			}
			return kb << 10
		}
	}
	return 0
}

// Regression (issue 7 §4): every adopted record cost a whole pane, an
// output ring of ring_bytes (8 MiB of heap) and two screens of cells at
// its recorded size (114 KB resident at 80x24, 839 KB at 200x50), so a
// 200,000-record agents.json grew the host to 14.8 GB. A record whose
// process this host does not run never gets output; it must cost
// kilobytes.
func TestAdoptedRecordCostsKilobytes(t *testing.T) {
	const n, limit = 500, 8 << 10
	if heap, _ := adoptCost(t, n); heap > limit {
		t.Fatalf("each adopted record keeps %d bytes of heap; want at most %d", heap, limit)
	}
}

// BenchmarkAdoptRecords reports what one record of agents.json costs the
// host once loaded: live heap and resident memory.
func BenchmarkAdoptRecords(b *testing.B) {
	for range b.N {
		heap, rss := adoptCost(b, 5000)
		b.ReportMetric(float64(heap), "heap-B/record")
		b.ReportMetric(float64(rss), "rss-B/record")
	}
}

// saveGood writes recs to agents.json twice, so that agents.json.bak is a
// good copy of them too.
func saveGood(t *testing.T, path string, recs []persist.PaneRecord) {
	t.Helper()
	for range 2 {
		if err := (&persist.Registry{Panes: recs}).Save(path); err != nil {
			t.Fatal(err)
		}
	}
}

// Regression (issue 7 §4): after a corrupt agents.json the host said "the
// last good copy is agents.json.bak", but its next saves replaced .bak
// with the new, nearly empty registry, so following the advice lost every
// record. A host that started from a corrupt file keeps .bak untouched
// and says exactly how to restore it.
func TestCorruptRegistryKeepsLastGoodCopyUntilRestored(t *testing.T) {
	th := newTestHost(t)
	path := th.paths.AgentsFile()
	saveGood(t, path, exitedRecords(3))
	if err := os.WriteFile(path, []byte(`{"schema_version": 1, "pan`), 0o600); err != nil {
		t.Fatal(err)
	}
	th.serve(persist.DefaultConfig())
	c := th.dial()
	a := th.spawnFake(c, "sleep") // the first save: no agents.json yet
	b := th.spawnFake(c, "sleep") // the second: used to replace .bak
	c.call(&proto.RenameReq{Pane: b.ID, Name: "third-save"})
	bak, err := persist.LoadRegistry(path + persist.BackupSuffix)
	if err != nil || len(bak.Panes) != 3 || bak.Panes[0].ID != "p1" {
		t.Fatalf("agents.json.bak after saves = %+v, %v; want the 3 old records", bak, err)
	}
	cur, err := persist.LoadRegistry(path)
	if err != nil || len(cur.Panes) != 2 || cur.Panes[0].ID != a.ID {
		t.Fatalf("agents.json = %+v, %v; want the 2 new panes", cur, err)
	}
	// The restore command names a copy of .bak that no save replaces, so
	// it stays right after this host is gone and another one saved twice.
	kept, _ := filepath.Glob(path + ".lastgood-*")
	if len(kept) != 1 {
		t.Fatalf("last good copies: %v; want one", kept)
	}
	if good, err := persist.LoadRegistry(kept[0]); err != nil || len(good.Panes) != 3 {
		t.Fatalf("%s = %+v, %v; want the 3 old records", kept[0], good, err)
	}
	st := c.call(&proto.HostStatusReq{}).(*proto.HostInfoReply)
	restore := "clowder host stop && cp " + kept[0] + " " + path
	if !strings.Contains(st.Registry, restore) {
		t.Fatalf("host status registry %q; want the restore command %q", st.Registry, restore)
	}
}

// An agents.json the host cannot read (here a directory) is left alone,
// and so is .bak: the host saves nothing until a person acts.
func TestUnreadableRegistryIsNeverOverwritten(t *testing.T) {
	th := newTestHost(t)
	path := th.paths.AgentsFile()
	saveGood(t, path+persist.BackupSuffix, exitedRecords(2))
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	th.serve(persist.DefaultConfig())
	c := th.dial()
	th.spawnFake(c, "sleep")
	th.spawnFake(c, "sleep")
	if fi, err := os.Lstat(path); err != nil || !fi.IsDir() {
		t.Fatalf("agents.json was replaced: %v", err)
	}
	if bak, err := persist.LoadRegistry(path + persist.BackupSuffix); err != nil || len(bak.Panes) != 2 {
		t.Fatalf("agents.json.bak = %+v, %v; want the 2 old records", bak, err)
	}
	st := c.call(&proto.HostStatusReq{}).(*proto.HostInfoReply)
	if !strings.Contains(st.Registry, path) || !strings.Contains(st.Registry, "not saving") {
		t.Fatalf("host status registry %q; want the file and that nothing is saved", st.Registry)
	}
}

func TestShellQuoteKeepsPathsIntact(t *testing.T) {
	for in, want := range map[string]string{
		"/home/u/.local/state/clowder/agents.json": "/home/u/.local/state/clowder/agents.json",
		"/home/my dir/agents.json":                 "'/home/my dir/agents.json'",
		"/tmp/it's":                                `'/tmp/it'\''s'`,
		"/x/$(rm -rf ~)":                           "'/x/$(rm -rf ~)'",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

// ids lists the panes' ids in order.
func ids(panes []proto.PaneInfo) string {
	var s []string
	for _, p := range panes {
		s = append(s, p.ID)
	}
	return strings.Join(s, ",")
}

// Issue 7 §4: the registry is bounded. Beyond host.keep_exited, the panes
// whose process is gone are forgotten, oldest exit first, by the host and
// in agents.json; a running pane never is.
func TestExitedPanesBeyondKeepExitedAreForgotten(t *testing.T) {
	th := startHost(t, func(c *persist.Config) { c.Host.KeepExited = 2 })
	c := th.dial()
	live := th.spawnFake(c, "sleep")
	for range 4 {
		// Exits on a line, not at once: a pane exiting while the spawn
		// reply is built races in Run.foreground (a separate bug).
		p := th.spawnFake(c, "exit-on-line")
		c.call(&proto.InputReq{Pane: p.ID, Data: []byte("bye"), Keys: []string{"Enter"}})
		c.call(&proto.WaitReq{Pane: p.ID, Exit: true, TimeoutMS: 20000})
	}
	want := live.ID + ",p4,p5"
	eventually(t, "two exited panes kept", func() bool {
		return ids(c.call(&proto.ListReq{}).(*proto.PaneListReply).Panes) == want
	})
	eventually(t, "agents.json trimmed", func() bool {
		var got []string
		for _, r := range th.registry().Panes {
			got = append(got, r.ID)
		}
		return strings.Join(got, ",") == want
	})
}

// A file written before the limit existed (or under a larger one) is
// trimmed as it is adopted.
func TestAdoptionKeepsOnlyTheNewestExited(t *testing.T) {
	th := newTestHost(t)
	recs := exitedRecords(5)
	for i := range recs {
		recs[i].Exit.At = recs[i].Exit.At.Add(time.Duration(5-i) * time.Minute) // p1 ended last
	}
	saveGood(t, th.paths.AgentsFile(), recs)
	cfg := persist.DefaultConfig()
	cfg.Host.KeepExited = 2
	th.serve(cfg)
	if got := ids(th.dial().call(&proto.ListReq{}).(*proto.PaneListReply).Panes); got != "p1,p2" {
		t.Fatalf("adopted %s; want the two that ended last, p1,p2", got)
	}
}

// assertMovedWhole checks that agents.json was moved aside with all its
// bytes, and that host status said why.
func assertMovedWhole(t *testing.T, path string, size int64, issue, want string) {
	t.Helper()
	if !strings.Contains(issue, "too large to load") || !strings.Contains(issue, want) {
		t.Fatalf("host status registry %q; want it too large: %s", issue, want)
	}
	moved, _ := filepath.Glob(path + ".corrupt-*")
	if len(moved) != 1 {
		t.Fatalf("moved aside: %v", moved)
	}
	if fi, err := os.Stat(moved[0]); err != nil || fi.Size() != size {
		t.Fatalf("moved file %v, %v; want all %d bytes", fi, err, size)
	}
}

// Regression (issue 7 §4): a 200,000-record agents.json grew the host to
// 14.8 GB without it ever serving. A file over the size limit is moved
// aside whole, unread, and the host serves and saves as usual.
func TestHostMovesAsideAHugeRegistryAndServes(t *testing.T) {
	th := newTestHost(t)
	path := th.paths.AgentsFile()
	saveGood(t, path, exitedRecords(1))
	const size = 4 << 30 // sparse: no disk used
	if err := os.Truncate(path, size); err != nil {
		t.Fatal(err)
	}
	th.serve(persist.DefaultConfig())
	c := th.dial()
	st := c.call(&proto.HostStatusReq{}).(*proto.HostInfoReply)
	assertMovedWhole(t, path, size, st.Registry, "the file is 4.0 GiB, more than the limit of 32 MiB")
	th.spawnFake(c, "sleep")
	if got := th.registry().Panes; len(got) != 1 {
		t.Fatalf("agents.json after a spawn: %+v", got)
	}
}

// Records small enough to pass the size limit are refused at the record
// limit: decoding stops there, one record past it.
func TestHostMovesAsideARegistryWithTooManyRecords(t *testing.T) {
	dir := t.TempDir()
	paths := persist.Paths{RuntimeDir: dir + "/run", StateDir: dir}
	var b strings.Builder
	b.WriteString(`{"schema_version":1,"panes":[`)
	for i := range persist.MaxRegistryRecords + 1 {
		fmt.Fprintf(&b, `{"id":"p%d","kind":"run","state":"exited"},`, i)
	}
	content := strings.TrimSuffix(b.String(), ",") + "]}"
	if err := os.WriteFile(paths.AgentsFile(), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	h, err := New(Options{Paths: paths, Config: persist.DefaultConfig(), IdleExit: -1})
	if err != nil {
		t.Fatal(err)
	}
	h.loadRegistry() // what Serve does first; serving is the test above's
	assertMovedWhole(t, paths.AgentsFile(), int64(len(content)), h.regIssue, "more than 20000 records")
	if len(h.panes) != 0 || h.regReadOnly {
		t.Fatalf("after a refused file: %d panes, read-only %v; want none and saving", len(h.panes), h.regReadOnly)
	}
}

// Issue 7 §5/§4: a symlinked agents.json is not followed, read or
// replaced; the host serves without saving and says so.
func TestHostRefusesASymlinkedRegistry(t *testing.T) {
	th := newTestHost(t)
	path := th.paths.AgentsFile()
	target := filepath.Join(t.TempDir(), "elsewhere.json")
	saveGood(t, target, exitedRecords(2))
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(target)
	th.serve(persist.DefaultConfig())
	c := th.dial()
	th.spawnFake(c, "sleep")
	st := c.call(&proto.HostStatusReq{}).(*proto.HostInfoReply)
	for _, w := range []string{path, "symbolic link", "not saving"} {
		if !strings.Contains(st.Registry, w) {
			t.Errorf("host status registry %q lacks %q", st.Registry, w)
		}
	}
	if got, _ := os.ReadFile(target); string(got) != string(want) {
		t.Error("the link's target was rewritten")
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v, %v", fi, err)
	}
}

// A state dir other users can write is refused: the host does not start.
func TestHostRefusesAWritableStateDir(t *testing.T) {
	th := newTestHost(t)
	if err := os.Chmod(th.paths.StateDir, 0o777); err != nil {
		t.Fatal(err)
	}
	h, err := New(Options{Paths: th.paths, Config: persist.DefaultConfig(), IdleExit: -1})
	if err != nil {
		t.Fatal(err)
	}
	err = h.Serve(context.Background())
	if err == nil || !strings.Contains(err.Error(), th.paths.StateDir) || !strings.Contains(err.Error(), "chmod 700") {
		t.Fatalf("Serve = %v; want a refusal naming the state dir and chmod 700", err)
	}
}

// Regression (issue 7 §4): a host killed in the middle of a save left
// .agents.json.tmp-* (and a backup temp) for ever. The next host removes
// them on start, under its lock; a second host, refused by that lock,
// removes nothing, since the first may be writing.
func TestHostStartRemovesStaleRegistryTemps(t *testing.T) {
	th := newTestHost(t)
	dir := th.paths.StateDir
	stale := []string{".agents.json.tmp-12345", ".agents.json.bak.tmp", ".agents.json.bak.tmp-x1"}
	for _, n := range stale {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	th.serve(persist.DefaultConfig())
	for _, n := range stale {
		if _, err := os.Lstat(filepath.Join(dir, n)); err == nil {
			t.Errorf("%s is still there after the host started", n)
		}
	}
	live := filepath.Join(dir, ".agents.json.tmp-live")
	if err := os.WriteFile(live, []byte("being written"), 0o600); err != nil {
		t.Fatal(err)
	}
	second, err := New(Options{Paths: th.paths, Config: persist.DefaultConfig(), IdleExit: -1})
	if err != nil {
		t.Fatal(err)
	}
	if err := second.Serve(context.Background()); !errors.Is(err, persist.ErrLocked) {
		t.Fatalf("a second host: %v, want ErrLocked", err)
	}
	if _, err := os.Lstat(live); err != nil {
		t.Errorf("a refused second host removed the live host's temp: %v", err)
	}
}

// Issue 12 (stop): every exit wrote agents.json from the background, one
// save after the other, each with every record and two fsyncs: a host
// stop with 100 shells wrote it 100 times before it could exit. Exits
// that come while a save waits for its turn share it, and the file still
// records every one of them.
func TestExitsInABurstShareOneRegistrySave(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	const n = 8
	for range n {
		th.spawnFake(c, "sleep")
	}
	h := th.host
	h.regMu.Lock() // the exits' saves wait for their turn, as behind a slow one
	before := regSaves.Load()
	h.killOurs()
	h.regMu.Unlock()
	eventually(t, "every exit recorded in agents.json", func() bool {
		exited := 0
		for _, r := range th.registry().Panes {
			if r.State == persist.StateExited {
				exited++
			}
		}
		return exited == n
	})
	h.bg.Wait()
	if got := regSaves.Load() - before; got != 1 {
		t.Fatalf("%d exits in a burst wrote agents.json %d times, want once", n, got)
	}
}

// Issue 12 (spawn): a pane's default name ("sh", "sh-2", ...) was found
// by trying each candidate against every pane, name by name under each
// pane's lock: n² looks for the n-th shell, 15% of a spawn's CPU at 300
// panes. The names in use are read once.
func TestAFreeNameLooksAtEachPaneOnce(t *testing.T) {
	th := startHost(t)
	h := th.host
	const n = 60
	// The host serves: its accept loop reads the panes (armIdle) under
	// h.mu, so they are added under it too (regression: a data race
	// under -race in 1 of 6 runs of the package on a loaded machine).
	h.mu.Lock()
	for i := 1; i <= n; i++ {
		name := "sh"
		if i > 1 {
			name = "sh-" + strconv.Itoa(i)
		}
		h.adoptRecord(persist.PaneRecord{ID: "p" + strconv.Itoa(i), Name: name, Kind: persist.KindShell, State: persist.StateExited})
	}
	before := nameLooks.Load()
	got := h.freeNameLocked("sh")
	looks := nameLooks.Load() - before
	h.mu.Unlock()
	if got != "sh-"+strconv.Itoa(n+1) {
		t.Fatalf("free name %q, want sh-%d", got, n+1)
	}
	if looks > n {
		t.Fatalf("finding a free name among %d panes looked at a pane's name %d times, want at most %d", n, looks, n)
	}
}
