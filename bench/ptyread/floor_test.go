package ptyread

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"clowder/bench/streamgen"
)

// BenchmarkBarePTY is the floor the host's flood compares with.
func BenchmarkBarePTY(b *testing.B) {
	file := filepath.Join(b.TempDir(), "plain")
	if err := os.WriteFile(file, streamgen.PlainText(1, 20e6), 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(20e6)
	var reads int
	for range b.N {
		r, err := Read(context.Background(), file, 200, 50)
		if err != nil {
			b.Fatal(err)
		}
		reads += r.Reads
		b.ReportMetric(r.MBperCPUs(), "MB/CPU-s")
	}
	b.ReportMetric(20e6*float64(b.N)/float64(reads), "B/read")
}
