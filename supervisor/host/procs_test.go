package host

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"clowder/persist"
	"clowder/supervisor/proto"
)

// fakeProcs records what a procGovernor sets, as runtime.GOMAXPROCS would
// take it (0 asks).
type fakeProcs struct {
	mu   sync.Mutex
	now  int
	sets []int
}

func (f *fakeProcs) set(n int) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	was := f.now
	if n > 0 {
		f.now = n
		f.sets = append(f.sets, n)
	}
	return was
}

func (f *fakeProcs) history() []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.sets)
}

// governed is a governor managing a fake runtime of procs processors.
func governed(procs int) (*fakeProcs, *procGovernor) {
	f := &fakeProcs{now: procs}
	g := &procGovernor{}
	g.manage(f.set)
	return f, g
}

// The governor runs the host on one processor, raises it to all while
// two watched panes parse at once, and lowers it only once no two have
// for a while (the timer's callback, called here); a flood starting again
// in that while keeps it raised.
func TestProcGovernorRaisesForTwoFloodsOnly(t *testing.T) {
	f, g := governed(2)
	g.started(true)
	g.ended(true)
	if got := f.history(); !slices.Equal(got, []int{1}) {
		t.Fatalf("one flood: processors set %v; want [1] (from the start)", got)
	}
	g.started(true)
	g.started(true)
	g.ended(true) // one parses still: raised, the lowering armed
	g.started(true)
	g.lowerIfCalm() // the timer fires while two parse: stays raised
	g.ended(true)
	g.ended(true)
	if got := f.history(); !slices.Equal(got, []int{1, 2}) {
		t.Fatalf("two floods: processors set %v; want [1 2]", got)
	}
	g.lowerIfCalm()
	if got := f.history(); !slices.Equal(got, []int{1, 2, 1}) {
		t.Fatalf("after the floods: processors set %v; want [1 2 1]", got)
	}
	g.stop()
	g.lowerIfCalm() // a timer that fires after stop sets nothing
	if got := f.history(); !slices.Equal(got, []int{1, 2, 1, 2}) {
		t.Fatalf("after stop: processors set %v; want all given back last", got)
	}
}

// A flood nobody watches raises the processors on its own, and keeps
// them raised while it lasts, whatever watched floods start and end
// beside it.
func TestProcGovernorRaisesForAFloodNobodyWatches(t *testing.T) {
	f, g := governed(2)
	g.started(false)
	g.started(true)
	g.ended(true)
	g.lowerIfCalm() // the unwatched one parses still: stays raised
	if got := f.history(); !slices.Equal(got, []int{1, 2}) {
		t.Fatalf("a flood nobody watches: processors set %v; want [1 2]", got)
	}
	g.ended(false)
	g.lowerIfCalm()
	if got := f.history(); !slices.Equal(got, []int{1, 2, 1}) {
		t.Fatalf("after it: processors set %v; want [1 2 1]", got)
	}
	g.stop()
}

// A machine with one processor leaves the runtime as it is.
func TestProcGovernorOnOneProcessorSetsNothing(t *testing.T) {
	f, g := governed(1)
	g.started(true)
	g.started(false)
	g.ended(false)
	g.ended(true)
	g.stop()
	if got := f.history(); len(got) != 0 {
		t.Fatalf("one processor: set %v; want nothing", got)
	}
}

// governedHost is a served test host whose governor sets a fake runtime
// of two processors, with a client and a watcher connected.
func governedHost(t *testing.T) (*testHost, *fakeProcs, *tclient, *tclient) {
	th := newTestHost(t)
	th.serve(persist.DefaultConfig())
	f := &fakeProcs{now: 2}
	th.host.procs.manage(f.set)
	return th, f, th.dial(), th.dial()
}

