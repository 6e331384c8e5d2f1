package host

// This file is the raw output ring of a pane: the newest bytes the program
// wrote, addressed by absolute sequence numbers (the count of bytes written
// before them), so a client can resume "from seq S" after a disconnect and
// learn exactly what it missed.
//
// Byte seq lives at offset seq % limit of the ring, stored in chunks of
// ringChunk bytes allocated as the output first reaches them, so an idle
// shell holds a few hundred bytes and not the whole limit (issue 12's memory goal).
// The first chunk starts at ringMinChunk and doubles while the output first
// fills it; the others are allocated whole. A byte never moves once written (the ring used to double
// one buffer up to the limit, copying what it held at each step).
//
// Once output has paused, the host packs the ring (pack): every full chunk
// the writer is not in is deflated, since what programs print compresses
// three to five times. A read unpacks a packed chunk into a cache of one
// chunk, kept until a read reaches the end (a `log` of an idle pane held
// it for good). The writer, on coming round to a packed chunk, drops it
// whole instead of unpacking what it is about to overwrite: a ring that
// has wrapped holds the newest limit bytes less at most one chunk.

import (
	"bytes"
	"compress/flate"
	"io"
	"sync"
)

// ringMinChunk is the first allocation of a ring's storage: an idle
// shell's prompt fits (4 KiB was a sixth of an idle pane's heap), and
// doubling to a full chunk copies less than a chunk once.
const ringMinChunk = 256

// ringChunk is the size of a full chunk.
const ringChunk = 64 << 10

// Ring is a bounded byte ring with absolute sequence numbers. It is safe for
// one writer and any number of concurrent readers.
type Ring struct {
	mu     sync.Mutex
	chunks []ringPart // chunk k holds offsets [k*ringChunk, ...)
	cache  []byte     // the packed chunk cacheK, unpacked for reads; nil for none
	cacheK int
	limit  int    // the most bytes the ring holds
	start  uint64 // sequence number of the oldest byte held
	end    uint64 // sequence number of the next byte written
}

// ringPart is one chunk's storage: its bytes, or the same deflated.
type ringPart struct {
	raw    []byte // shorter than the chunk only while first filled; nil while packed
	packed []byte // raw deflated (pack), or nil
	stays  bool   // raw deflated to little (binary output): pack leaves it until it is written again
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
	if n > r.limit { // only the tail of p survives
		r.end += uint64(n - r.limit)
		p = p[n-r.limit:]
	}
	r.putLocked(r.end, p)
	r.end += uint64(len(p))
	r.start = max(r.start, r.end-min(r.end, uint64(r.limit)))
	return n, nil
}

// putLocked stores p (at most limit bytes) at sequence seq onwards.
func (r *Ring) putLocked(seq uint64, p []byte) {
	for len(p) > 0 {
		off := int(seq % uint64(r.limit))
		n := min(len(p), r.limit-off, ringChunk-off%ringChunk)
		copy(r.storeLocked(seq, n), p[:n])
		p, seq = p[n:], seq+uint64(n)
	}
}

// storeLocked returns the n bytes of storage for sequence seq onwards
// (within one chunk), allocating or growing the chunk as needed.
func (r *Ring) storeLocked(seq uint64, n int) []byte {
	off := int(seq % uint64(r.limit))
	k, at := off/ringChunk, off%ringChunk
	for len(r.chunks) <= k {
		r.chunks = append(r.chunks, ringPart{})
	}
	part := &r.chunks[k]
	part.stays = false
	if part.packed != nil {
		// Come round to a packed chunk: drop its old bytes whole.
		if old := seq - uint64(at); old >= uint64(r.limit) {
			r.start = max(r.start, old-uint64(r.limit)+uint64(r.chunkSize(k)))
		}
		part.packed = nil // a read of it uses raw now; pack forgets the cache when it packs it again
	}
	c := part.raw
	if at+n > len(c) {
		full := r.chunkSize(k)
		size := full // output that got past the first chunk is a flood
		if k == 0 {
			size = min(max(at+n, 2*len(c), ringMinChunk), full)
		}
		grown := make([]byte, size)
		copy(grown, c)
		part.raw, c = grown, grown
	}
	return c[at : at+n]
}

