package tui

import (
	"bytes"
	"errors"
	"os"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/creack/pty"

	"clowder/supervisor/proto"
)

// fakeClock is a clock that moves only when the test advances it.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []fakeTimer
}

type fakeTimer struct {
	at time.Time
	ch chan time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Unix(1_000_000, 0)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) At(t time.Time) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	if !t.After(c.now) {
		ch <- c.now
		return ch
	}
	c.timers = append(c.timers, fakeTimer{at: t, ch: ch})
	return ch
}

// advance moves the clock by d and fires the timers due.
func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.timers[:0]
	for _, tm := range c.timers {
		if tm.at.After(c.now) {
			kept = append(kept, tm)
			continue
		}
		tm.ch <- c.now
	}
	c.timers = kept
}

// waitTimer waits until someone sleeps on the clock.
func (c *fakeClock) waitTimer(t *testing.T) {
	t.Helper()
	waitUntil(t, "a timer on the fake clock", func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return len(c.timers) > 0
	})
}

// waitUntil polls cond until it holds; the deadline only bounds a failure.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(time.Millisecond) // polling a condition with a deadline
	}
}

// writeLog records each write to the terminal as one frame.
type writeLog struct {
	mu     sync.Mutex
	writes [][]byte
}

func (l *writeLog) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.writes = append(l.writes, bytes.Clone(b))
	return len(b), nil
}

func (l *writeLog) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.writes)
}

func (l *writeLog) last() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.writes[len(l.writes)-1]
}

// testTerminal starts a terminal on a real 80x24 PTY whose writes go to a
// log, paced by a fake clock.
func testTerminal(t *testing.T) (*terminal, *writeLog, *fakeClock) {
	t.Helper()
	ptm, tty := rawPTY(t)
	if err := pty.Setsize(ptm, &pty.Winsize{Cols: 80, Rows: 24}); err != nil {
		t.Fatal(err)
	}
	log, clk := &writeLog{}, newFakeClock()
	term, err := startTerminal(tty, tty, log, []string{"TERM=xterm-256color"}, clk)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		go clk.advance(time.Hour) // a loop asleep on the clock wakes up to close
		term.close()
	})
	return term, log, clk
}

// shellFrame is an 80x24 view whose first row is text, with the cursor
// after it, and a border between two panes at column 40.
func shellFrame(text string) drawing {
	cv := lipgloss.NewCanvas(80, 24)
	putText(cv, 0, 0, 80, text, cellStyle(&blankCell))
	for y := 0; y < 24; y++ {
		putText(cv, 40, y, 1, "│", cellStyle(&blankCell))
	}
	v := tea.View{MouseMode: tea.MouseModeCellMotion, Cursor: tea.NewCursor(len(text), 0)}
	return drawing{view: v, cells: cv}
}

// showAndWait shows a frame and waits for the terminal to write it.
func showAndWait(t *testing.T, term *terminal, log *writeLog, f drawing) []byte {
	t.Helper()
	n := log.count()
	term.show(f.view, f.cells, damage{all: true})
	waitUntil(t, "the frame written", func() bool { return log.count() > n })
	return log.last()
}

// Issue 12: an echoed key cost about 55 bytes to the outer terminal (a
// synchronized update, the cursor hidden and shown again around one
// character) where tmux writes the character alone.
func TestAnEchoedKeyIsAFewBytes(t *testing.T) {
	term, log, _ := testTerminal(t)
	showAndWait(t, term, log, shellFrame("$ "))
	echo := showAndWait(t, term, log, shellFrame("$ a"))
	if len(echo) > 3 || !strings.HasPrefix(string(echo), "a") {
		t.Errorf("an echoed key wrote %d bytes %q, want the key and at most two more", len(echo), echo)
	}
}