// The host counts its panes' parse goroutines in the governor: two
// watched panes whose floods wait for a parse slot at once raise it, and
// once both are parsed it is lowered again by its timer.
func TestTwoFloodingPanesRaiseTheProcessors(t *testing.T) {
	th, f, c, watcher := governedHost(t)
	const size = 1 << 20
	var ids []string
	for range 2 {
		p := th.spawnFake(c, "burst", "FAKE_BYTES="+itoa(size), "FAKE_OUT="+filepath.Join(t.TempDir(), "written"), "FAKE_EXIT=1")
		c.waitText(p.ID, "READY")
		watcher.subscribeScreen(p.ID)
		ids = append(ids, p.ID)
	}
	for range cap(th.host.parsing) {
		th.host.parsing <- struct{}{}
	}
	for _, id := range ids {
		c.call(&proto.InputReq{Pane: id, Data: []byte("\r")})
	}
	eventually(t, "the processors raised for two floods", func() bool { return slices.Equal(f.history(), []int{1, 2}) })
	for range cap(th.host.parsing) {
		<-th.host.parsing
	}
	eventually(t, "the processors lowered after the floods", func() bool { return slices.Equal(f.history(), []int{1, 2, 1}) })
	th.host.procs.stop()
}

// One flood stays on one processor while a client watches its pane: its
// frames would cross threads too. The same flood with nobody watching
// raises the processors, so that the PTY is read on one while the screen
// is parsed on the other (on one they took turns, and the program writing
// waited for both), and lowers them after.
func TestOnlyAFloodNobodyWatchesRaisesTheProcessors(t *testing.T) {
	th, f, c, watcher := governedHost(t)
	flood := func(watched bool) {
		p := th.spawnFake(c, "burst", "FAKE_BYTES="+itoa(1<<20), "FAKE_OUT="+filepath.Join(t.TempDir(), "written"), "FAKE_EXIT=1")
		c.waitText(p.ID, "READY")
		if watched {
			watcher.subscribeScreen(p.ID)
		}
		c.call(&proto.InputReq{Pane: p.ID, Data: []byte("\r")})
		c.waitExited(p.ID) // the reader flushes the parse before the exit is reported
	}
	flood(true)
	if got := f.history(); !slices.Equal(got, []int{1}) {
		t.Fatalf("a watched flood: processors set %v; want [1]", got)
	}
	flood(false)
	if got := f.history(); !slices.Equal(got, []int{1, 2}) {
		t.Fatalf("a flood nobody watches: processors set %v; want [1 2]", got)
	}
	eventually(t, "the processors lowered after the flood", func() bool { return slices.Equal(f.history(), []int{1, 2, 1}) })
	th.host.procs.stop()
}

// TestTheGovernorDoesNotWaitForTheStartWork: the governor takes the
// processors as the host begins to serve, and the start-up work, which
// waits for the host to be quiet, runs on one processor; a flood that came
// before it ran on every processor, paying a thread wake-up per chunk.
// After a stop, neither.
func TestTheGovernorDoesNotWaitForTheStartWork(t *testing.T) {
	f := &fakeProcs{now: 2}
	ran := make(chan []int, 1)
	h := &Server{opts: Options{ManageProcs: true, StartWork: func() { ran <- f.history() }}}
	stop := h.beginWork(context.Background(), f.set)
	if got := f.history(); !slices.Equal(got, []int{1}) {
		t.Fatalf("processors set %v as the host began; want [1] at once", got)
	}
	if during := <-ran; !slices.Equal(during, []int{1}) {
		t.Fatalf("processors set %v when the start-up work ran; want [1]", during)
	}
	stop()
	before := f.history() // the stop gave the processors back
	stopped := &Server{opts: Options{ManageProcs: true, StartWork: func() { t.Error("a stopped host did its start-up work") }}}
	stopped.startQuiet = time.Hour
	stopped.procs.stop()
	stopped.beginWork(context.Background(), f.set)()
	if got := f.history(); !slices.Equal(got, before) {
		t.Fatalf("a stopped host set the processors: %v after %v", got, before)
	}
}

