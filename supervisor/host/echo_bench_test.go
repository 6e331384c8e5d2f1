//go:build linux

package host

import (
	"context"
	"io"
	"net"
	"os"
	"testing"
	"time"

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
		fc := echoBenchConn(b)
		ctx, cancel := context.WithCancel(context.Background())
		b.Cleanup(cancel)
		ss := newScreenSub(&conn{h: p.h, fc: fc, ctx: ctx, cancel: cancel}, 1)
		p.mu.Lock()
		ss.last = p.term.Snapshot()
		p.mu.Unlock()
		p.addEchoSub(ss)
		before := p.h.echoed.Load()
		benchEchoes(b, p)
		if sent := p.h.echoed.Load() - before; sent < uint64(b.N)/2 {
			b.Fatalf("the reader wrote %d of %d echoes", sent, b.N)
		}
	})
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
func echoBenchPane(b *testing.B) *pane {
	h, err := New(Options{Paths: persist.Paths{RuntimeDir: b.TempDir(), StateDir: b.TempDir()}, Config: persist.DefaultConfig(), IdleExit: -1})
	if err != nil {
		b.Fatal(err)
	}
	return newPane(h, persist.PaneRecord{ID: "p1", Name: "bench", Size: persist.Size{Cols: 160, Rows: 46}, Created: time.Now()})
}

// echoBenchConn is one end of a socketpair whose other end a goroutine
// reads and discards until the benchmark ends.
func echoBenchConn(b *testing.B) *proto.FdConn {
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
