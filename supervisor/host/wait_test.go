package host

import (
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"clowder/supervisor/proto"
)

// TestHostWaitTextMatchesAFloodOutsideThePaneLock pins issue 7: a pending
// `wait --text` built the screen's text and ran its regexp under the pane
// lock on every output chunk, so a flood stalled the pane's reader and
// every other request on the pane. The match now runs on a copy of the
// screen's text outside the lock, on the newest screen; it still finds the end
// of the flood, and captures on another connection proceed meanwhile.
func TestHostWaitTextMatchesAFloodOutsideThePaneLock(t *testing.T) {
	const lines = 100000
	th := startHost(t)
	waiter, other := th.dial(), th.dial()
	info := th.spawnFake(other, "flood", "FAKE_LINES="+strconv.Itoa(lines))
	other.waitText(info.ID, "READY")
	p, err := th.host.find(info.ID)
	if err != nil {
		t.Fatal(err)
	}
	var checks, locked atomic.Int64
	hook := func() {
		checks.Add(1)
		if locked.Load() == 0 && !canLock(&p.mu) {
			locked.Add(1)
		}
	}
	p.onTextCheck.Store(&hook)
	wait := waiter.send(&proto.WaitReq{Pane: info.ID, Text: `FLOOD-END \d+`, TimeoutMS: 60000})
	other.call(&proto.InputReq{Pane: info.ID, Data: []byte("go\n")})
	for range 5 {
		other.call(&proto.CaptureReq{Pane: info.ID}) // proceeds while the flood and the wait run
	}
	r, _, err := waiter.await(wait)
	if err != nil {
		t.Fatalf("wait --text during a flood: %v", err)
	}
	if m := r.(*proto.WaitDoneReply).Match; m != "FLOOD-END "+strconv.Itoa(lines) {
		t.Fatalf("wait matched %q", m)
	}
	t.Logf("%d lines of output, %d text checks", lines, checks.Load())
	if locked.Load() != 0 {
		t.Fatalf("a text check ran with the pane lock held (of %d checks)", checks.Load())
	}
}

// TestATextCheckCopiesNoSnapshot pins issue 12 (memory per history line):
// a wait for a text checks on every change of a flooding pane, and took a
// snapshot each time (every row that scrolled copied as cells: 10 MB of
// garbage while a pane printed 10,000 lines, the host's heap and resident
// memory grown with it). A check now copies the screen's text into a
// buffer the wait reuses, which allocates nothing.
func TestATextCheckCopiesNoSnapshot(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.floodedPane(c, 500)
	req := &proto.WaitReq{Pane: p.id, Text: "never shown"}
	var text []byte
	if met, _, _ := p.check(req, regexp.MustCompile(req.Text), 0, &text); met != "" { // the buffer grows once
		t.Fatalf("a wait for a text never shown met %q", met)
	}
	// The screen's state under the lock; the regexp's own machines come
	// from a pool, which the race detector empties at random.
	if n := testing.AllocsPerRun(100, func() { text = p.waitState(true, text[:0]).text }); n != 0 {
		t.Fatalf("taking the screen's text for a check allocates %.0f times; want none", n)
	}
	if !strings.Contains(string(text), "FLOOD-END") {
		t.Fatalf("the check read %q; want the screen's text", text)
	}
}

// canLock reports whether mu can be taken from this goroutine: another
// holder lets go soon, but if this goroutine holds it, it never comes free.
func canLock(mu *sync.Mutex) bool {
	deadline := time.Now().Add(10 * time.Second)
	for !mu.TryLock() {
		if time.Now().After(deadline) {
			return false
		}
		runtime.Gosched()
	}
	mu.Unlock()
	return true
}