// A frame that changes much is still drawn inside a synchronized update
// with the cursor hidden, so the terminal never shows half of it.
func TestABigFrameIsOneSynchronizedUpdate(t *testing.T) {
	term, log, _ := testTerminal(t)
	showAndWait(t, term, log, shellFrame("$ "))
	f := shellFrame("$ ")
	for y := 1; y < 24; y++ {
		putText(f.cells, 0, y, 40, strings.Repeat("x", 40), cellStyle(&blankCell))
	}
	out := string(showAndWait(t, term, log, f))
	if !strings.HasPrefix(out, "\x1b[?2026h\x1b[?25l") || !strings.HasSuffix(out, "\x1b[?25h\x1b[?2026l") {
		t.Errorf("a full repaint is not wrapped in a synchronized update with the cursor hidden: %q...%q",
			out[:min(len(out), 20)], out[max(len(out)-20, 0):])
	}
}

// bigFrame is shellFrame with every row of the left pane changed, as a
// scrolling pane changes them.
func bigFrame(text string) drawing {
	f := shellFrame(text)
	for y := 1; y < 24; y++ {
		putText(f.cells, 0, y, 40, strings.Repeat(text[len(text)-1:], 40), cellStyle(&blankCell))
	}
	return f
}

// Issue 12: the TUI drew every frame the host sent, as fast as it came,
// so a flood cost it more than half the host's CPU. After a big frame, a
// burst of them is one write per display refresh: the newest.
func TestABurstOfBigFramesIsOneWritePerRefresh(t *testing.T) {
	term, log, clk := testTerminal(t)
	showAndWait(t, term, log, bigFrame("$ a"))
	n := log.count()
	for _, s := range []string{"$ b", "$ c", "$ d", "$ e"} {
		f := bigFrame(s)
		term.show(f.view, f.cells, damage{all: true})
	}
	clk.waitTimer(t) // the loop waits for the refresh period's end
	if got := log.count(); got != n {
		t.Fatalf("%d writes within one refresh period after a big frame", got-n)
	}
	clk.advance(framePeriod)
	waitUntil(t, "the burst drawn", func() bool { return log.count() > n })
	if got := string(log.last()); !strings.Contains(got, "eeee") || strings.Contains(got, "bbbb") {
		t.Errorf("the burst drew %q, want the newest frame only", got)
	}
}

// Small frames (echoes) are drawn at once, one after another: typing never
// waits for a refresh period.
func TestSmallFramesAreDrawnAtOnce(t *testing.T) {
	term, log, _ := testTerminal(t)
	showAndWait(t, term, log, shellFrame("$ "))
	for _, s := range []string{"$ a", "$ ab", "$ abc"} {
		echo := showAndWait(t, term, log, shellFrame(s)) // the fake clock never moves
		if !strings.HasPrefix(string(echo), s[len(s)-1:]) {
			t.Errorf("typing %q drew %q", s, echo)
		}
	}
}

// Issue 12: every frame the host sent was an Update and a render of the
// whole window. After a big delivery (a scrolling pane), what is filed
// within one refresh period is delivered once, at the period's end,
// merged; after a small one (an echo), the next goes at once.
func TestTheMailboxPacesDeliveriesAfterABigOne(t *testing.T) {
	b, clk := newMailbox(), newFakeClock()
	b.pace.clock = clk
	b.putFrame("p1", scrolled(1))
	first, ok := b.wait().(mailMsg)
	if !ok || first.frames["p1"].Seq != 1 {
		t.Fatalf("the first frame was not delivered at once: %#v", first)
	}
	b.handled(first)
	got := make(chan any, 1)
	go func() { got <- b.wait() }()
	for seq := uint64(2); seq <= 5; seq++ {
		b.putFrame("p1", scrolled(seq))
	}
	clk.waitTimer(t)
	select {
	case m := <-got:
		t.Fatalf("delivered within the refresh period after a big delivery: %#v", m)
	default:
	}
	clk.advance(framePeriod)
	m := (<-got).(mailMsg)
	if len(m.frames) != 1 || m.frames["p1"].Seq != 5 {
		t.Errorf("the burst was not one delivery of the newest frame: %#v", m.frames)
	}
	b.handled(mailMsg{frames: map[string]*proto.ScreenFrame{"p1": {Cols: 80, Rows: 24, Lines: []proto.FrameRow{{Y: 0}}}}})
	b.putFrame("p1", &proto.ScreenFrame{Cols: 80, Rows: 24, Seq: 6, Lines: []proto.FrameRow{{Y: 0}}})
	if m, ok := b.wait().(mailMsg); !ok || m.frames["p1"].Seq != 6 { // the fake clock never moved
		t.Errorf("an echo after a small delivery was not delivered at once: %#v", m)
	}
}

