package host

// This file is the raw output ring of a pane: the newest bytes the program
// wrote, addressed by absolute sequence numbers (the count of bytes written
// before them), so a client can resume "from seq S" after a disconnect and
// learn exactly what it missed.
//
// The buffer grows with the output, doubling from ringMinChunk up to the
// ring's limit (ring_bytes), so an idle shell holds a few KiB and not the
// whole limit (issue 12's memory goal).

import "sync"

// ringMinChunk is the first allocation of a ring's buffer.
const ringMinChunk = 4 << 10

// Ring is a bounded byte ring with absolute sequence numbers. It is safe for
// one writer and any number of concurrent readers.
type Ring struct {
	mu    sync.Mutex
	buf   []byte // byte seq is at buf[seq%len(buf)]; grows up to limit
	limit int    // the most bytes the ring holds
	start uint64 // sequence number of the oldest byte held
	end   uint64 // sequence number of the next byte written
}

// NewRing returns a ring holding the newest size bytes (at least 1). It
// allocates nothing until the first write.
func NewRing(size int) *Ring {
	return &Ring{limit: max(size, 1)}
}

// Write appends p, dropping the oldest bytes when full. It never fails.
func (r *Ring) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(p)
	r.reserveLocked(uint64(n))
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
	r.start = max(r.start, r.end-min(r.end, size))
	return n, nil
}

// reserveLocked grows the buffer, if it is below the limit, so that it can
// hold what it holds plus n more bytes.
func (r *Ring) reserveLocked(n uint64) {
	need := min(r.end-r.start+n, uint64(r.limit))
	if need <= uint64(len(r.buf)) {
		return
	}
	r.relayoutLocked(min(max(int(need), 2*len(r.buf), ringMinChunk), r.limit))
}

// relayoutLocked moves the bytes held into a new buffer of size bytes (at
// least as many as held), each at its sequence number's place.
func (r *Ring) relayoutLocked(size int) {
	buf := make([]byte, size)
	for seq := r.start; seq < r.end; {
		off := seq % uint64(len(r.buf))
		src := r.buf[off:min(uint64(len(r.buf)), off+r.end-seq)]
		seq += uint64(copy(buf[seq%uint64(size):], src))
	}
	r.buf = buf
}

// grow raises the ring's limit to size bytes, keeping what it holds and
// its sequence numbers (a pane adopted from agents.json has a one-byte
// ring).
func (r *Ring) grow(size int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.limit = max(r.limit, size)
}

// size is the ring's limit.
func (r *Ring) size() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.limit
}

// Bounds returns the oldest sequence number held and the next one to be
// written.
func (r *Ring) Bounds() (start, end uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.start, r.end
}

// ReadAt copies bytes starting at sequence seq into p. It returns the number
// copied, the sequence number they start at (later than seq when seq fell
// out of the ring: the caller reports that gap), and the sequence number to
// ask for next.
func (r *Ring) ReadAt(p []byte, seq uint64) (n int, from, next uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	from = max(seq, r.start)
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
