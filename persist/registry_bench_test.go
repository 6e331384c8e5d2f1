package persist

import (
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// registryOf is sampleRegistry's full record repeated n times, as a host
// with n panes saves it.
func registryOf(n int) *Registry {
	full := sampleRegistry().Panes[0]
	r := &Registry{}
	for i := range n {
		rec := full
		rec.ID, rec.Name, rec.Nonce = fmt.Sprintf("p%d", i+1), fmt.Sprintf("shell-%d", i+1), fmt.Sprintf("nonce-%d", i)
		r.Panes = append(r.Panes, rec)
	}
	return r
}

// BenchmarkRegistrySave100 is one save of agents.json with 100 panes,
// what each of a spawn's two saves costs at 100 panes (issue 12).
func BenchmarkRegistrySave100(b *testing.B) {
	path := filepath.Join(b.TempDir(), AgentsFileName)
	r := registryOf(100)
	cpu0 := processCPU()
	for b.Loop() {
		if err := r.Save(path); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(processCPU()-cpu0)/1e6/float64(b.N), "cpu-ms/op")
}

// processCPU is this process's user and system CPU time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru) // cannot fail for RUSAGE_SELF
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRegistrySave100Cached is BenchmarkRegistrySave100 as the host
// saves: through a RecordCache, one record changed since the last save
// (a spawn's, an exit's).
func BenchmarkRegistrySave100Cached(b *testing.B) {
	path := filepath.Join(b.TempDir(), AgentsFileName)
	r := registryOf(100)
	r.Cache = &RecordCache{}
	cpu0 := processCPU()
	for b.Loop() {
		r.Panes[len(r.Panes)-1].PID++
		if err := r.Save(path); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(processCPU()-cpu0)/1e6/float64(b.N), "cpu-ms/op")
}
