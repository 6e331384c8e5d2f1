package supervisor

import (
	"fmt"
	"os"
	"runtime"
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

// heapPerRecord loads n exited records into a host (not serving) and
// returns the live heap they cost, per record.
func heapPerRecord(t testing.TB, n int) uint64 {
	dir := t.TempDir()
	paths := persist.Paths{RuntimeDir: dir + "/run", StateDir: dir}
	reg := &persist.Registry{Panes: exitedRecords(n)}
	if err := reg.Save(paths.AgentsFile()); err != nil {
		t.Fatal(err)
	}
	h, err := NewHost(HostOptions{Paths: paths, Config: persist.DefaultConfig(), IdleExit: -1})
	if err != nil {
		t.Fatal(err)
	}
	before := liveHeap()
	h.loadRegistry()
	after := liveHeap()
	if len(h.panes) != n {
		t.Fatalf("loaded %d panes of %d (%s)", len(h.panes), n, h.regIssue)
	}
	runtime.KeepAlive(h)
	if after < before {
		return 0
	}
	return (after - before) / uint64(n)
}

// liveHeap is the heap in use after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// Regression: every adopted record cost a full pane (an 8 MiB output ring
// and two screens of cells), about 115 KB of memory each in use, so a
// 200,000-record agents.json grew the host to 14.8 GB. A record whose
// process is gone has no output; it must cost kilobytes.
func TestAdoptedRecordCostsKilobytes(t *testing.T) {
	const n, limit = 500, 8 << 10
	if got := heapPerRecord(t, n); got > limit {
		t.Fatalf("each adopted record keeps %d bytes of heap; want at most %d", got, limit)
	}
}

func BenchmarkAdoptRecords(b *testing.B) {
	for range b.N {
		b.ReportMetric(float64(heapPerRecord(b, 1000)), "B/record")
	}
}

var _ = os.Getpid
var _ = strings.Contains
