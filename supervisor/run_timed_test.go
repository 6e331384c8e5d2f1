package supervisor

import (
	"strings"
	"sync"
	"testing"
	"time"

	"clowder/persist"
	"clowder/supervisor/internal/testproc"
)

// timedSink is a TimedOutput that records the time of every chunk.
type timedSink struct {
	*testproc.SyncBuffer
	mu    sync.Mutex
	times []time.Time
	plain int // chunks that came through Write, without their time
}

func (s *timedSink) WriteAt(b []byte, now time.Time) {
	s.mu.Lock()
	s.times = append(s.times, now)
	s.mu.Unlock()
	_, _ = s.SyncBuffer.Write(b)
}

func (s *timedSink) Write(b []byte) (int, error) {
	s.mu.Lock()
	s.plain++
	s.mu.Unlock()
	return s.SyncBuffer.Write(b)
}

// TestATimedOutputGetsTheReadersClockReading (issue 12): the reader reads
// the clock once per chunk, for the watchdog's stamp, and hands that same
// reading to an output that takes it (the host's pane), which used to
// read the clock again for its own stamp, the attention timer and the
// echo's pacing.
func TestATimedOutputGetsTheReadersClockReading(t *testing.T) {
	o := newOracle(t)
	sink := &timedSink{SyncBuffer: testproc.NewSyncBuffer()}
	spec := fakeSpec(o, nil, "exit", "FAKE_BYTES=100000")
	spec.PTY.Output = sink
	r := start(t, NewSpawner(Options{CgroupMode: persist.CgroupAuto}), spec)
	waitExit(t, r)
	sink.mu.Lock()
	defer sink.mu.Unlock()
	if sink.plain > 0 || len(sink.times) == 0 || !strings.Contains(sink.String(), "END") {
		t.Fatalf("%d chunks with their time, %d without (want all with); END seen: %v", len(sink.times), sink.plain, strings.Contains(sink.String(), "END"))
	}
	if last := sink.times[len(sink.times)-1]; last.UnixNano() != r.lastOutput.Load() {
		t.Fatalf("the last chunk came with %v, the watchdog's stamp is %v: two clock readings", last, time.Unix(0, r.lastOutput.Load()))
	}
}
