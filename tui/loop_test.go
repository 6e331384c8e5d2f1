package tui

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"clowder/supervisor/proto"
)

// recorder is a model that records what Update gets and quits on "q".
type recorder struct {
	got    chan tea.Msg
	update func(tea.Msg) tea.Cmd
}

func (r *recorder) Init() tea.Cmd  { return nil }
func (r *recorder) View() tea.View { return tea.View{} }
func (r *recorder) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "q" {
		return r, func() tea.Msg { return tea.QuitMsg{} }
	}
	r.got <- msg
	if r.update != nil {
		return r, r.update(msg)
	}
	return r, nil
}

// runRecorder runs r's loop on a goroutine; the returned channel has its
// result.
func runRecorder(t *testing.T, l *eventLoop, r *recorder, first tea.Cmd) <-chan error {
	t.Helper()
	res := make(chan error, 1)
	go func() { res <- l.run(r, first) }()
	return res
}

// next is the next message Update got.
func next(t *testing.T, r *recorder) tea.Msg {
	t.Helper()
	select {
	case msg := <-r.got:
		return msg
	case <-time.After(10 * time.Second):
		t.Fatal("Update got nothing")
		return nil
	}
}

// The loop that replaced bubbletea's Program (whose renderer ticked once a
// second even without a renderer, issue 12) still decodes the terminal's
// keys, pastes and focus as bubbletea's messages, and ends on QuitMsg.
func TestTheLoopDecodesTheTerminalsInput(t *testing.T) {
	ptm, l := terminalLoop(t)
	r := &recorder{got: make(chan tea.Msg, 16)}
	res := runRecorder(t, l, r, nil)
	if _, err := ptm.WriteString("a\x1b[A\x1b[200~pasted\x1b[201~\x1b[I"); err != nil {
		t.Fatal(err)
	}
	var seen []string
	for len(seen) < 4 {
		switch msg := next(t, r).(type) {
		case tea.KeyPressMsg:
			seen = append(seen, "key "+msg.String())
		case tea.PasteMsg:
			seen = append(seen, "paste "+msg.Content)
		case tea.FocusMsg:
			seen = append(seen, "focus")
		}
	}
	if got := strings.Join(seen, ", "); got != "key a, key up, paste pasted, focus" {
		t.Errorf("Update got %s", got)
	}
	typeQuit(t, ptm, res)
}

// As under bubbletea, a batch's Cmds run each on its own goroutine: one
// that waits for another's message does not hold it up.
func TestTheLoopRunsABatchsCmdsConcurrently(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l := newEventLoop(ctx)
	release := make(chan struct{})
	r := &recorder{got: make(chan tea.Msg, 16)}
	r.update = func(msg tea.Msg) tea.Cmd {
		if msg == "second" {
			close(release)
		}
		return nil
	}
	first := func() tea.Msg { <-release; return "first" }
	second := func() tea.Msg { return "second" }
	res := runRecorder(t, l, r, tea.Batch(first, second))
	if a, b := next(t, r), next(t, r); a != "second" || b != "first" {
		t.Errorf("Update got %v then %v", a, b)
	}
	cancel()
	if err := <-res; err != nil {
		t.Errorf("the context's end ended the loop with %v", err)
	}
}

