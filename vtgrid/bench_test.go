package vtgrid

import (
	"fmt"
	"math/rand"
	"testing"
)

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

func BenchmarkWriteMixed(b *testing.B) {
	data := mixedStream(8<<20, 1)
	t := New(200, 50, Options{})
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for off := 0; off < len(data); off += 4096 {
			t.Write(data[off:min(off+4096, len(data))])
		}
	}
}

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
	for i := 0; i < b.N; i++ {
		t.Write(data)
	}
}
