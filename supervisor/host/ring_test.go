package host

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"

	"clowder/supervisor/internal/testproc"
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
	if got, _ := readFrom(r, 18, 2); !bytes.Equal(got, want[18:]) {
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

// TestFreshRingHoldsLittleBackingStorage pins issue 12's memory goal: a
// pane's ring of ring_bytes (8 MiB by default) used to be allocated whole
// at spawn; it now starts small and grows with the output it holds.
func TestFreshRingHoldsLittleBackingStorage(t *testing.T) {
	r := NewRing(8 << 20)
	if c := r.held(); c > ringMinChunk {
		t.Fatalf("fresh ring holds %d bytes; want at most %d", c, ringMinChunk)
	}
	r.Write(bytes.Repeat([]byte("$ "), 50)) // a shell prompt or two
	if c := r.held(); c > ringMinChunk {
		t.Fatalf("ring after 100 bytes holds %d bytes; want at most %d", c, ringMinChunk)
	}
	if r.size() != 8<<20 {
		t.Fatalf("ring size %d; want its limit %d", r.size(), 8<<20)
	}
}

// TestAShellPromptCostsTheRingLittle: a ring's first allocation was 4
// KiB, a sixth of an idle shell pane's heap for a prompt of a few bytes
// (issue 12). It now starts at a few hundred bytes and doubles.
func TestAShellPromptCostsTheRingLittle(t *testing.T) {
	r := NewRing(8 << 20)
	r.Write([]byte("scale> "))
	if c := r.held(); c > 512 {
		t.Fatalf("ring after a 7-byte prompt holds %d bytes; want at most 512", c)
	}
}

// TestGrowingRingKeepsEveryByteAndSeq proves growth in steps loses no byte
// and moves no sequence number: after each write of varied size, the ring
// holds exactly the newest min(limit, written) bytes, at their seqs.
func TestGrowingRingKeepsEveryByteAndSeq(t *testing.T) {
	const limit = 3*ringMinChunk + 17 // not a power of two: the last step is capped
	r := NewRing(limit)
	var all []byte
	x := uint32(1)
	for i := 0; i < 400; i++ {
		x = x*1664525 + 1013904223
		chunk := make([]byte, int(x>>20)%700)
		for j := range chunk {
			chunk[j] = byte(len(all) + j)
		}
		r.Write(chunk)
		all = append(all, chunk...)
		wantStart := uint64(max(len(all)-limit, 0))
		start, end := r.Bounds()
		if start != wantStart || end != uint64(len(all)) {
			t.Fatalf("write %d: bounds %d..%d; want %d..%d", i, start, end, wantStart, len(all))
		}
		got := make([]byte, limit+1)
		n, from, next := r.ReadAt(got, 0)
		if from != wantStart || next != end || !bytes.Equal(got[:n], all[wantStart:]) {
			t.Fatalf("write %d: read %d bytes from %d next %d; want the %d newest from %d", i, n, from, next, len(all)-int(wantStart), wantStart)
		}
	}
	if h := r.held(); h != limit {
		t.Fatalf("full ring holds %d bytes; want its limit %d", h, limit)
	}
}

// TestRingGrownAfterWrappingKeepsItsBytes proves a full, wrapped ring whose
// limit is raised (an adopted pane's one-byte ring, respawned) moves what
// it holds to the bigger buffer at the same seqs.
func TestRingGrownAfterWrappingKeepsItsBytes(t *testing.T) {
	r := NewRing(8)
	r.Write([]byte("0123456789abc")) // holds 56789abc, wrapped
	r.grow(ringMinChunk * 3)
	r.Write([]byte("defg"))
	got := make([]byte, 32)
	n, from, next := r.ReadAt(got, 0)
	if string(got[:n]) != "56789abcdefg" || from != 5 || next != 17 {
		t.Fatalf("read %q from %d next %d; want \"56789abcdefg\" from 5 next 17", got[:n], from, next)
	}
}

// TestFilledRingAllocatesItsLimitOnce (issue 12, the flood's profile): a
// ring filled by a flood allocates about its limit, once; it used to double
// one buffer up to the limit, allocating twice the limit and copying what it
// held at each step.
func TestFilledRingAllocatesItsLimitOnce(t *testing.T) {
	const limit = 1 << 20
	r := NewRing(limit)
	chunk := bytes.Repeat([]byte("x"), 4096)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 2 * limit / len(chunk) {
		r.Write(chunk)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > limit*11/10 {
		t.Fatalf("filling a %d-byte ring twice allocated %d bytes; want at most 1.1x its limit", limit, got)
	}
}

// TestRingAcrossChunksKeepsEveryByteAndSeq is TestGrowingRingKeepsEveryByteAndSeq
// for a ring of several chunks whose limit is not a multiple of a chunk,
// read back in pieces that cross the chunks' seams.
func TestRingAcrossChunksKeepsEveryByteAndSeq(t *testing.T) {
	const limit = 2*ringChunk + 1001
	r := NewRing(limit)
	var all []byte
	x := uint32(7)
	for i := 0; i < 300; i++ {
		x = x*1664525 + 1013904223
		chunk := make([]byte, int(x>>18)%5000)
		for j := range chunk {
			chunk[j] = byte((len(all) + j) * 7)
		}
		r.Write(chunk)
		all = append(all, chunk...)
		wantStart := uint64(max(len(all)-limit, 0))
		if got, _ := readFrom(r, 0, 3001); !bytes.Equal(got, all[wantStart:]) {
			t.Fatalf("write %d: read back %d bytes; want the %d newest, equal", i, len(got), len(all)-int(wantStart))
		}
	}
}

// readFrom reads the ring from seq to its end in reads of size bytes, and
// returns what it read and where the first read started.
func readFrom(r *Ring, seq uint64, size int) (got []byte, from uint64) {
	buf := make([]byte, size)
	for first := true; ; first = false {
		n, at, next := r.ReadAt(buf, seq)
		if first {
			from = at
		}
		if n == 0 {
			return got, from
		}
		got, seq = append(got, buf[:n]...), next
	}
}

// storage is what the ring has allocated for its chunks as they are, and
// for its packed chunks, in bytes.
func (r *Ring) storage() (raw, packed int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.chunks {
		raw, packed = raw+cap(c.raw), packed+len(c.packed)
	}
	return raw, packed
}

// held is the storage of the ring's chunks as they are, in bytes.
func (r *Ring) held() int { raw, _ := r.storage(); return raw }

// packedBytes is the storage of the ring's packed chunks, in bytes.
func (r *Ring) packedBytes() int { _, packed := r.storage(); return packed }

// TestPackedRingKeepsEveryByteAndSeq: a ring packed between writes (as the
// host packs it whenever output pauses) reads back what was written, with
// its sequence numbers, across chunks and seams, before and after it wraps;
// coming round to a packed chunk drops at most that one chunk early.
func TestPackedRingKeepsEveryByteAndSeq(t *testing.T) {
	const limit = 4*ringChunk + 1001
	r := NewRing(limit)
	var all []byte
	dropped := false // a packed chunk came round and went early
	var pk packer
	for i := 0; len(all) < 3*limit; i++ {
		var line []byte
		for range i % 7 {
			line = fmt.Appendf(line, "line %d of the history, as a build prints it\r\n", len(all)+len(line))
		}
		r.Write(line)
		all = append(all, line...)
		if i%5 == 0 {
			r.pack(&pk)
		}
		start, end := r.Bounds()
		if end != uint64(len(all)) || start > uint64(max(len(all)-limit+ringChunk, 0)) || start < uint64(max(len(all)-limit, 0)) {
			t.Fatalf("write %d: bounds %d-%d; want the end %d and at most a chunk less than the newest %d bytes", i, start, end, len(all), limit)
		}
		dropped = dropped || start > uint64(max(len(all)-limit, 0))
		if i%97 != 0 {
			continue
		}
		got, from := readFrom(r, 0, 3001)
		if from != start {
			t.Fatalf("write %d: a read from 0 starts at %d; want the oldest held, %d", i, from, start)
		}
		if !bytes.Equal(got, all[start:]) {
			t.Fatalf("write %d: read back %d bytes, not the %d held", i, len(got), len(all)-int(start))
		}
	}
	if r.packedBytes() == 0 || !dropped {
		t.Fatalf("packed %d bytes, dropped a packed chunk %v; the test wants both", r.packedBytes(), dropped)
	}
}

// TestPackingShrinksARingOfText: a ring full of what a build prints holds
// a fraction of it once packed; the chunk being written stays as it is.
func TestPackingShrinksARingOfText(t *testing.T) {
	r := NewRing(8 * ringChunk)
	var text []byte
	for i := 0; len(text) < 8*ringChunk-ringChunk/2; i++ {
		text = fmt.Appendf(text, "ok  \tclowder/pkg%d\t%d.%03ds\n--- PASS: Test%d (0.%02ds)\n", i*7%93, i%9, i*37%1000, i, i%100)
	}
	r.Write(text)
	raw := r.held()
	r.pack(&packer{})
	if got := r.held() + r.packedBytes(); got > raw/3 {
		t.Fatalf("a ring of %d bytes of test output holds %d once packed (%d raw, %d packed); want at most a third", raw, got, r.held(), r.packedBytes())
	}
	if r.held() != ringChunk {
		t.Fatalf("packed, the ring still holds %d raw bytes; want only the chunk being written (%d)", r.held(), ringChunk)
	}
}

// TestPackLeavesWhatDoesNotDeflate: chunks of bytes that do not compress
// stay as they are, and the next pack does not try them again until they
// are written again.
func TestPackLeavesWhatDoesNotDeflate(t *testing.T) {
	r := NewRing(4 * ringChunk)
	noise := testproc.TestStream(3*ringChunk + 100)
	r.Write(noise)
	var pk packer
	r.pack(&pk)
	if r.packedBytes() != 0 || pk.deflated != 3 {
		t.Fatalf("noise: packed %d bytes after deflating %d chunks; want nothing packed from the 3 full chunks", r.packedBytes(), pk.deflated)
	}
	r.pack(&pk)
	if pk.deflated != 3 {
		t.Fatalf("a second pack deflated %d chunks again; want none", pk.deflated-3)
	}
	r.Write(noise) // wraps: every chunk is written again
	r.pack(&pk)
	if pk.deflated == 3 {
		t.Fatal("chunks written again were not tried again")
	}
	buf := make([]byte, 4*ringChunk)
	start, end := r.Bounds()
	if n, _, _ := r.ReadAt(buf, start); !bytes.Equal(buf[:n], append(noise, noise...)[2*len(noise)-int(end-start):]) {
		t.Fatal("the ring does not read back its newest bytes")
	}
}

// TestPackingBesideTheWriterAndReaders: as in the host, the release packs
// the ring on its own goroutine while the pane's output goes on being
// written and a `log` reads it; every read finds each byte at its sequence
// number, whatever was packed or dropped meanwhile.
func TestPackingBesideTheWriterAndReaders(t *testing.T) {
	const limit = 4*ringChunk + 1001
	var pattern []byte
	for i := 0; len(pattern) < 1000; i++ {
		pattern = fmt.Appendf(pattern, "ok  \tclowder/pkg%d\t0.%03ds\n", i, i*37%1000)
	}
	at := func(seq uint64) byte { return pattern[seq%uint64(len(pattern))] }
	r := NewRing(limit)
	written := make(chan struct{})
	go func() {
		defer close(written)
		var seq uint64
		for i := 0; seq < 3*limit; i++ {
			p := make([]byte, 1+i*7919%5000)
			for j := range p {
				p[j] = at(seq + uint64(j))
			}
			r.Write(p)
			seq += uint64(len(p))
		}
	}()
	var pk packer
	packed := make(chan struct{})
	go func() {
		defer close(packed)
		for {
			select {
			case <-written:
				return
			default:
				r.pack(&pk)
			}
		}
	}()
	buf := make([]byte, 3001)
	for reads, seq := 0, uint64(0); ; reads++ {
		// One read at a time: between two reads the writer may have gone
		// past the reader, which then resumes further on.
		n, from, next := r.ReadAt(buf, seq)
		for i, b := range buf[:n] {
			if b != at(from+uint64(i)) {
				t.Fatalf("read %d: byte %d at seq %d is %q; want %q", reads, i, from+uint64(i), b, at(from+uint64(i)))
			}
		}
		if seq = next; n == 0 {
			seq = 0 // read the whole ring again
		}
		select {
		case <-written:
		default:
			continue
		}
		break
	}
	<-packed
	if pk.deflated == 0 {
		t.Fatal("nothing was packed while the writer wrote")
	}
}

// TestAReadThatCatchesUpForgetsTheUnpackedChunk: reading a packed ring
// from its start unpacks a chunk into the read cache, which a reader
// walking the history keeps using; once a read reaches the end it is
// dropped, so an idle pane whose history someone read (`clowder log`)
// does not hold 64 KiB until its next flood.
func TestAReadThatCatchesUpForgetsTheUnpackedChunk(t *testing.T) {
	r := NewRing(4 * ringChunk)
	line := []byte("a line of the history, as a build prints it\r\n")
	for r.end < 3*ringChunk {
		r.Write(line)
	}
	r.pack(&packer{})
	if r.packedBytes() == 0 {
		t.Fatal("nothing packed; the test needs a packed chunk")
	}
	buf := make([]byte, 1000)
	if n, _, _ := r.ReadAt(buf, 0); n != len(buf) || r.cache == nil {
		t.Fatalf("a read of a packed chunk: %d bytes, cache %v; want a full read through the cache", n, r.cache != nil)
	}
	if got, _ := readFrom(r, 0, 3001); len(got) != int(r.end) {
		t.Fatalf("read back %d bytes of %d", len(got), r.end)
	}
	if r.cache != nil {
		t.Fatal("the unpacked chunk is still held after a read reached the end")
	}
}
