//go:build linux

package host

import (
	"context"
	"io"
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
	echoBenchSub(t, p, 2)
	key := []byte("\ra")
	_, _ = p.Write(key)
	const runs = 100
	before := p.h.echoed.Load()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for i := 0; i < runs; i++ {
		key[1] = byte('b' + i%25)
		_, _ = p.Write(key)
	}
	runtime.ReadMemStats(&m1)
	if sent := p.h.echoed.Load() - before; sent < runs { // both, at least half the time
		t.Fatalf("the reader wrote %d frames for %d echoes to two subscribers", sent, runs)
	}
	row := uint64(160 * unsafe.Sizeof(proto.FrameCell{}))
	if per := (m1.TotalAlloc - m0.TotalAlloc) / runs; per >= row {
		t.Fatalf("an echo to two subscribers allocates %d bytes; one row of frame cells is %d", per, row)
	}
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
