package vtgrid

import (
	"fmt"
	"math/rand"
	"syscall"
	"testing"
	"time"
)

// processCPU is this process's user plus system CPU time (0 where getrusage
// fails).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuTimer reports MB/CPU-s next to MB/s: on a shared machine wall clock
// figures swing with the load, CPU time much less.
func cpuTimer(b *testing.B, bytes int) func() {
	b.Helper()
	start := processCPU()
	return func() {
		if cpu := processCPU() - start; cpu > 0 {
			b.ReportMetric(float64(bytes)*float64(b.N)/1e6/cpu.Seconds(), "MB/CPU-s")
		}
	}
}

// mixedStream makes n bytes of agent-like output: text lines, SGR colours,
// cursor moves and erases, some UTF-8.
func mixedStream(n int, seed int64) []byte {
	r := rand.New(rand.NewSource(seed))
	words := []string{"func", "return", "error", "the", "agent", "clowder", "世界", "héllo", "→", "if", "err", "nil"}
	var b []byte
	for len(b) < n {
		switch r.Intn(10) {
		case 0:
			b = fmt.Appendf(b, "\x1b[%d;%dH", r.Intn(50)+1, r.Intn(200)+1)
		case 1:
			b = fmt.Appendf(b, "\x1b[38;5;%dm", r.Intn(256))
		case 2:
			b = fmt.Appendf(b, "\x1b[38;2;%d;%d;%dm", r.Intn(256), r.Intn(256), r.Intn(256))
		case 3:
			b = append(b, "\x1b[0m\x1b[K"...)
		default:
			for i := r.Intn(12); i >= 0; i-- {
				b = append(b, words[r.Intn(len(words))]...)
				b = append(b, ' ')
			}
			b = append(b, "\r\n"...)
		}
	}
	return b[:n]
}

func BenchmarkWriteMixed(b *testing.B) { benchStream(b, mixedStream(8<<20, 1)) }

func BenchmarkWritePlainLines(b *testing.B) {
	line := make([]byte, 0, 202)
	for i := 0; i < 200; i++ {
		line = append(line, byte('a'+i%26))
	}
	line = append(line, '\r', '\n')
	data := make([]byte, 0, 4<<20)
	for len(data)+len(line) < 4<<20 {
		data = append(data, line...)
	}
	t := New(200, 50, Options{})
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	defer cpuTimer(b, len(data))()
	for i := 0; i < b.N; i++ {
		t.Write(data)
	}
}

// plainLines makes n bytes of plain ASCII lines of varied length, as builds
// and agents print them: some blank, most shorter than the screen, some
// wrapping (the shape of bench/streamgen.PlainText).
func plainLines(n int, seed int64) []byte {
	r := rand.New(rand.NewSource(seed))
	words := []string{"func", "return", "err", "nil", "the", "build", "main.go", "passed", "ok", "src/parser/state.rs", "--save-dev", "42"}
	b := make([]byte, 0, n+512)
	for len(b) < n {
		var want int
		switch k := r.Intn(100); {
		case k < 8:
		case k < 40:
			want = 1 + r.Intn(40)
		case k < 85:
			want = 41 + r.Intn(80)
		default:
			want = 121 + r.Intn(280)
		}
		for start := len(b); len(b)-start < want; {
			b = append(b, words[r.Intn(len(words))]...)
			b = append(b, ' ')
		}
		b = append(b, '\r', '\n')
	}
	return b[:n]
}

// BenchmarkWritePlainVaried is plain text lines of varied length in 4 KiB
// writes (a PTY read), into a 10,000-line scrollback: the flood builds and
// agents cause, where scrolling into the scrollback costs as much as
// printing.

func BenchmarkWritePlainVaried(b *testing.B) { benchStream(b, plainLines(8<<20, 1)) }

// benchStream feeds data in 4 KiB writes (a PTY read) to a 200x50
// terminal, reporting MB/CPU-s.
func benchStream(b *testing.B, data []byte) {
	t := New(200, 50, Options{})
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	defer cpuTimer(b, len(data))()
	for i := 0; i < b.N; i++ {
		for off := 0; off < len(data); off += 4096 {
			t.Write(data[off:min(off+4096, len(data))])
		}
	}
}

// BenchmarkWriteSGRHeavy is lines where every word has its own colour
// (16, 256 and truecolor), as syntax-highlighted diffs and test runners
// print them.
func BenchmarkWriteSGRHeavy(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	words := []string{"func", "return", "err", "nil", "the", "build", "main.go", "passed", "ok"}
	var data []byte
	for len(data) < 8<<20 {
		for i := r.Intn(20); i >= 0; i-- {
			switch r.Intn(3) {
			case 0:
				data = fmt.Appendf(data, "\x1b[%dm", 31+r.Intn(7))
			case 1:
				data = fmt.Appendf(data, "\x1b[1;38;5;%dm", r.Intn(256))
			default:
				data = fmt.Appendf(data, "\x1b[38;2;%d;%d;%dm", r.Intn(256), r.Intn(256), r.Intn(256))
			}
			data = append(data, words[r.Intn(len(words))]...)
			data = append(data, "\x1b[0m "...)
		}
		data = append(data, "\r\n"...)
	}
	benchStream(b, data)
}

// BenchmarkWriteWide is lines of CJK and emoji (wide characters, a ZWJ
// sequence) mixed with ASCII.
func BenchmarkWriteWide(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	words := []string{"漢字", "テスト", "한국어", "😀", "👍🏽", "👨‍👩‍👧", "ok", "done", "é"}
	var data []byte
	for len(data) < 8<<20 {
		for i := r.Intn(30); i >= 0; i-- {
			data = append(data, words[r.Intn(len(words))]...)
			data = append(data, ' ')
		}
		data = append(data, "\r\n"...)
	}
	benchStream(b, data)
}

// BenchmarkWriteRedraw is full-screen repaints on the alternate screen:
// every row addressed with CUP, styled spans, erase to end of line, as a
// TUI redraws.
func BenchmarkWriteRedraw(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	data := []byte("\x1b[?1049h")
	for len(data) < 8<<20 {
		for y := 1; y <= 50; y++ {
			data = fmt.Appendf(data, "\x1b[%d;1H\x1b[%dm", y, 40+r.Intn(8))
			for x := r.Intn(190); x > 0; x-- {
				data = append(data, byte('a'+r.Intn(26)))
			}
			data = append(data, "\x1b[0m\x1b[K"...)
		}
	}
	benchStream(b, data)
}
