package host

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"clowder/persist"
	"clowder/supervisor/internal/testproc"
	"clowder/supervisor/proto"
	"clowder/vtgrid"
)

// fakeBurst (mode "burst"): raw mode, READY; on a line, write the first
// FAKE_BYTES bytes of testproc.TestStream in one go, then create FAKE_OUT
// and block (exit, with FAKE_EXIT set).
func fakeBurst() int {
	testproc.MakeRaw(0)
	os.Stdout.WriteString("READY\r\n")
	if _, err := os.Stdin.Read(make([]byte, 1)); err != nil {
		return 1
	}
	if _, err := os.Stdout.Write(testproc.TestStream(testproc.EnvInt("FAKE_BYTES"))); err != nil {
		return 1
	}
	if err := os.WriteFile(os.Getenv("FAKE_OUT"), nil, 0o600); err != nil {
		return 1
	}
	if os.Getenv("FAKE_EXIT") != "" {
		return 0
	}
	return testproc.Block()
}

// TestAFloodIsReadWhileTheScreenIsBusy: the pane's reader parsed each
// chunk itself, under the pane lock, so while anything held that lock (or
// the parse of the previous chunk ran) nothing was read from the PTY, whose
// kernel buffer holds about 12 KiB: a flood moved at the pace of one core
// doing both (issue 12). Now a flood's chunks queue for a parse goroutine
// and the reader goes on reading: a 64 kB burst is read whole while the
// pane lock is held, and once it is free the ring and the screen get every
// byte, in order.
func TestAFloodIsReadWhileTheScreenIsBusy(t *testing.T) {
	th := newTestHost(t)
	th.serve(persist.DefaultConfig())
	c := th.dial()
	done := filepath.Join(t.TempDir(), "written")
	const size = 64000
	p := th.spawnFake(c, "burst", "FAKE_BYTES="+itoa(size), "FAKE_OUT="+done)
	c.waitText(p.ID, "READY")
	pn := th.host.paneByID(p.ID)
	pn.mu.Lock()
	unlock := sync.OnceFunc(pn.mu.Unlock)
	defer unlock() // a failure below must not leave the host locked
	run := pn.run
	_, start := pn.ring.Bounds()
	if _, err := run.WriteInput([]byte("\r")); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the burst written while the pane lock is held", func() bool {
		_, err := os.Stat(done)
		return err == nil
	})
	unlock()
	eventually(t, "the burst in the ring", func() bool { _, end := pn.ring.Bounds(); return end == start+size })
	got := make([]byte, size)
	if n, _, _ := pn.ring.ReadAt(got, start); n != size || !bytes.Equal(got, testproc.TestStream(size)) {
		t.Fatalf("the ring holds %d bytes of the burst, or not the bytes written", n)
	}
}

// TestAScreenSubscriberRacingAFloodSeesEveryByteOnce: a raw and screen
// subscriber started in the middle of a flood gets every byte from its
// first frame's seq exactly once (contiguous chunks, no gap), and every
// screen frame's seq is output the screen has parsed (never past the
// ring's end as the subscriber later sees it).
func TestAScreenSubscriberRacingAFloodSeesEveryByteOnce(t *testing.T) {
	th := newTestHost(t)
	th.serve(persist.DefaultConfig())
	c := th.dial()
	done := filepath.Join(t.TempDir(), "written")
	const size = 400000
	p := th.spawnFake(c, "burst", "FAKE_BYTES="+itoa(size), "FAKE_OUT="+done)
	c.waitText(p.ID, "READY")
	c.call(&proto.InputReq{Pane: p.ID, Data: []byte("\r")})
	pn := th.host.paneByID(p.ID)
	eventually(t, "the flood under way", func() bool { _, end := pn.ring.Bounds(); return end > 20000 })
	sub := c.call(&proto.SubscribeReq{Pane: p.ID, Raw: true, Screen: true, FromEnd: true}).(*proto.SubscribedReply)
	want := testproc.TestStream(size)
	ready := uint64(len("READY\r\n"))
	next, frames := sub.Seq, 0
	for next < ready+size || frames == 0 { // the first frame may follow the raw chunks
		f, err := c.read(60e9)
		if err != nil {
			t.Fatalf("after %d bytes: %v", next, err)
		}
		m, err := f.Message()
		if err != nil {
			t.Fatal(err)
		}
		switch v := m.(type) {
		case *proto.OutputChunk:
			if v.Seq != next || v.Gap != 0 {
				t.Fatalf("chunk at seq %d gap %d, want seq %d and no gap", v.Seq, v.Gap, next)
			}
			if !bytes.Equal(v.Data, want[v.Seq-ready:v.Seq-ready+uint64(len(v.Data))]) {
				t.Fatalf("chunk at seq %d is not the bytes written there", v.Seq)
			}
			next += uint64(len(v.Data))
		case *proto.ScreenFrame:
			frames++
			if frames == 1 {
				checkFrameIsParsedOutput(t, v, append([]byte("READY\r\n"), want...))
			}
			if v.Seq < sub.Seq || v.Seq > ready+size {
				t.Fatalf("screen frame at seq %d, outside [%d, %d]", v.Seq, sub.Seq, ready+size)
			}
		}
	}
	if frames == 0 {
		t.Fatal("no screen frame during the flood")
	}
}

