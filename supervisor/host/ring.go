package host

// This file is the raw output ring of a pane: the newest bytes the program
// wrote, addressed by absolute sequence numbers (the count of bytes written
// before them), so a client can resume "from seq S" after a disconnect and
// learn exactly what it missed.

import "sync"

// Ring is a bounded byte ring with absolute sequence numbers. It is safe for
// one writer and any number of concurrent readers.
type Ring struct {
	mu  sync.Mutex
	buf []byte
	end uint64 // sequence number of the next byte written
}

// NewRing returns a ring holding the newest size bytes (at least 1).
func NewRing(size int) *Ring {
	return &Ring{buf: make([]byte, max(size, 1))}
}

// Write appends p, dropping the oldest bytes when full. It never fails.
func (r *Ring) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(p)
	size := uint64(len(r.buf))
	if uint64(n) > size { // only the tail of p survives
		r.end += uint64(n) - size
		p = p[uint64(n)-size:]
	}
	for len(p) > 0 {
		off := r.end % size
		c := copy(r.buf[off:], p)
		p = p[c:]
		r.end += uint64(c)
	}
	return n, nil
}

// Bounds returns the oldest sequence number held and the next one to be
// written.
func (r *Ring) Bounds() (start, end uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.start(), r.end
}

func (r *Ring) start() uint64 {
	if size := uint64(len(r.buf)); r.end > size {
		return r.end - size
	}
	return 0
}

// ReadAt copies bytes starting at sequence seq into p. It returns the number
// copied, the sequence number they start at (later than seq when seq fell
// out of the ring: the caller reports that gap), and the sequence number to
// ask for next.
func (r *Ring) ReadAt(p []byte, seq uint64) (n int, from, next uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	from = max(seq, r.start())
	if from >= r.end {
		return 0, r.end, r.end
	}
	size := uint64(len(r.buf))
	avail := r.end - from
	want := min(uint64(len(p)), avail)
	for uint64(n) < want {
		off := (from + uint64(n)) % size
		c := copy(p[n:want], r.buf[off:])
		n += c
	}
	return n, from, from + uint64(n)
}
