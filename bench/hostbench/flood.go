package hostbench

import (
	"context"
	"fmt"
	"os"
	"time"

	"clowder/bench/throughput"
	"clowder/supervisor/proto"
)

// FloodResult is one flood through a pane.
type FloodResult struct {
	Bytes    int64
	Raw      time.Duration // spawn until the pane's exit, after every byte was parsed
	Overhead time.Duration // the same for an empty file
	// CPU is this process's CPU time during the file's run: the host
	// (reader, parser, ring) and its idle client, not cat.
	CPU time.Duration
}

// MBperCPUs is megabytes per CPU second of the host.
func (r FloodResult) MBperCPUs() float64 {
	if r.CPU <= 0 {
		return 0
	}
	return float64(r.Bytes) / 1e6 / r.CPU.Seconds()
}

// Net is the time spent on the stream itself.
func (r FloodResult) Net() time.Duration { return r.Raw - r.Overhead }

// MBps is the stream's throughput through the host.
func (r FloodResult) MBps() float64 { return float64(r.Bytes) / 1e6 / r.Net().Seconds() }

// Flood runs `cat FILE` in a raw-mode pane of cols x rows: the host reads
// every byte, parses it into the pane's screen and keeps it in the ring (of
// the default size, as a real host's: a ring sized to the whole file would
// bill the host for faulting in tens of MB of fresh pages). The host reports
// the exit only after the final output is drained and parsed, so
// spawn-to-exit covers all of it, and the pane's seq proves every byte was
// read.
func Flood(ctx context.Context, file string, cols, rows int) (FloodResult, error) {
	st, err := os.Stat(file)
	if err != nil {
		return FloodResult{}, err
	}
	b, err := Start(ctx, DefaultRing)
	if err != nil {
		return FloodResult{}, err
	}
	defer b.Close()
	overhead, err := b.timeCat(ctx, os.DevNull, cols, rows)
	if err != nil {
		return FloodResult{}, err
	}
	cpu := throughput.ProcessCPU()
	raw, err := b.timeCat(ctx, file, cols, rows)
	cpu = throughput.ProcessCPU() - cpu
	return FloodResult{Bytes: st.Size(), Raw: raw, Overhead: overhead, CPU: cpu}, err
}

// timeCat times one cat of file through a pane, checking that the ring got
// every byte.
func (b *Host) timeCat(ctx context.Context, file string, cols, rows int) (time.Duration, error) {
	start := time.Now()
	id, err := b.spawn(ctx, cols, rows, "sh", "-c", `stty raw -echo; exec cat "$1"`, "sh", file)
	if err != nil {
		return 0, err
	}
	done, err := b.Client.Wait(ctx, proto.WaitReq{Pane: id, Exit: true, TimeoutMS: 600000})
	if err != nil {
		return 0, err
	}
	took := time.Since(start)
	st, _ := os.Stat(file)
	if done.Pane.Seq != uint64(st.Size()) {
		return 0, fmt.Errorf("pane read %d bytes of %d", done.Pane.Seq, st.Size())
	}
	return took, b.Client.Remove(ctx, id)
}
