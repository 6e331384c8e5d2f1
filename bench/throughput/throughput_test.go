package throughput

import (
	"runtime"
	"sync"
	"testing"

	"clowder/bench/adapter"
	"clowder/bench/streamgen"
)

// benchStreamSize is how much distinct stream the benchmarks walk through;
// past the end they start again from the top (the terminal keeps its state).
const benchStreamSize = 100 << 20

var benchStream = sync.OnceValue(func() []byte { return streamgen.Generate(1, benchStreamSize) })

// BenchmarkParse feeds the stream at 200x50 (scrollback 10,000) one PTY
// read (4 KiB) per iteration, so MB/s is directly comparable across
// emulators: go test -bench Parse -benchtime 20000x.
func BenchmarkParse(b *testing.B) {
	data := benchStream()
	for _, e := range adapter.All() {
		b.Run(e.Name, func(b *testing.B) {
			t := e.New(streamgen.DefaultCols, streamgen.DefaultRows, 10000)
			defer t.Close()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			b.SetBytes(ChunkSize)
			b.ReportAllocs()
			off := 0
			for b.Loop() {
				if off+ChunkSize > len(data) {
					off = 0
				}
				if _, err := t.Write(data[off : off+ChunkSize]); err != nil {
					b.Fatal(err)
				}
				off += ChunkSize
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(b.N*ChunkSize), "allocs/B")
		})
	}
}

func TestParseReportsEveryByte(t *testing.T) {
	data := streamgen.Generate(1, 64<<10)
	for _, e := range adapter.All() {
		r, err := Parse(e, data, streamgen.DefaultCols, streamgen.DefaultRows, 100)
		if err != nil {
			t.Fatal(err)
		}
		if r.Bytes != len(data) || r.Elapsed <= 0 || r.MBps() <= 0 {
			t.Errorf("%s: implausible result %+v", e.Name, r)
		}
	}
}