// checkFrameIsParsedOutput checks that a full frame shows exactly the
// output before its seq: what a fresh screen of its size shows after
// parsing out[:seq].
func checkFrameIsParsedOutput(t *testing.T, f *proto.ScreenFrame, out []byte) {
	t.Helper()
	if !f.Full {
		t.Fatal("the first frame is not full")
	}
	term := vtgrid.New(int(f.Cols), int(f.Rows), vtgrid.Options{})
	_, _ = term.Write(out[:f.Seq])
	want := screenFrame(f.Pane, f.Seq, term.Snapshot(), nil)
	got := slices.Clone(f.Lines)
	for i := range got { // a decoded row ends at its last cell that is not a default blank
		got[i].Cells = slices.Clone(got[i].Cells)
		for len(got[i].Cells) < int(f.Cols) {
			got[i].Cells = append(got[i].Cells, proto.FrameCell{Width: 1})
		}
	}
	if !reflect.DeepEqual(want.Lines, got) {
		t.Fatalf("the frame at seq %d does not show the output before %d", f.Seq, f.Seq)
	}
}

// TestAnExitIsReportedAfterTheLastByteIsParsed: the reader flushes the
// parse queue before it returns, so the host reports a pane's exit only
// once its ring and screen hold everything the program wrote, however far
// the parse goroutine was behind: here it is held until the program is
// gone, and the exited event's seq must still be the whole output.
func TestAnExitIsReportedAfterTheLastByteIsParsed(t *testing.T) {
	own := testproc.LabelGoroutines(t) // the host's goroutines, the pane's reader among them, inherit it
	th := newTestHost(t)
	th.serve(persist.DefaultConfig())
	c := th.dial()
	const size = 100000 // within the queue's bound: the program finishes writing
	p := th.spawnFake(c, "burst", "FAKE_BYTES="+itoa(size), "FAKE_OUT="+filepath.Join(t.TempDir(), "written"), "FAKE_EXIT=1")
	c.waitText(p.ID, "READY")
	release, held := make(chan struct{}), make(chan struct{}, 1)
	hold := func() {
		select {
		case held <- struct{}{}: // the first batch only
			<-release
		default:
		}
	}
	pn := th.host.paneByID(p.ID)
	pn.onParse.Store(&hold)
	c.call(&proto.EventsReq{Panes: []string{p.ID}})
	c.call(&proto.InputReq{Pane: p.ID, Data: []byte("\r")})
	select {
	case <-held:
	case <-time.After(60 * time.Second): // bounds a failure only
		close(release)
		t.Fatal("the burst never reached the parse goroutine")
	}
	eventually(t, "the program gone while its output waits for the parse", func() bool {
		// Its reader now waits for the parse (Flush); or, were it not to,
		// the run is finalized and its leader reaped.
		return waiting(own, "host.(*pane).Flush") || reaped(p.Pid)
	})
	close(release)
	expectExitAt(t, c, uint64(len("READY\r\n")+size))
}

// expectExitAt reads c's pushes until the pane's exited event and
// checks it came once every byte the program wrote was parsed.
func expectExitAt(t *testing.T, c *tclient, want uint64) {
	t.Helper()
	for {
		f, err := c.read(60 * time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if e, ok := mustMessage(t, f).(*proto.PaneEvent); ok && e.Kind == proto.EventExited {
			if e.Info.Seq != want {
				t.Fatalf("exit reported at seq %d; the program wrote %d bytes", e.Info.Seq, want)
			}
			return
		}
	}
}

// reaped reports whether pid is gone, reaped.
func reaped(pid int) bool {
	_, err := os.Stat("/proc/" + itoa(pid))
	return err != nil
}

// waiting reports whether a goroutine labelled own (this test's, see
// testproc.LabelGoroutines) is in fn: a goroutine of an earlier test's
// host, still ending, is not this test's pane.
func waiting(own, fn string) bool { return stateOf(own, fn) != "" }

// stateOf is the scheduler state of the first of own's goroutines whose
// stack holds fn ("" if none does).
func stateOf(own, fn string) string {
	for _, g := range testproc.OwnGoroutines(own) {
		if strings.Contains(g, fn) {
			return testproc.GoroutineState(g)
		}
	}
	return ""
}

func mustMessage(t *testing.T, f proto.Frame) proto.Message {
	t.Helper()
	m, err := f.Message()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestAFloodWaitsForAParseSlot: panes parse queued output on at most
// parseSlots processors at once (one fewer than the runtime's), so one
// is left to the readers, the writers and the network poller, and the
// echo of a key typed beside a flood is not held for the runtime's 10 ms
// poll. With every slot taken a flood is read until its queue is full and
// then waits, its program with it; nothing is lost, and once a slot is
// free it is all parsed.
func TestAFloodWaitsForAParseSlot(t *testing.T) {
	own := testproc.LabelGoroutines(t) // the host's goroutines inherit it
	th := newTestHost(t)
	th.serve(persist.DefaultConfig())
	c := th.dial()
	const size = 1 << 20 // far past the queue's bound
	p := th.spawnFake(c, "burst", "FAKE_BYTES="+itoa(size), "FAKE_OUT="+filepath.Join(t.TempDir(), "written"), "FAKE_EXIT=1")
	c.waitText(p.ID, "READY")
	slots := cap(th.host.parsing)
	if slots != max(1, runtime.GOMAXPROCS(0)-1) {
		t.Fatalf("%d parse slots with %d processors", slots, runtime.GOMAXPROCS(0))
	}
	for range slots {
		th.host.parsing <- struct{}{}
	}
	c.call(&proto.EventsReq{Panes: []string{p.ID}})
	c.call(&proto.InputReq{Pane: p.ID, Data: []byte("\r")})
	pn := th.host.paneByID(p.ID)
	eventually(t, "the flood's queue full and its parse waiting for a slot", func() bool {
		pn.out.mu.Lock()
		full := pn.out.pending != nil && len(*pn.out.pending) >= outQueueMax
		pn.out.mu.Unlock()
		return full && stateOf(own, "host.(*pane).parseQueued") == "chan send"
	})
	for range slots {
		<-th.host.parsing
	}
	expectExitAt(t, c, uint64(len("READY\r\n")+size))
}
