package host

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"clowder/persist"
	"clowder/supervisor/proto"
)

// benchPane is a host pane without a process whose scrollback holds lines
// rows of coloured text, as `capture --scrollback` sees an agent's history.
func benchPane(b *testing.B, lines int) *pane {
	b.Helper()
	cfg := persist.DefaultConfig()
	cfg.Host.ScrollbackLines = lines
	h, err := New(Options{Paths: persist.Paths{RuntimeDir: b.TempDir(), StateDir: b.TempDir()}, Config: cfg, IdleExit: -1})
	if err != nil {
		b.Fatal(err)
	}
	p := newPane(h, persist.PaneRecord{ID: "p1", Name: "bench", Size: persist.Size{Cols: 120, Rows: 40}, Created: time.Now()})
	var out strings.Builder
	for i := range lines + 40 {
		fmt.Fprintf(&out, "\x1b[3%dmline %6d\x1b[0m of the history, with some text to fill the row a little %s\r\n", i%8, i, strings.Repeat("x", i%40))
	}
	_, _ = p.Write([]byte(out.String()))
	p.Flush() // parsed on the parse goroutine: wait for the last byte
	return p
}

// BenchmarkCaptureScrollback10k is `capture --scrollback 10000` in the
// host: the whole request, and the part that holds the pane lock.
func BenchmarkCaptureScrollback10k(b *testing.B) {
	p := benchPane(b, 10000)
	b.Run("capture", func(b *testing.B) {
		for b.Loop() {
			r := p.capture(&proto.CaptureReq{Pane: p.id, Scrollback: 10000})
			if len(r.Text) < 10000*20 {
				b.Fatalf("captured %d bytes", len(r.Text))
			}
		}
	})
	b.Run("ansi", func(b *testing.B) {
		for b.Loop() {
			p.capture(&proto.CaptureReq{Pane: p.id, Scrollback: 10000, ANSI: true})
		}
	})
	b.Run("under-lock", func(b *testing.B) {
		for b.Loop() {
			p.mu.Lock()
			p.term.SnapshotScrollback(10000)
			p.mu.Unlock()
		}
	})
}
