package supervisor

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"clowder/persist"
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
	h, err := NewHost(HostOptions{Paths: paths, Config: persist.DefaultConfig(), IdleExit: -1})
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
	c.call(&RenameReq{Pane: b.ID, Name: "third-save"})
	bak, err := persist.LoadRegistry(path + persist.BackupSuffix)
	if err != nil || len(bak.Panes) != 3 || bak.Panes[0].ID != "p1" {
		t.Fatalf("agents.json.bak after saves = %+v, %v; want the 3 old records", bak, err)
	}
	cur, err := persist.LoadRegistry(path)
	if err != nil || len(cur.Panes) != 2 || cur.Panes[0].ID != a.ID {
		t.Fatalf("agents.json = %+v, %v; want the 2 new panes", cur, err)
	}
	st := c.call(&HostStatusReq{}).(*HostInfoReply)
	restore := "clowder host stop && cp " + path + persist.BackupSuffix + " " + path
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
	st := c.call(&HostStatusReq{}).(*HostInfoReply)
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
