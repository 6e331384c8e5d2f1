package tui

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"clowder/supervisor/proto"
)

// stack is the calling goroutine's stack.
func stack() string {
	buf := make([]byte, 64<<10)
	return string(buf[:runtime.Stack(buf, false)])
}

// waitRunning waits until l's run has the model: from then on a key or a
// frame can be handled off the loop.
func waitRunning(t *testing.T, l *eventLoop) {
	t.Helper()
	waitUntil(t, "the loop running", func() bool {
		l.turn.Lock()
		defer l.turn.Unlock()
		return l.m != nil
	})
}

// Issue 12: a key went from the goroutine that reads and decodes the
// terminal to the loop's goroutine, a hop (a thread woken) before Update
// had it. With the loop idle, the reader now runs Update itself.
func TestAKeyIsHandledOnTheInputReaderWhenTheLoopIsIdle(t *testing.T) {
	ptm, l := terminalLoop(t)
	stacks := make(chan string, 16)
	r := &recorder{got: make(chan tea.Msg, 16), update: func(tea.Msg) tea.Cmd { stacks <- stack(); return nil }}
	res := runRecorder(t, l, r, nil)
	waitRunning(t, l)
	if _, err := ptm.WriteString("a"); err != nil {
		t.Fatal(err)
	}
	if k, ok := next(t, r).(tea.KeyPressMsg); !ok || k.String() != "a" {
		t.Fatalf("Update got %v, want the key a", k)
	}
	if s := <-stacks; !strings.Contains(s, "(*eventLoop).scanInput") || strings.Contains(s, "(*eventLoop).run(") {
		t.Errorf("with the loop idle, the key was not handled on the input reader's goroutine:\n%s", s)
	}
	typeQuit(t, ptm, res)
}