// scrolled is a frame in which every row changed.
func scrolled(seq uint64) *proto.ScreenFrame {
	f := &proto.ScreenFrame{Cols: 80, Rows: 24, Seq: seq}
	for y := uint16(0); y < 24; y++ {
		f.Lines = append(f.Lines, proto.FrameRow{Y: y})
	}
	return f
}

// goroutineID is the calling goroutine's number, from its stack header.
func goroutineID() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	id, _, _ := strings.Cut(strings.TrimPrefix(string(buf), "goroutine "), " ")
	return id
}

// goroutineLog records which goroutine made each write.
type goroutineLog struct {
	writeLog
	mu  sync.Mutex
	ids []string
}

func (l *goroutineLog) Write(b []byte) (int, error) {
	l.mu.Lock()
	l.ids = append(l.ids, goroutineID())
	l.mu.Unlock()
	return l.writeLog.Write(b)
}

// Issue 12: an echo went from Update to the terminal's goroutine, one
// goroutine hop (a thread woken, tens of microseconds here) between the
// host's frame and the terminal write. A small frame shown while the
// terminal is idle is now written by the goroutine that shows it, before
// show returns; a big one still goes through the terminal's goroutine.
func TestAnEchoIsWrittenByTheGoroutineThatShowsIt(t *testing.T) {
	ptm, tty := rawPTY(t)
	if err := pty.Setsize(ptm, &pty.Winsize{Cols: 80, Rows: 24}); err != nil {
		t.Fatal(err)
	}
	log := &goroutineLog{}
	term, err := startTerminal(tty, tty, log, []string{"TERM=xterm-256color"}, newFakeClock())
	if err != nil {
		t.Fatal(err)
	}
	defer term.close()
	showAndWait(t, term, &log.writeLog, shellFrame("$ "))
	waitUntil(t, "the terminal's goroutine done drawing", func() bool {
		if !term.drawMu.TryLock() {
			return false
		}
		term.drawMu.Unlock()
		return true
	})
	n := log.count()
	f := shellFrame("$ a")
	term.canvasMu.Lock()
	term.show(f.view, f.cells, damage{rows: []int{0}})
	term.canvasMu.Unlock()
	if log.count() != n+1 {
		t.Fatalf("show returned with the echo not written (%d writes since)", log.count()-n)
	}
	log.mu.Lock()
	by := log.ids[len(log.ids)-1]
	log.mu.Unlock()
	if me := goroutineID(); by != me {
		t.Errorf("the echo was written by goroutine %s, not by %s that showed it", by, me)
	}
}

// Issue 12, 8 panes flooding: after a big delivery every pane's frames
// waited for the refresh period, so a key typed in a quiet pane while
// another flooded waited for it too. Pacing is per pane now: the quiet
// pane's echo is delivered at once, the flooding pane's frame at the
// period's end.
func TestAnEchoIsNotPacedByAnotherPanesFlood(t *testing.T) {
	b, clk := newMailbox(), newFakeClock()
	b.pace.clock = clk
	b.putFrame("p1", scrolled(1))
	first, ok := b.wait().(mailMsg)
	if !ok || first.frames["p1"] == nil {
		t.Fatalf("the first frame was not delivered at once: %#v", first)
	}
	b.handled(first)
	b.putFrame("p1", scrolled(2))
	b.putFrame("p2", &proto.ScreenFrame{Cols: 80, Rows: 24, Seq: 7, Lines: []proto.FrameRow{{Y: 0}}})
	got := make(chan any, 1)
	go func() { got <- b.wait() }()
	var echo mailMsg
	select {
	case m := <-got:
		echo = m.(mailMsg)
	case <-time.After(10 * time.Second):
		t.Fatal("the quiet pane's echo waited for the flooding pane's period")
	}
	if echo.frames["p2"] == nil || echo.frames["p1"] != nil {
		t.Fatalf("delivered %v; want the echo of p2 alone", echo.frames)
	}
	b.handled(echo)
	go func() { got <- b.wait() }()
	clk.waitTimer(t)
	clk.advance(framePeriod)
	if m := (<-got).(mailMsg); m.frames["p1"] == nil || m.frames["p1"].Seq != 2 {
		t.Errorf("the flooding pane's frame at the period's end: %#v", m.frames)
	}
}