// A Cmd that panics ends the loop with its error (Run then gives the
// terminal back), instead of killing the process with the terminal raw.
func TestAPanickingCmdEndsTheLoop(t *testing.T) {
	l := newEventLoop(context.Background())
	r := &recorder{got: make(chan tea.Msg, 16)}
	res := runRecorder(t, l, r, func() tea.Msg { panic("boom") })
	select {
	case err := <-res:
		if err == nil || !strings.Contains(err.Error(), "boom") {
			t.Errorf("the loop ended with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a panicking Cmd did not end the loop")
	}
}

// A window size no terminal has is ignored, as bubbletea ignores it.
func TestAnImplausibleWindowSizeIsIgnored(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l := newEventLoop(ctx)
	r := &recorder{got: make(chan tea.Msg, 16)}
	runRecorder(t, l, r, nil)
	l.send(tea.WindowSizeMsg{Width: 100000, Height: 100000})
	l.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	if got := next(t, r); got != (tea.WindowSizeMsg{Width: 80, Height: 24}) {
		t.Errorf("Update got %v first", got)
	}
}

// Issue 12: a host frame went from the stream's watcher to a Cmd's
// goroutine waiting on the mailbox, and from there to the loop: a hop
// for nothing. The loop now takes from the mailbox itself, paced as the
// Cmd was.
func TestTheLoopDeliversTheMailboxItself(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l := newEventLoop(ctx)
	clk := newFakeClock()
	l.mail = newMailbox()
	l.mail.pace.clock = clk
	r := &recorder{got: make(chan tea.Msg, 16)}
	r.update = func(msg tea.Msg) tea.Cmd {
		if mail, ok := msg.(mailMsg); ok {
			l.mail.handled(mail)
		}
		return nil
	}
	runRecorder(t, l, r, nil)
	l.mail.putFrame("p1", scrolled(1))
	if m, ok := next(t, r).(mailMsg); !ok || m.frames["p1"].Seq != 1 {
		t.Fatalf("the loop delivered %#v", m)
	}
	l.mail.putFrame("p1", scrolled(2))
	l.mail.putFrame("p1", scrolled(3))
	clk.waitTimer(t) // a big delivery: the next waits for the refresh period
	select {
	case m := <-r.got:
		t.Fatalf("delivered within the refresh period: %#v", m)
	default:
	}
	clk.advance(framePeriod)
	if m, ok := next(t, r).(mailMsg); !ok || m.frames["p1"].Seq != 3 {
		t.Errorf("the loop delivered %#v, want the newest frame", m)
	}
}

// The decoder hands events straight to the loop's channel (no forwarding
// goroutine, issue 12), so once the loop has ended nobody takes them: stop
// still ends the reader, which may be blocked handing over a key.
func TestStoppingTheInputEndsTheReaderWithAKeyUntaken(t *testing.T) {
	ptm, tty := rawPTY(t)
	own := labelGoroutines(t) // the reader's goroutines inherit it
	l := newEventLoop(context.Background())
	stop, err := l.readInput(tty, "xterm-256color")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ptm.WriteString("ab"); err != nil { // no loop runs: the decoder blocks on the first key
		t.Fatal(err)
	}
	stop()
	// Only this test's goroutines, the test's own left: another test's,
	// still ending, are not this reader's.
	waitUntil(t, "the input reader's goroutines gone", func() bool { return len(ownGoroutines(own)) == 1 })
}

// putFrame files a frame and signals, as a stream's filer does when the
// loop cannot take the frame at once.
func (b *mailbox) putFrame(pane string, f *proto.ScreenFrame) {
	b.fileFrame(pane, f)
	b.signal()
}

// typeQuit types q, which the recorder quits on, into the terminal ptm
// is the master of, and checks that the loop whose result res carries
// then ends cleanly.
func typeQuit(t *testing.T, ptm *os.File, res <-chan error) {
	t.Helper()
	if _, err := ptm.WriteString("q"); err != nil {
		t.Fatal(err)
	}
	if err := <-res; err != nil {
		t.Errorf("a QuitMsg ended the loop with %v", err)
	}
}

// terminalLoop is an event loop reading a real terminal in raw mode, its
// input reader stopped at the test's end; ptm is the terminal's master,
// where the test types.
func terminalLoop(t *testing.T) (ptm *os.File, l *eventLoop) {
	t.Helper()
	ptm, tty := rawPTY(t)
	l = newEventLoop(context.Background())
	stop, err := l.readInput(tty, "xterm-256color")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return ptm, l
}
