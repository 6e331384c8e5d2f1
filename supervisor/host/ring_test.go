package host

import (
	"bytes"
	"testing"
)

func TestRingReadsBackWhatFits(t *testing.T) {
	r := NewRing(8)
	r.Write([]byte("abcdef"))
	buf := make([]byte, 16)
	n, from, next := r.ReadAt(buf, 2)
	if got := string(buf[:n]); got != "cdef" || from != 2 || next != 6 {
		t.Fatalf("got %q from %d next %d", got, from, next)
	}
}

func TestRingWrapsAndReportsGap(t *testing.T) {
	r := NewRing(8)
	r.Write([]byte("0123456789")) // larger than the ring in one write
	r.Write([]byte("ab"))
	if start, end := r.Bounds(); start != 4 || end != 12 {
		t.Fatalf("bounds %d-%d want 4-12", start, end)
	}
	buf := make([]byte, 16)
	n, from, next := r.ReadAt(buf, 0)
	if got := string(buf[:n]); got != "456789ab" || from != 4 || next != 12 {
		t.Fatalf("got %q from %d next %d", got, from, next)
	}
}

func TestRingSmallReadsAcrossTheSeam(t *testing.T) {
	r := NewRing(5)
	var want []byte
	for i := 0; i < 23; i++ {
		b := []byte{byte('a' + i)}
		r.Write(b)
		want = append(want, b...)
	}
	var got []byte
	seq := uint64(18)
	buf := make([]byte, 2)
	for {
		n, _, next := r.ReadAt(buf, seq)
		if n == 0 {
			break
		}
		got = append(got, buf[:n]...)
		seq = next
	}
	if !bytes.Equal(got, want[18:]) {
		t.Fatalf("got %q want %q", got, want[18:])
	}
}

func TestRingReadAtEndIsEmpty(t *testing.T) {
	r := NewRing(4)
	r.Write([]byte("xy"))
	if n, from, next := r.ReadAt(make([]byte, 4), 2); n != 0 || from != 2 || next != 2 {
		t.Fatalf("n %d from %d next %d", n, from, next)
	}
}