// The terminal's pace likewise: after a big frame, an echo is drawn at
// once; only the next big frame waits for the refresh period.
func TestAnEchoAfterABigFrameIsDrawnAtOnce(t *testing.T) {
	term, log, _ := testTerminal(t)
	showAndWait(t, term, log, bigFrame("$ a"))
	f := shellFrame("$ ab")
	n := log.count()
	term.canvasMu.Lock()
	term.show(f.view, f.cells, damage{rows: []int{0}})
	term.canvasMu.Unlock()
	waitUntil(t, "the echo drawn with the fake clock still", func() bool { return log.count() > n })
}

// The cost gap too: a big delivery that cost 3 ms held the next delivery,
// an echo included, for 15 ms. Small deliveries are now spaced by what the
// last small one cost.
func TestAnEchoIsNotHeldByABigDeliverysCost(t *testing.T) {
	b, clk := newMailbox(), newFakeClock()
	b.pace.clock = clk
	b.putFrame("p1", scrolled(1))
	first := b.wait().(mailMsg)
	clk.advance(3 * time.Millisecond) // what applying and drawing it cost
	b.handled(first)
	b.putFrame("p2", &proto.ScreenFrame{Cols: 80, Rows: 24, Seq: 7, Lines: []proto.FrameRow{{Y: 0}}})
	got := make(chan any, 1)
	go func() { got <- b.wait() }()
	select {
	case m := <-got:
		if m.(mailMsg).frames["p2"] == nil {
			t.Fatalf("delivered %#v; want the echo", m)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the echo waited for the big delivery's cost gap")
	}
}

// And while a big frame waits for its period, an echo is drawn at once
// rather than merged into it and held.
func TestAnEchoIsDrawnWhileABigFrameWaits(t *testing.T) {
	term, log, clk := testTerminal(t)
	showAndWait(t, term, log, bigFrame("$ a"))
	big := bigFrame("$ b")
	term.canvasMu.Lock()
	term.show(big.view, big.cells, damage{all: true})
	term.canvasMu.Unlock()
	clk.waitTimer(t) // the big frame waits for the period
	n := log.count()
	echo := bigFrame("$ bc")
	term.canvasMu.Lock()
	term.show(echo.view, echo.cells, damage{rows: []int{0}})
	term.canvasMu.Unlock()
	waitUntil(t, "the echo drawn while the big frame waits", func() bool { return log.count() > n })
	if got := string(log.last()); !strings.Contains(got, "c") || strings.Contains(got, "bbbb") {
		t.Errorf("drew %q; want the echo's row alone", got)
	}
	clk.advance(framePeriod)
	waitUntil(t, "the big frame drawn at the period's end", func() bool { return strings.Contains(string(log.last()), "cccc") })
}

// Issue 12: after a small delivery, the next one waited five times what
// it cost, through a timer the runtime rounds up to a millisecond; when
// keys came as fast as their echoes (a control-mode client typing), one
// echo in four to ten waited about 1 ms. The echo of typed input now goes
// at once; a frame nobody typed for still waits for the gap.
func TestAnEchoOfTypedInputSkipsTheCostGap(t *testing.T) {
	b, clk := newMailbox(), newFakeClock()
	b.pace.clock = clk
	small := func(seq uint64) *proto.ScreenFrame {
		return &proto.ScreenFrame{Cols: 80, Rows: 24, Seq: seq, Lines: []proto.FrameRow{{Y: 0}}}
	}
	b.putFrame("p1", small(1))
	first := b.wait().(mailMsg)
	clk.advance(time.Millisecond) // what applying and drawing it cost: the gap is 5 ms
	b.handled(first)
	b.typedTo("p1")
	b.putFrame("p1", small(2))
	got := make(chan any, 1)
	go func() { got <- b.wait() }()
	select {
	case m := <-got:
		if f := m.(mailMsg).frames["p1"]; f == nil || f.Seq != 2 {
			t.Fatalf("delivered %#v; want the echo", m)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the echo of a typed key waited for the cost gap")
	}
	clk.advance(time.Millisecond) // the echo's cost
	b.handled(mailMsg{frames: map[string]*proto.ScreenFrame{"p1": small(2)}})
	b.putFrame("p1", small(3)) // output nobody typed for
	go func() { got <- b.wait() }()
	clk.waitTimer(t)
	select {
	case m := <-got:
		t.Fatalf("a frame nobody typed for skipped the cost gap: %#v", m)
	default:
	}
	clk.advance(framePeriod)
	if f := (<-got).(mailMsg).frames["p1"]; f == nil || f.Seq != 3 {
		t.Errorf("the untyped frame after the gap: %#v", f)
	}
}

// A key typed at the bottom of a pane scrolls it: a big frame, after
// which the pane's frames waited for the refresh period, and so did the
// next key's echo (the bench's 8-pane p99 was 17 ms against tmux's 0.6).
// The echo of typed input is due at once in a paced pane too; a frame
// nobody typed for still waits for the period.
func TestAnEchoOfTypedInputIsNotHeldByItsPanesPeriod(t *testing.T) {
	b, clk := newMailbox(), newFakeClock()
	b.pace.clock = clk
	b.putFrame("p1", scrolled(1))
	first := b.wait().(mailMsg)
	b.handled(first) // p1 is paced for a period
	b.typedTo("p1")
	b.putFrame("p1", &proto.ScreenFrame{Cols: 80, Rows: 24, Seq: 2, Lines: []proto.FrameRow{{Y: 23}}})
	if at, later := b.due(); later {
		t.Fatalf("the echo is due at %v (now %v); want at once", at, clk.Now())
	}
	got := make(chan any, 1)
	go func() { got <- b.wait() }()
	select {
	case m := <-got:
		if f := m.(mailMsg).frames["p1"]; f == nil || f.Seq != 2 || !m.(mailMsg).echo {
			t.Fatalf("delivered %#v; want the echo", m)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the echo of a typed key waited for its pane's period after a big frame")
	}
	b.handled(first) // paced again, and nobody typed since
	b.putFrame("p1", &proto.ScreenFrame{Cols: 80, Rows: 24, Seq: 3, Lines: []proto.FrameRow{{Y: 0}}})
	if at, later := b.due(); !later {
		t.Fatalf("a frame nobody typed for is due at %v (now %v) in a paced pane; want after the period", at, clk.Now())
	}
}

// The marks of typed input do not outlive a pane's stream: a pane that
// left (or subscribed again) keeps no entry in the mailbox.
func TestAStreamsEndDropsItsPanesTypedMark(t *testing.T) {
	b := newMailbox()
	b.typedTo("p1")
	b.putEnd(streamEnd{pane: "p1", token: 1})
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.typed) != 0 {
		t.Errorf("typed marks left after the stream's end: %v", b.typed)
	}
}

// Issue 12: the terminal spaced small frames by its own cost gap, through
// a timer the runtime rounds up to a millisecond, so an echo the mailbox
// let through at once could still wait there (the millisecond tail of
// the loop → terminal write step, 2-7% of the bench's keys). The echo of
// typed input skips the terminal's gap too; a small frame nobody typed
// for still waits for it.
func TestAnEchoOfTypedInputSkipsTheTerminalsCostGap(t *testing.T) {
	term, log, clk := testTerminal(t)
	showAndWait(t, term, log, shellFrame("$ "))
	gap := func() { // the last frame's cost gap, 5 ms from now
		term.drawMu.Lock() // also waits for the terminal's goroutine to be done drawing
		term.pace.next = clk.Now().Add(5 * time.Millisecond)
		term.drawMu.Unlock()
	}
	gap()
	n := log.count()
	echo := shellFrame("$ a")
	term.canvasMu.Lock()
	term.show(echo.view, echo.cells, damage{rows: []int{0}, echo: true})
	term.canvasMu.Unlock()
	if log.count() == n {
		t.Fatal("the echo of typed input waited for the terminal's cost gap")
	}
	gap()
	n = log.count()
	other := shellFrame("$ ab")
	term.canvasMu.Lock()
	term.show(other.view, other.cells, damage{rows: []int{0}})
	term.canvasMu.Unlock()
	clk.waitTimer(t)
	if log.count() != n {
		t.Fatal("a small frame nobody typed for skipped the cost gap")
	}
	clk.advance(5 * time.Millisecond)
	waitUntil(t, "the frame drawn after the gap", func() bool { return log.count() > n })
}

// The mailbox tells Update which delivery is the echo of typed input,
// and the redraw hands the terminal that mark.
func TestTheEchoOfTypedInputIsMarkedToTheTerminal(t *testing.T) {
	m, _ := newTestModel(t, []proto.PaneInfo{running("p1", "one"), running("p2", "two")}, nil)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	var marks []bool
	m.draw = func(_ tea.View, _ *lipgloss.Canvas, d damage) { marks = append(marks, d.echo) }
	id := m.focused().id
	p := m.panes[id]
	m.mail.typedTo(id)
	m.mail.putFrame(id, echoFrame(id, p.size.W, p.size.H, 0, "$ a"))
	m.Update(m.mail.deliver(false))
	m.mail.putFrame(id, echoFrame(id, p.size.W, p.size.H, 0, "$ ab")) // output nobody typed for
	m.Update(m.mail.deliver(false))
	if len(marks) != 2 || !marks[0] || marks[1] {
		t.Errorf("the terminal was told echo %v, want [true false]", marks)
	}
}

// Issue 12's direct draws: the client's reader runs Update for an echo
// (loop.go), and Update draws a small frame on its own goroutine while
// holding the canvas. A terminal that takes no bytes (an SSH link that
// stalls) then held that write, and with it Update and the client's
// reader, which stops reading the host, which disconnects a client that
// has not read for its write deadline. An echo is drawn there only when
// the terminal has room; otherwise the terminal's goroutine waits for it.
func TestAnEchoIsNotDrawnInlineIntoAStalledTerminal(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the terminal's room is polled on Linux only (terminal_room_linux.go)")
	}
	ptm, tty := rawPTY(t)
	if err := pty.Setsize(ptm, &pty.Winsize{Cols: 80, Rows: 24}); err != nil {
		t.Fatal(err)
	}
	clk := newFakeClock()
	term, err := startTerminal(tty, tty, tty, []string{"TERM=xterm-256color"}, clk)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		go clk.advance(time.Hour)
		ptm.Close() // a write still waiting for the terminal fails
		term.close()
	})
	// Fill the terminal: nobody reads its master. A description of its
	// own, non-blocking, so the terminal's stays blocking.
	filler, err := os.OpenFile(tty.Name(), os.O_WRONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer filler.Close()
	for _, size := range []int{4096, 1} { // till not one more byte fits
		chunk := bytes.Repeat([]byte("x"), size)
		for {
			if _, err := syscall.Write(int(filler.Fd()), chunk); err != nil {
				if !errors.Is(err, syscall.EAGAIN) {
					t.Fatal(err)
				}
				break
			}
		}
	}
	shown := make(chan struct{})
	go func() {
		defer close(shown)
		f := shellFrame("$ echoed")
		term.canvasMu.Lock()
		term.show(f.view, f.cells, damage{rows: []int{0}, echo: true})
		term.canvasMu.Unlock()
	}()
	select {
	case <-shown:
	case <-time.After(10 * time.Second):
		t.Fatal("show waited for a terminal that takes no bytes")
	}
	got := make(chan struct{})
	go func() { // the terminal reads again: the echo comes
		var seen []byte
		buf := make([]byte, 64<<10)
		for {
			n, err := ptm.Read(buf)
			seen = append(seen, buf[:n]...)
			if bytes.Contains(seen, []byte("echoed")) {
				close(got)
				return
			}
			if err != nil {
				return
			}
		}
	}()
	select {
	case <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("the echo never reached the terminal once it read again")
	}
}
