package hostbench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
