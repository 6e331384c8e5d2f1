package scale

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"syscall"
	"testing"
	"time"

	"clowder/bench/hostbench"
	"clowder/bench/latency"
	"clowder/supervisor/proto"
)

// BenchmarkSpawnShells opens 100 idle shells in an in-process host, the
// host's part of `clowder new --shell` (no CLI process), for profiling
// where a pane's spawn time and memory go:
//
//	go test -run '^$' -bench SpawnShells -benchtime 1x ./scale -args -spawncpu cpu.out
//	go test -run '^$' -bench SpawnShells -benchtime 1x -memprofilerate 1 ./scale -args -heap100 heap.out
//
// It reports the spawn request's median over the first and the last ten
// panes, and the live heap each pane adds once every shell is at its
// prompt.
// heap100 names a file for the heap profile taken with every shell at its
// prompt (the -memprofile of go test is taken after the host is gone).
var heap100 = flag.String("heap100", "", "write the in-use heap profile with every shell open to this file")

// spawnCPU names a file for a CPU profile of the spawns alone (the
// -cpuprofile of go test includes the host's start and its shutdown).
var spawnCPU = flag.String("spawncpu", "", "write a CPU profile of the spawns alone to this file")

func BenchmarkSpawnShells(b *testing.B) {
	const n = 100
	for i := 0; i < b.N; i++ {
		g0, t0, m0 := runtime.NumGoroutine(), threadCount(), memStats()
		spawns, cpu, heap, g1, t1, m1, err := spawnShells(b, n)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(spawns[:10].Median())/1e6, "ms/first-10-spawn")
		b.ReportMetric(float64(spawns[n-10:].Median())/1e6, "ms/last-10-spawn")
		b.ReportMetric(float64(heap)/n, "heap-B/pane")
		b.ReportMetric(float64(cpu[10]-cpu[0])/10e6, "cpu-ms/first-10-spawn")
		b.ReportMetric(float64(cpu[n]-cpu[n-10])/10e6, "cpu-ms/last-10-spawn")
		b.ReportMetric(float64(g1-g0)/n, "goroutines/pane")
		b.ReportMetric(float64(t1-t0)/n, "threads/pane")
		b.ReportMetric(float64(m1.StackInuse-m0.StackInuse)/n, "stack-B/pane")
		b.ReportMetric(float64(resident(m1)-resident(m0))/n, "heap-resident-B/pane")
	}
}

func spawnShells(b *testing.B, n int) (spawns latency.Samples, cpu []time.Duration, heap int64, goroutines, threads int, m runtime.MemStats, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	h, err := hostbench.Start(ctx, hostbench.DefaultRing)
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	rc := filepath.Join(b.TempDir(), "shrc")
	if err := os.WriteFile(rc, []byte("PS1='"+prompt+"'\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	env := append(os.Environ(), "ENV="+rc)
	before := liveHeap()
	ids := make([]string, 0, n)
	stop, err := startCPUProfile(*spawnCPU)
	if err != nil {
		b.Fatal(err)
	}
	cpu = make([]time.Duration, 0, n+1)
	cpu = append(cpu, processCPU())
	spawns, err = latency.TimeN(n, func() error {
		defer func() { cpu = append(cpu, processCPU()) }()
		r, err := h.Client.Spawn(ctx, proto.SpawnReq{Nonce: fmt.Sprint(len(ids)), Argv: []string{"/bin/sh"}, Kind: "shell", Env: env, Cols: 80, Rows: 24})
		ids = append(ids, r.Pane.ID)
		return err
	})
	stop()
	if err != nil {
		b.Fatal(err)
	}
	for _, id := range ids {
		if _, err := h.Client.Wait(ctx, proto.WaitReq{Pane: id, Text: strings.TrimSpace(prompt), TimeoutMS: 60_000}); err != nil {
			b.Fatal(err)
		}
	}
	return spawns, cpu, liveHeap() - before, runtime.NumGoroutine(), threadCount(), memStats(), writeHeap(*heap100)
}

// startCPUProfile profiles into file ("": not at all) until stop.
func startCPUProfile(file string) (stop func(), err error) {
	if file == "" {
		return func() {}, nil
	}
	f, err := os.Create(file)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

func writeHeap(file string) error {
	if file == "" {
		return nil
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	defer f.Close()
	return pprof.WriteHeapProfile(f)
}

func liveHeap() int64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// threadCount is this process's OS threads.
func threadCount() int {
	tasks, _ := filepath.Glob("/proc/self/task/*")
	return len(tasks)
}

func memStats() runtime.MemStats {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m
}

// resident is the heap's pages the runtime holds from the OS: in use, or
// free and not yet returned.
func resident(m runtime.MemStats) int64 { return int64(m.HeapSys - m.HeapReleased) }

// processCPU is this process's user and system CPU time: the in-process
// host's and the client's (the shells are other processes).
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru) // cannot fail for RUSAGE_SELF
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
