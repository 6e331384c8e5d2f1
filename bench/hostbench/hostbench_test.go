package hostbench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"clowder/bench/streamgen"
	"clowder/bench/throughput"
	"clowder/supervisor/proto"
)

func TestFloodCountsEveryByte(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	file := filepath.Join(t.TempDir(), "stream")
	if err := os.WriteFile(file, []byte(strings.Repeat("hello world\r\n", 10000)), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Flood(ctx, file, 80, 24)
	if err != nil {
		t.Fatal(err)
	}
	if r.Bytes != 130000 || r.Raw <= 0 {
		t.Fatalf("flood result %+v", r)
	}
}

func TestKeyRoundTripSeesEveryEcho(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := KeyRoundTrip(ctx, 80, 24, 70) // past one line, so Reset runs too
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != 70 || s.Median() <= 0 {
		t.Fatalf("samples %v", s)
	}
}

func TestSpawnToFirstOutput(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := SpawnToFirstOutput(ctx, 3)
	if err != nil || len(s) != 3 {
		t.Fatalf("%v %v", s, err)
	}
}

func TestIdleRSSOfTheRealHost(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	bin, err := BuildClowder(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	rss, err := IdleRSS(ctx, bin, 2)
	if err != nil || rss < 1<<20 {
		t.Fatalf("rss %d, %v", rss, err)
	}
}

// BenchmarkPlainFlood floods plain text lines through a pane of the
// in-process host, for profiling the host's output path:
//
//	go test -run '^$' -bench PlainFlood -cpuprofile cpu.out ./hostbench
func BenchmarkPlainFlood(b *testing.B) {
	benchmarkFlood(b, streamgen.PlainText(1, 20e6))
}

// BenchmarkMixedFlood is the same with the escape-dense bench stream.
func BenchmarkMixedFlood(b *testing.B) {
	benchmarkFlood(b, streamgen.Generate(1, 20e6))
}

// floodHost writes data to a file for a pane to cat and starts a host,
// closed when the benchmark ends.
func floodHost(b *testing.B, data []byte) (string, *Host) {
	b.Helper()
	file := filepath.Join(b.TempDir(), "stream")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		b.Fatal(err)
	}
	h, err := Start(context.Background(), DefaultRing)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = h.Close() }) // best effort: the benchmark is over
	return file, h
}

func benchmarkFlood(b *testing.B, data []byte) {
	ctx := context.Background()
	file, h := floodHost(b, data)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	cpu := throughput.ProcessCPU()
	for range b.N {
		if _, err := h.timeCat(ctx, file, 200, 50); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(data))*float64(b.N)/1e6/(throughput.ProcessCPU()-cpu).Seconds(), "MB/CPU-s")
}

// BenchmarkPlainFloodSubscribed is BenchmarkPlainFlood with a client
// subscribed to the pane's screen frames, reading them as the TUI does:
// the host's side of an attached flood.
func BenchmarkPlainFloodSubscribed(b *testing.B) {
	data := streamgen.PlainText(1, 20e6)
	ctx := context.Background()
	file, h := floodHost(b, data)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	cpu := throughput.ProcessCPU()
	frames := 0
	for range b.N {
		id, err := h.spawn(ctx, 200, 50, "sh", "-c", `stty raw -echo; read _; exec cat "$1"`, "sh", file)
		if err != nil {
			b.Fatal(err)
		}
		sub, err := h.Client.Subscribe(ctx, proto.SubscribeReq{Pane: id, Screen: true})
		if err != nil {
			b.Fatal(err)
		}
		if err := h.Client.Input(ctx, proto.InputReq{Pane: id, Data: []byte("\n")}); err != nil {
			b.Fatal(err)
		}
		drained := make(chan int)
		go func() {
			n := 0
			for range sub.C { // until Close below
				n++
			}
			drained <- n
		}()
		if _, err := h.Client.Wait(ctx, proto.WaitReq{Pane: id, Exit: true, TimeoutMS: 600000}); err != nil {
			b.Fatal(err)
		}
		_ = sub.Close() // the frames of the flood have been read or dropped for newer ones
		frames += <-drained
		if err := h.Client.Remove(ctx, id); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(data))*float64(b.N)/1e6/(throughput.ProcessCPU()-cpu).Seconds(), "MB/CPU-s")
	b.ReportMetric(float64(frames)/float64(b.N), "frames/op")
}
