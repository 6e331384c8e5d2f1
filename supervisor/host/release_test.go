package host

import (
	"bytes"
	"fmt"
	"testing"
	"time"
)

// TestMemoryIsReleasedOnceAFloodEnds: releaseAfter bytes of output arm
// one release, which waits until the output has stopped for the quiet
// time; less output arms nothing (an idle host never wakes for it), and
// after a release the count starts again.
func TestMemoryIsReleasedOnceAFloodEnds(t *testing.T) {
	freed := make(chan time.Time, 4)
	m := &memRelease{free: func() { freed <- time.Now() }, quiet: 50 * time.Millisecond}
	start := time.Now()
	m.parsed(releaseAfter-1, start)
	if m.armed.Load() || m.timers.Load() != 0 {
		t.Fatal("output under releaseAfter armed a release")
	}
	// The chunk that arms the release is stamped later than the timer's
	// first firing (start+quiet), as a flood going on would leave the last
	// output's time (no sleep: the stamp is what the timer reads).
	last := start.Add(3 * m.quiet)
	m.parsed(1, last)
	at := <-freed
	if quiet := at.Sub(last); quiet < m.quiet {
		t.Fatalf("released %v after the last output; want at least %v", quiet, m.quiet)
	}
	if n := m.timers.Load(); n < 2 {
		t.Fatalf("%d timers: the first firing, before the output was quiet, did not wait again", n)
	}
	if m.since.Load() != 0 || m.armed.Load() {
		t.Fatal("a release left the count or the timer set")
	}
	m.parsed(releaseAfter-1, time.Now())
	if m.armed.Load() || m.frees.Load() != 1 {
		t.Fatalf("after a release, output under releaseAfter armed one (releases %d)", m.frees.Load())
	}
}

// A host that releases nothing (free nil) counts nothing either.
func TestNoReleaseWithoutAFreeFunction(t *testing.T) {
	var m memRelease
	m.parsed(10*releaseAfter, time.Now())
	if m.armed.Load() || m.timers.Load() != 0 {
		t.Fatal("a memRelease without free armed a timer")
	}
}

// TestAReleasePacksTheRings: a release after a flood packs the pane's
// ring, and the raw output reads back whole from the packed ring.
func TestAReleasePacksTheRings(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.floodedPane(c, 5000) // about 200 KB: three full chunks
	_, end := p.ring.Bounds()
	before := make([]byte, end)
	if n, from, _ := p.ring.ReadAt(before, 0); from != 0 || uint64(n) != end {
		t.Fatalf("read %d bytes from %d; want all %d", n, from, end)
	}
	th.host.releaseMemory()
	if p.ring.packedBytes() == 0 {
		t.Fatalf("a release after %d bytes of output packed nothing", end)
	}
	after := make([]byte, end)
	if n, _, _ := p.ring.ReadAt(after, 0); uint64(n) != end || !bytes.Equal(after, before) {
		t.Fatalf("the packed ring read back %d bytes, not the %d it held", n, end)
	}
	for i := 0; i < 5000; i += 999 {
		if !bytes.Contains(after, fmt.Appendf(nil, "flood line %d of", i)) {
			t.Fatalf("line %d is not in the ring", i)
		}
	}
}
