package throughput

import (
	"fmt"
	"runtime"
	"time"

	"clowder/bench/adapter"
)

// ChunkSize is how much one PTY read delivers in the benchmarks (4 KiB, a
// typical read from a busy PTY master).
const ChunkSize = 4096

// Result is one parse run.
type Result struct {
	Bytes      int           // bytes parsed
	Elapsed    time.Duration // wall time for all of them
	CPU        time.Duration // CPU time of the whole process meanwhile (0 if unknown)
	Allocs     uint64        // heap allocations during the run
	AllocBytes uint64        // heap bytes allocated during the run
	// Screen is the terminal's text afterwards (adapter.Terminal.Text),
	// after an untimed CAN as the tmux run gets, for comparing with tmux.
	Screen string
}

// MBps is the throughput in megabytes (10^6 bytes) per second.
func (r Result) MBps() float64 {
	return float64(r.Bytes) / 1e6 / r.Elapsed.Seconds()
}

// MBperCPUs is megabytes per CPU second: steadier than MBps on a busy
// machine, since time spent waiting for a core is not counted.
func (r Result) MBperCPUs() float64 {
	if r.CPU <= 0 {
		return 0
	}
	return float64(r.Bytes) / 1e6 / r.CPU.Seconds()
}

// AllocsPerByte is heap allocations per parsed byte.
func (r Result) AllocsPerByte() float64 { return float64(r.Allocs) / float64(r.Bytes) }

// AllocBytesPerByte is heap bytes allocated per parsed byte.
func (r Result) AllocBytesPerByte() float64 { return float64(r.AllocBytes) / float64(r.Bytes) }

// Parse feeds data to a fresh cols x rows terminal of e (scrollback lines
// kept) in ChunkSize pieces and measures it. The garbage collector runs
// before the clock starts, so earlier work is not billed to e.
func Parse(e adapter.Emulator, data []byte, cols, rows, scrollback int) (Result, error) {
	t := e.New(cols, rows, scrollback)
	defer t.Close()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start, cpu := time.Now(), ProcessCPU()
	if err := adapter.Feed(t, data, ChunkSize); err != nil {
		return Result{}, fmt.Errorf("parse with %s: %w", e.Name, err)
	}
	elapsed, cpu := time.Since(start), ProcessCPU()-cpu
	runtime.ReadMemStats(&after)
	if _, err := t.Write([]byte{0x18}); err != nil { // CAN: end a sequence the cut left open
		return Result{}, fmt.Errorf("parse with %s: %w", e.Name, err)
	}
	return Result{
		Screen:     t.Text(),
		Bytes:      len(data),
		Elapsed:    elapsed,
		CPU:        cpu,
		Allocs:     after.Mallocs - before.Mallocs,
		AllocBytes: after.TotalAlloc - before.TotalAlloc,
	}, nil
}