// Issue 12: an echo's frame went from the client's reader, which filed it
// in the mailbox, to the loop's goroutine, a hop before Update applied
// and drew it. With the loop idle, the client's reader now delivers it
// and draws it itself (through client.AfterPusher).
func TestAnEchoIsDrawnOnTheClientsReaderWhenTheLoopIsIdle(t *testing.T) {
	r := startRealHost(t)
	id := r.spawn(r.dial(), "/bin/sh", "-c", "echo READY; exec cat")
	m, _ := r.model()
	type drawn struct{ text, stack string }
	draws := make(chan drawn, 4096)
	m.draw = func(tea.View, *lipgloss.Canvas, damage) { // in Update: the model is ours here
		if p := m.panes[id]; p != nil {
			select {
			case draws <- drawn{screenText(p), stack()}:
			default:
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	l := newEventLoop(ctx)
	l.mail, m.mailByLoop = m.mail, true
	m.mail.now = l.deliverNow
	res := make(chan error, 1)
	go func() { res <- l.run(m, m.Init()) }()
	defer func() {
		cancel()
		if err := <-res; err != nil {
			t.Errorf("the loop ended with %v", err)
		}
	}()
	until := func(what, text string) drawn {
		t.Helper()
		deadline := time.After(30 * time.Second)
		for {
			select {
			case d := <-draws:
				if strings.Contains(d.text, text) {
					return d
				}
			case <-deadline:
				t.Fatalf("never drawn: %s", what)
			}
		}
	}
	until("the pane's READY", "READY")
	// The loop may be busy with a Cmd's answer when an echo comes (then
	// it delivers it, as before): one of ten keys is enough to prove the
	// path, and with an idle loop each one takes it.
	typed := ""
	for i := 0; i < 10; i++ {
		c := string(rune('a' + i))
		typed += c
		l.send(tea.KeyPressMsg{Code: rune(c[0]), Text: c})
		d := until("the echo of "+c, "READY\n"+typed)
		if strings.Contains(d.stack, "(*Client).readLoop") && strings.Contains(d.stack, "(*eventLoop).deliverNow") {
			return
		}
		t.Logf("echo %d drawn off the client's reader:\n%s", i, d.stack)
	}
	t.Fatal("no echo of ten was drawn on the client's reader goroutine")
}

// Update runs off the loop's goroutine now, and still one at a time and in
// order: keys from a real terminal, messages handed over (each sent
// before the key after it is typed), the Cmds' answers racing them, and a
// pane's frames filed by another goroutine. A key never overtakes an
// earlier key or a message handed over before it, frames come newest
// last, and nothing is lost. -race catches two Updates at once (log is
// unguarded).
func TestUpdateOffTheLoopKeepsTheOrder(t *testing.T) {
	const n = 150
	ptm, tty := rawPTY(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l := newEventLoop(ctx)
	l.mail = newMailbox()
	l.mail.now = l.deliverNow
	stop, err := l.readInput(tty, "xterm-256color")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	var log []string // Update's alone: -race fails if two run at once
	offLoop := 0
	r := &recorder{got: make(chan tea.Msg, 16*n)}
	r.update = func(msg tea.Msg) tea.Cmd {
		switch msg := msg.(type) {
		case tea.KeyPressMsg:
			if !strings.Contains(stack(), "(*eventLoop).run(") {
				offLoop++
			}
			log = append(log, "key "+msg.Text)
			return func() tea.Msg { return "cmd " + msg.Text }
		case mailMsg:
			if f := msg.frames["p"]; f != nil {
				log = append(log, fmt.Sprintf("frame %d", f.Seq))
			}
			l.mail.handled(msg)
		case string:
			log = append(log, msg)
		}
		return nil
	}
	res := runRecorder(t, l, r, nil)
	waitRunning(t, l)
	framesDone := make(chan struct{})
	go func() {
		defer close(framesDone)
		for i := 1; i <= n; i++ {
			l.mail.typedTo("p") // small frames, typed: due at once, deliverable off the loop
			l.mail.putFrame("p", &proto.ScreenFrame{Cols: 80, Rows: 24, Seq: uint64(i), Lines: []proto.FrameRow{{Y: 0}}})
			l.mail.filedNow()
		}
	}()
	for i := 0; i < n; i++ {
		k := string(rune(0x4e00 + i))
		l.send("sent " + k)
		if _, err := ptm.WriteString(k); err != nil {
			t.Fatal(err)
		}
	}
	<-framesDone
	l.mail.putFrame("p", &proto.ScreenFrame{Cols: 80, Rows: 24, Seq: n + 1, Lines: []proto.FrameRow{{Y: 0}}}) // the last, after every other
	l.mail.filedNow()
	waitUntil(t, "every key's Cmd's answer and the last frame", func() bool {
		l.turn.Lock()
		defer l.turn.Unlock()
		all := strings.Join(log, "\n") + "\n"
		return strings.Count(all, "cmd ") == n && strings.Contains(all, fmt.Sprintf("frame %d\n", n+1))
	})
	cancel()
	if err := <-res; err != nil {
		t.Fatalf("the loop ended with %v", err)
	}
	t.Logf("%d of %d keys handled off the loop's goroutine", offLoop, n)
	at := map[string]int{}
	lastKey, lastFrame := -1, uint64(0)
	for i, s := range log {
		at[s] = i
		switch {
		case strings.HasPrefix(s, "key "):
			k := int([]rune(s[4:])[0] - 0x4e00)
			if k != lastKey+1 {
				t.Fatalf("key %d after key %d:\n%s", k, lastKey, strings.Join(log[:i+1], "\n"))
			}
			lastKey = k
		case strings.HasPrefix(s, "frame "):
			var seq uint64
			fmt.Sscan(s[6:], &seq)
			if seq <= lastFrame {
				t.Fatalf("frame %d after frame %d", seq, lastFrame)
			}
			lastFrame = seq
		}
	}
	for i := 0; i < n; i++ {
		k := string(rune(0x4e00 + i))
		sent, ok1 := at["sent "+k]
		key, ok2 := at["key "+k]
		cmd, ok3 := at["cmd "+k]
		if !ok1 || !ok2 || !ok3 {
			t.Fatalf("key %d: sent %v, key %v, its Cmd's answer %v", i, ok1, ok2, ok3)
		}
		if !(sent < key && key < cmd) {
			t.Fatalf("key %d: handed over at %d, the key at %d, its Cmd's answer at %d", i, sent, key, cmd)
		}
	}
}

// The client's reader may deliver a frame itself (deliverNow after every
// filing), but only a small one due now: a flood's big frames are still
// one delivery per display refresh, and a program's small frames (no key
// typed) still wait for the cost gap, both delivered by the loop when due.
func TestAFloodIsStillPacedWithFramesDeliveredByTheirFiler(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l := newEventLoop(ctx)
	clk := newFakeClock()
	l.mail = newMailbox()
	l.mail.pace.clock = clk
	l.mail.now = l.deliverNow
	handled := make(chan tea.Msg, 16) // after Update: the clock is the test's again
	r := &recorder{got: make(chan tea.Msg, 16)}
	r.update = func(msg tea.Msg) tea.Cmd {
		if mail, ok := msg.(mailMsg); ok {
			clk.advance(time.Millisecond) // what the delivery cost
			l.mail.handled(mail)
		}
		handled <- msg
		return nil
	}
	next := func(t *testing.T, _ *recorder) tea.Msg {
		t.Helper()
		select {
		case msg := <-handled:
			return msg
		case <-time.After(10 * time.Second):
			t.Fatal("Update got nothing")
			return nil
		}
	}
	res := runRecorder(t, l, r, nil)
	waitRunning(t, l)
	file := func(f *proto.ScreenFrame) {
		l.mail.putFrame("p1", f)
		l.mail.filedNow()
	}
	quiet := func(what string) {
		t.Helper()
		clk.waitTimer(t) // the loop sleeps until it is due
		select {
		case m := <-handled:
			t.Fatalf("%s: delivered at once: %#v", what, m)
		default:
		}
	}
	file(scrolled(1))
	if m, ok := next(t, r).(mailMsg); !ok || m.frames["p1"].Seq != 1 {
		t.Fatalf("delivered %#v", m)
	}
	for seq := uint64(2); seq <= 50; seq++ {
		file(scrolled(seq))
	}
	quiet("a flood's big frames within the refresh period")
	clk.advance(framePeriod)
	if m, ok := next(t, r).(mailMsg); !ok || m.frames["p1"].Seq != 50 {
		t.Fatalf("delivered %#v, want the newest frame", m)
	}
	clk.advance(framePeriod) // the big frames' period over
	small := func(seq uint64) *proto.ScreenFrame {
		return &proto.ScreenFrame{Cols: 80, Rows: 24, Seq: seq, Lines: []proto.FrameRow{{Y: 0}}}
	}
	file(small(51)) // the last delivery's cost gap is over: at once
	if m, ok := next(t, r).(mailMsg); !ok || m.frames["p1"].Seq != 51 {
		t.Fatalf("delivered %#v", m)
	}
	file(small(52)) // nobody typed: within the cost gap it waits
	quiet("a program's small frame within the cost gap")
	clk.advance(costGap * time.Millisecond)
	if m, ok := next(t, r).(mailMsg); !ok || m.frames["p1"].Seq != 52 {
		t.Fatalf("delivered %#v", m)
	}
	cancel()
	if err := <-res; err != nil {
		t.Fatalf("the loop ended with %v", err)
	}
}

// The loop still ends on a QuitMsg with keys handled off its goroutine;
// after its end nothing is handled anywhere (a key, a frame filed), and
// stopping the input leaves no goroutine behind.
func TestTheLoopEndsCleanlyWithUpdateOffIt(t *testing.T) {
	ptm, tty := rawPTY(t)
	own := labelGoroutines(t)
	l := newEventLoop(context.Background())
	l.mail = newMailbox()
	l.mail.now = l.deliverNow
	stop, err := l.readInput(tty, "xterm-256color")
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{got: make(chan tea.Msg, 16)}
	res := runRecorder(t, l, r, nil)
	waitRunning(t, l)
	if _, err := ptm.WriteString("a"); err != nil {
		t.Fatal(err)
	}
	if k, ok := next(t, r).(tea.KeyPressMsg); !ok || k.String() != "a" {
		t.Fatalf("Update got %v, want the key a", k)
	}
	if _, err := ptm.WriteString("q"); err != nil { // its Cmd's QuitMsg ends the loop
		t.Fatal(err)
	}
	select {
	case err := <-res:
		if err != nil {
			t.Fatalf("a QuitMsg ended the loop with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a QuitMsg did not end the loop")
	}
	if l.runHere(tea.KeyPressMsg{Code: 'b', Text: "b"}) {
		t.Error("a key was handled after the loop ended")
	}
	l.mail.typedTo("p1")
	l.mail.putFrame("p1", &proto.ScreenFrame{Cols: 80, Rows: 24, Lines: []proto.FrameRow{{Y: 0}}})
	l.mail.filedNow()
	select {
	case m := <-r.got:
		t.Errorf("Update got %#v after the loop ended", m)
	default:
	}
	stop()
	waitUntil(t, "the loop's and the reader's goroutines gone", func() bool { return len(ownGoroutines(own)) == 1 })
}

// A frame the client's reader delivers itself wakes no other goroutine:
// filing it signalled the mailbox first, which woke the loop's goroutine
// for a frame already delivered, only to contend for the turn (issue 12).
// A frame the reader cannot deliver (the loop busy) still wakes the loop.
// The loop's wait on the signal is played by spyOnReady, so what woke it
// is known: a signal sent while it waits is handed to it by the send.
func TestAFrameDeliveredByItsFilerDoesNotWakeTheLoop(t *testing.T) {
	own := labelGoroutines(t)
	l := newEventLoop(context.Background())
	l.mail = newMailbox()
	l.mail.now = l.deliverNow
	r := &recorder{got: make(chan tea.Msg, 4)}
	l.m = r // as run sets it; the loop's goroutine is the test's and the spy's
	sink := streamSink{b: l.mail, pane: "p1"}
	echo := func(seq uint64) *proto.ScreenFrame {
		return &proto.ScreenFrame{Cols: 80, Rows: 24, Seq: seq, Lines: []proto.FrameRow{{Y: 0}}}
	}
	push := func(seq uint64) (woken bool) {
		stop, res := make(chan struct{}), make(chan bool, 1)
		go spyOnReady(l.mail.ready, stop, res)
		waitUntil(t, "the spy waiting on the mailbox's signal", func() bool {
			for _, g := range ownGoroutines(own) {
				if strings.Contains(g, "spyOnReady") && strings.Contains(g, "[select") {
					return true
				}
			}
			return false
		})
		l.mail.typedTo("p1")
		sink.Push(echo(seq))
		sink.AfterPush()
		close(stop)
		return <-res
	}
	if push(1) {
		t.Error("the mailbox woke the loop for a frame its filer delivered")
	}
	if m, ok := (<-r.got).(mailMsg); !ok || m.frames["p1"].Seq != 1 {
		t.Fatalf("Update got %#v", m)
	}
	l.turn.Lock() // the loop busy
	woken := push(2)
	l.turn.Unlock()
	if !woken || len(r.got) != 0 {
		t.Errorf("a frame the filer could not deliver: the loop woken %v, delivered %d; want woken", woken, len(r.got))
	}
}

// spyOnReady waits on ready as the loop does and reports whether a signal
// came before stop.
func spyOnReady(ready <-chan struct{}, stop <-chan struct{}, woken chan<- bool) {
	select {
	case <-ready:
		woken <- true
	case <-stop:
		woken <- false
	}
}
