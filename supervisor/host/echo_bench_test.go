//go:build linux

package host

import (
	"context"
	"io"
	"math"
	"net"
	"os"
	"runtime"
	"testing"
	"time"
	"unsafe"

	"clowder/persist"
	"clowder/supervisor/proto"
	"golang.org/x/sys/unix"
)

// BenchmarkReaderEcho is the pane reader's work for one echoed key: parse
// it, and (subscribed) build its frame and write it to a caught-up screen
// subscriber over a real unix socket, which another goroutine drains.
func BenchmarkReaderEcho(b *testing.B) {
	b.Run("unsubscribed", func(b *testing.B) {
		p := echoBenchPane(b)
		benchEchoes(b, p)
	})
	b.Run("subscribed", func(b *testing.B) {
		p := echoBenchPane(b)
		echoBenchSub(b, p, 1)
		before := p.h.echoed.Load()
		benchEchoes(b, p)
		if sent := p.h.echoed.Load() - before; sent < uint64(b.N)/2 {
			b.Fatalf("the reader wrote %d of %d echoes", sent, b.N)
		}
	})
}

// echoBenchSub subscribes a caught-up screen subscriber to p, over a
// socketpair of its own.
func echoBenchSub(tb testing.TB, p *pane, id uint32) {
	fc := echoBenchConn(tb)
	ctx, cancel := context.WithCancel(context.Background())
	tb.Cleanup(cancel)
	ss := newScreenSub(&conn{h: p.h, fc: fc, ctx: ctx, cancel: cancel}, id)
	p.mu.Lock()
	ss.last = p.term.Snapshot()
	p.mu.Unlock()
	p.addEchoSub(ss)
}

// TestTwoSubscribersEchoesShareTheRowsCells pins the row conversion of
// issue 12's echo: every echo converted its row to new frame cells for
// each subscriber (9 kB at 160 columns, a fifth of the reader's work).
// The reader now converts a row once per echo for every subscriber, and
// only the cells that changed since it converted that row last.
func TestTwoSubscribersEchoesShareTheRowsCells(t *testing.T) {
	p := echoBenchPane(t)
	echoBenchSub(t, p, 1)
	one := echoAllocs(t, p, 1)
	echoBenchSub(t, p, 2)
	two := echoAllocs(t, p, 2)
	row := uint64(160 * unsafe.Sizeof(proto.FrameCell{}))
	if two >= 2*row || two-one >= row {
		t.Fatalf("an echo allocates %d bytes to one subscriber, %d to two; the cells of the row it changed are %d", one, two, row)
	}
}

// echoAllocs is the least an echo to p allocated, in bytes, over a few
// batches of echoes: the least, since the process's other goroutines
// (a test's before) allocate meanwhile too.
func echoAllocs(t *testing.T, p *pane, subs uint64) uint64 {
	key := []byte("\ra")
	_, _ = p.Write(key)
	const batches, runs = 10, 100
	least := uint64(math.MaxUint64)
	for range batches {
		before := p.h.echoed.Load()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		for i := 0; i < runs; i++ {
			key[1] = byte('b' + i%25)
			_, _ = p.Write(key)
		}
		runtime.ReadMemStats(&m1)
		if sent := p.h.echoed.Load() - before; sent < subs*runs/2 {
			t.Fatalf("the reader wrote %d frames for %d echoes to %d subscribers", sent, runs, subs)
		}
		least = min(least, (m1.TotalAlloc-m0.TotalAlloc)/runs)
	}
	t.Logf("an echo to %d subscriber(s) allocates %d bytes", subs, least)
	return least
}

// benchEchoes writes b.N one-key echoes to p, each redrawing row 0.
func benchEchoes(b *testing.B, p *pane) {
	key := []byte("\ra")
	for i := 0; b.Loop(); i++ {
		key[1] = byte('a' + i%26)
		_, _ = p.Write(key)
	}
}

// echoBenchPane is a host pane with no process, as the TUI's panes are
// sized.
func echoBenchPane(b testing.TB) *pane {
	h, err := New(Options{Paths: persist.Paths{RuntimeDir: b.TempDir(), StateDir: b.TempDir()}, Config: persist.DefaultConfig(), IdleExit: -1})
	if err != nil {
		b.Fatal(err)
	}
	return newPane(h, persist.PaneRecord{ID: "p1", Name: "bench", Size: persist.Size{Cols: 160, Rows: 46}, Created: time.Now()})
}

// echoBenchConn is one end of a socketpair whose other end a goroutine
// reads and discards until the benchmark ends.
func echoBenchConn(b testing.TB) *proto.FdConn {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		b.Fatal(err)
	}
	ends := make([]net.Conn, 2)
	for i, fd := range fds {
		f := os.NewFile(uintptr(fd), "echo-bench")
		ends[i], err = net.FileConn(f)
		_ = f.Close()
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = ends[i].Close() })
	}
	go func() { _, _ = io.Copy(io.Discard, ends[1]) }()
	return proto.NewFdConn(ends[0].(*net.UnixConn))
}