// chunkSize is the size of chunk k once full: the last chunk may be short.
func (r *Ring) chunkSize(k int) int { return min(ringChunk, r.limit-k*ringChunk) }

// loadLocked returns the bytes held from offset off up to the end of its
// chunk or n bytes, whichever is fewer.
func (r *Ring) loadLocked(off, n int) []byte {
	k, at := off/ringChunk, off%ringChunk
	c := r.chunks[k].raw
	if c == nil {
		c = r.unpackedLocked(k)
	}
	return c[at:min(len(c), at+n)]
}

// unpackedLocked returns packed chunk k inflated, from the cache.
func (r *Ring) unpackedLocked(k int) []byte {
	if r.cache == nil || r.cacheK != k {
		if r.cache == nil {
			r.cache = make([]byte, ringChunk)
		}
		c := r.cache[:r.chunkSize(k)]
		if n, err := io.ReadFull(flate.NewReader(bytes.NewReader(r.chunks[k].packed)), c); err != nil {
			clear(c[n:]) // pack deflated it in memory: never, but a read must not spin or panic
		}
		r.cache, r.cacheK = c, k
	}
	return r.cache
}

// packer deflates ring chunks, with one compressor (about a megabyte of
// state) for every ring of a release.
type packer struct {
	buf      bytes.Buffer
	z        *flate.Writer
	deflated int // chunks deflated, for tests
}

// deflate returns c deflated, in the packer's buffer.
func (pk *packer) deflate(c []byte) []byte {
	pk.deflated++
	pk.buf.Reset()
	if pk.z == nil {
		pk.z, _ = flate.NewWriter(&pk.buf, flate.BestSpeed) // BestSpeed is a valid level
	} else {
		pk.z.Reset(&pk.buf)
	}
	_, _ = pk.z.Write(c) // a bytes.Buffer does not fail
	_ = pk.z.Close()
	return pk.buf.Bytes()
}

// pack deflates every full chunk the writer is not in, one chunk per hold
// of the lock (about half a millisecond of it each), keeping a chunk as it
// is where deflating saves less than an eighth. It drops the read cache.
func (r *Ring) pack(pk *packer) {
	for k := 0; ; k++ {
		r.mu.Lock()
		if k >= len(r.chunks) {
			r.cache = nil
			r.mu.Unlock()
			return
		}
		part := &r.chunks[k]
		writing := int(r.end%uint64(r.limit)) / ringChunk
		if c := part.raw; len(c) == r.chunkSize(k) && k != writing && !part.stays {
			if z := pk.deflate(c); len(z) < len(c)-len(c)/8 {
				part.packed, part.raw = bytes.Clone(z), nil
				if r.cacheK == k {
					r.cache = nil // it held what this chunk held before it was written again
				}
			} else {
				part.stays = true
			}
		}
		r.mu.Unlock()
	}
}

// grow raises the ring's limit to size bytes, keeping what it holds and
// its sequence numbers (a pane adopted from agents.json has a one-byte
// ring).
func (r *Ring) grow(size int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if size <= r.limit {
		return
	}
	held := make([]byte, r.end-r.start)
	n := r.readLocked(held, r.start)
	r.chunks, r.cache, r.limit = nil, nil, size // every byte's offset changes with the limit
	r.putLocked(r.start, held[:n])
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
	n = r.readLocked(p, from)
	if from+uint64(n) == r.end {
		r.cache = nil // caught up: what it reads next is the newest chunk, never packed
	}
	return n, from, from + uint64(n)
}

// readLocked copies the bytes held from seq (at least start) into p and
// returns how many.
func (r *Ring) readLocked(p []byte, seq uint64) int {
	want := int(min(uint64(len(p)), r.end-seq))
	n := 0
	for n < want {
		off := int((seq + uint64(n)) % uint64(r.limit))
		n += copy(p[n:want], r.loadLocked(off, min(want-n, r.limit-off)))
	}
	return n
}
