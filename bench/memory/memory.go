package memory

import (
	"fmt"
	"runtime"

	"clowder/bench/adapter"
)

// Config is one memory experiment.
type Config struct {
	Terminals  int // how many emulators live at once
	Cols, Rows int // size of each
	Lines      int // lines that scroll off the top of each (and the scrollback limit)
}

// Default is the experiment of the benchmark report: 10 terminals at 200x50,
// each with 10,000 lines of 200 columns in its scrollback.
var Default = Config{Terminals: 10, Cols: 200, Rows: 50, Lines: 10_000}

// Result is the live heap the terminals of one emulator hold.
type Result struct {
	Config
	Fresh        uint64 // live heap per terminal before any input
	PerTerminal  uint64 // live heap per terminal after the input
	TextPerLine  int    // text bytes in each line (Cols, all ASCII)
	KeepsHistory bool   // false when the emulator drops scrolled lines
}

// PerLine is the live heap per terminal divided by the lines in its
// scrollback: everything the terminal holds, screen included, billed to the
// history. It is 0 for an emulator that keeps no history.
func (r Result) PerLine() float64 {
	if !r.KeepsHistory {
		return 0
	}
	return float64(r.PerTerminal) / float64(r.Lines)
}

// GrowthPerLine is what each scrollback line added over a fresh terminal:
// the marginal cost of history, without the screens and fixed buffers. It
// is 0 for an emulator that keeps no history.
func (r Result) GrowthPerLine() float64 {
	if !r.KeepsHistory || r.PerTerminal < r.Fresh {
		return 0
	}
	return float64(r.PerTerminal-r.Fresh) / float64(r.Lines)
}

// TextRatio is PerLine over the text bytes of a line (2.5 means the history
// costs two and a half times its text).
func (r Result) TextRatio() float64 { return r.PerLine() / float64(r.TextPerLine) }

// Measure builds c.Terminals terminals of e and feeds each the same lines,
// then reads the live heap after a full collection, keeping the terminals
// alive until then.
func Measure(e adapter.Emulator, c Config) (Result, error) {
	input := Lines(c.Cols, c.Lines+c.Rows)
	base := liveHeap()
	terms := make([]adapter.Terminal, c.Terminals)
	for i := range terms {
		terms[i] = e.New(c.Cols, c.Rows, c.Lines)
	}
	fresh := liveHeap()
	for _, t := range terms {
		if err := adapter.Feed(t, input, 4096); err != nil {
			return Result{}, fmt.Errorf("memory with %s: %w", e.Name, err)
		}
	}
	fed := liveHeap()
	runtime.KeepAlive(terms)
	runtime.KeepAlive(input)
	for _, t := range terms {
		_ = t.Close() // best effort: only ends the drain goroutine of x/vt
	}
	n := uint64(c.Terminals)
	return Result{
		Config:       c,
		Fresh:        sub(fresh, base) / n,
		PerTerminal:  sub(fed, base) / n,
		TextPerLine:  c.Cols,
		KeepsHistory: e.Scrollback,
	}, nil
}

// liveHeap returns the bytes of live heap objects after a full collection.
// Two collections, so objects freed by finalizers of the first are gone too.
func liveHeap() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func sub(a, b uint64) uint64 {
	if a < b {
		return 0
	}
	return a - b
}

// Lines returns n lines of cols printable ASCII characters, each ended by CR
// LF and each different, so no emulator can share storage between them.
func Lines(cols, n int) []byte {
	b := make([]byte, 0, n*(cols+2))
	for i := 0; i < n; i++ {
		for j := 0; j < cols; j++ {
			b = append(b, byte('!'+(i*7+j*13+j/5)%94))
		}
		b = append(b, '\r', '\n')
	}
	return b
}
