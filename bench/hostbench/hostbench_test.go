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

func benchmarkFlood(b *testing.B, data []byte) {
	ctx := context.Background()
	file := filepath.Join(b.TempDir(), "stream")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		b.Fatal(err)
	}
	h, err := Start(ctx, int64(len(data))+1<<20)
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
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