// TestTheHostServesWhileItsStartWorkRuns: the start-up work runs beside
// the first requests, never before them, and a host that could not
// listen (it exits) does none.
func TestTheHostServesWhileItsStartWorkRuns(t *testing.T) {
	th := newTestHost(t)
	release := make(chan struct{})
	defer close(release)
	th.serve(persist.DefaultConfig(), func(h *Server) { h.opts.StartWork = func() { <-release } })
	if _, ok := th.dial().call(&proto.ListReq{}).(*proto.PaneListReply); !ok {
		t.Fatal("list while the start-up work runs: not a pane list")
	}
	second, err := New(Options{Paths: th.paths, Config: persist.DefaultConfig(), IdleExit: -1,
		StartWork: func() { t.Error("a host that could not listen did its start-up work") }})
	if err != nil {
		t.Fatal(err)
	}
	if err := second.Serve(context.Background()); !errors.Is(err, persist.ErrLocked) {
		t.Fatalf("a second host: %v, want ErrLocked", err)
	}
}

// TestTheStartWorkWaitsForTheRequestsToStop: the start-up work (the host
// process drops its start-up pages) waits until no request has come for
// startQuiet, so the requests of a cold start never fault the pages back
// in one at a time; a host stopped before that does none.
func TestTheStartWorkWaitsForTheRequestsToStop(t *testing.T) {
	th := newTestHost(t)
	ran := make(chan struct{})
	th.serve(persist.DefaultConfig(), func(h *Server) {
		h.startQuiet = 2 * time.Second // far above a request's time, even under -race
		h.opts.StartWork = func() { close(ran) }
	})
	c := th.dial()
	for i := range 20 {
		if _, ok := c.call(&proto.ListReq{}).(*proto.PaneListReply); !ok {
			t.Fatalf("list %d: not a pane list", i)
		}
		select {
		case <-ran:
			t.Fatalf("the start-up work ran while requests came (after %d)", i+1)
		default:
		}
	}
	stopped := time.Now()
	<-ran
	if waited := time.Since(stopped); waited < th.host.startQuiet/2 {
		t.Fatalf("the start-up work ran %v after the last request; want about %v", waited, th.host.startQuiet)
	}

	never := newTestHost(t)
	ctx, cancel := context.WithCancel(context.Background())
	h, err := New(Options{Paths: never.paths, Config: persist.DefaultConfig(), IdleExit: -1,
		StartWork: func() { t.Error("a host stopped before it was quiet did its start-up work") }})
	if err != nil {
		t.Fatal(err)
	}
	h.startQuiet = time.Hour
	served := make(chan error, 1)
	go func() { served <- h.Serve(ctx) }()
	eventually(t, "the second host listens", func() bool { return h.listener() != nil })
	cancel()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
}

// TestOutputPutsTheStartWorkOffForAWhile: a pane's output puts the
// start-up work off as requests do (a flood would fault the dropped pages
// back one at a time), but a pane that never stops printing does not put
// it off for good.
func TestOutputPutsTheStartWorkOffForAWhile(t *testing.T) {
	th := newTestHost(t)
	ran := make(chan time.Time, 1)
	var began time.Time
	th.serve(persist.DefaultConfig(), func(h *Server) {
		// A quiet of a second: the spawn, and each of the pane's lines,
		// come well within it even on a loaded machine under -race.
		h.startQuiet, h.startOutputMax = time.Second, 3*time.Second
		h.opts.StartWork = func() { ran <- time.Now() }
		began = time.Now() // before Serve, so before the host's own clock starts
	})
	c := th.dial()
	info := th.spawnFake(c, "chatty") // a line every 20 ms, for good
	select {
	case at := <-ran:
		if at.Sub(began) < th.host.startOutputMax-th.host.startQuiet {
			t.Fatalf("the start-up work ran %v after the host began, while the pane printed; want it put off for about %v", at.Sub(began), th.host.startOutputMax)
		}
	case <-time.After(time.Minute):
		t.Fatal("a pane that never stops printing put the start-up work off for good")
	}
	if p := c.info(info.ID); p.State != "running" {
		t.Fatalf("the chatty pane is %s; want running throughout", p.State)
	}
}
