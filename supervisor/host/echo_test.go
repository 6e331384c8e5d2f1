package host

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"clowder/supervisor/internal/testproc"
	"clowder/supervisor/proto"
)

// fakeTicks paints four rows of cells in many colours, then, after a line
// is read, redraws a counter at the start of each row, one small write per
// value, as a program echoing keys or a spinner does: every chunk is
// parsed on the pane reader's goroutine, and every frame carries those
// four rows (a few KiB), so a few hundred fill a socket.
func fakeTicks() int {
	n := testproc.EnvInt("FAKE_COUNT")
	var paint []byte
	for row := 1; row <= 4; row++ {
		paint = fmt.Appendf(paint, "\x1b[%d;1H", row)
		for col := 0; col < 70; col++ {
			paint = fmt.Appendf(paint, "\x1b[38;5;%dm%c", (row*70+col)%256, 'a'+col%26)
		}
	}
	fmt.Printf("%s\x1b[m\x1b[6;1HREADY", paint)
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		return 1
	}
	for i := 0; i < n; i++ {
		fmt.Printf("\x1b[1;1H%d\x1b[2;1H%d\x1b[3;1H%d\x1b[4;1H%d", i, i, i, i)
	}
	fmt.Print("\x1b[8;1HDONE")
	return testproc.Block()
}

// TestAnEchoIsWrittenByThePaneReader pins issue 12's goroutine hop: the
// frame showing a typed key's echo was always built and written by the
// subscriber's goroutine, woken by the reader after the parse. Now the
// reader writes it itself to a subscriber that is caught up; every key
// still shows exactly once, in order.
func TestAnEchoIsWrittenByThePaneReader(t *testing.T) {
	th := startHost(t)
	typeAndWatch(th, 30)
	if th.host.echoed.Load() == 0 {
		t.Fatal("none of 30 echoes was written by the pane's reader")
	}
}

// TestAnEchoTheReaderWroteWakesNoSubscriberGoroutine pins issue 12's
// other half of the hop: after the reader wrote an echo's frame, the
// pane's broadcast still woke the subscriber's goroutine, on another
// thread, only to find nothing to send. It is now woken only for changes
// the reader did not send.
func TestAnEchoTheReaderWroteWakesNoSubscriberGoroutine(t *testing.T) {
	th := startHost(t)
	typeAndWatch(th, 30)
	if wakes, echoed := th.host.screenWakes.Load(), th.host.echoed.Load(); wakes >= echoed {
		t.Fatalf("the reader wrote %d echoes, and the subscriber's goroutine woke %d times", echoed, wakes)
	}
}

// typeAndWatch types n keys one at a time into a pane whose terminal
// echoes them, with a screen subscriber; each key's echo must show, and
// the frames, applied in order, show exactly the keys typed.
func typeAndWatch(th *testHost, n int) {
	t := th.t
	t.Helper()
	c := th.dial()
	p := th.spawnFake(c, "sleep") // the terminal's own echo answers every key
	sub := c.subscribeScreen(p.ID)
	typed := ""
	var frames []*proto.ScreenFrame
	for i := 0; i < n; i++ {
		k := string(rune('a' + i%26))
		typed += k
		c.call(&proto.InputReq{Pane: p.ID, Data: []byte(k)})
		frames = c.allScreenFramesUntil(sub, frames, typed)
	}
	frames = append(frames, c.screenFramesToEnd(sub)...)
	if got := appliedText(frames); got != typed {
		t.Fatalf("the frames show %q; typed %q", got, typed)
	}
	t.Logf("%d echoes written by the reader, the subscriber's goroutine woke %d times", th.host.echoed.Load(), th.host.screenWakes.Load())
}

// TestEchoesRacingTheSubscribersGoroutineStayInOrder: the reader's fast
// path and the subscriber's goroutine both send frames of a pane redrawing
// in place as fast as it can; the frames' seqs never go back and, applied
// in order, they give the pane's screen.
func TestEchoesRacingTheSubscribersGoroutineStayInOrder(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	watcher := th.dial()
	p := th.spawnFake(c, "ticks", "FAKE_COUNT=20000")
	c.waitText(p.ID, "READY")
	sub := watcher.subscribeScreen(p.ID)
	c.call(&proto.InputReq{Pane: p.ID, Keys: []string{"Enter"}})
	c.waitText(p.ID, "DONE")
	want := strings.TrimRight(c.screen(p.ID), "\n")
	frames := watcher.screenFramesUntil(sub, "DONE")
	for i := 1; i < len(frames); i++ {
		if frames[i].Seq < frames[i-1].Seq {
			t.Fatalf("frame %d of %d has seq %d, after %d", i, len(frames), frames[i].Seq, frames[i-1].Seq)
		}
	}
	if got := appliedText(frames); got != want {
		t.Fatalf("%d frames applied show\n%s\nthe screen is\n%s", len(frames), got, want)
	}
	t.Logf("%d frames, %d written by the reader", len(frames), th.host.echoed.Load())
}

// TestAStuckScreenSubscriberNeverStallsThePaneReader: a screen subscriber
// that reads nothing fills its socket with the reader's fast-path frames
// and its goroutine's; the pane's output is still read and parsed to its
// end, and the subscriber's connection stays (its goroutine waits, within
// the write timeout, not the reader).
func TestAStuckScreenSubscriberNeverStallsThePaneReader(t *testing.T) {
	th := startHost(t) // the default write timeout, far longer than the test
	c := th.dial()
	stuck := th.dial()
	p := th.spawnFake(c, "ticks", "FAKE_COUNT=300000")
	c.waitText(p.ID, "READY")
	stuck.subscribeScreen(p.ID)
	c.call(&proto.InputReq{Pane: p.ID, Keys: []string{"Enter"}})
	c.waitText(p.ID, "DONE")
	got, err := unreadBytes(fdOf(t, stuck.uc))
	t.Logf("unread %d %v echoed %d", got, err, th.host.echoed.Load())
	if n := c.call(&proto.HostStatusReq{}).(*proto.HostInfoReply).Clients; n != 2 {
		t.Fatalf("%d clients; the stuck one should still be connected", n)
	}
}

// allScreenFramesUntil appends to frames every screen frame pushed for sub,
// those kept while awaiting replies first, until the screen they give
// contains want.
func (c *tclient) allScreenFramesUntil(sub uint32, frames []*proto.ScreenFrame, want string) []*proto.ScreenFrame {
	c.t.Helper()
	for _, f := range c.pushes[sub] {
		frames = append(frames, decodeScreenFrame(c.t, f))
	}
	c.pushes[sub] = nil
	for !strings.Contains(appliedText(frames), want) {
		f, err := c.read(30 * time.Second)
		if err != nil {
			c.t.Fatalf("waiting for a frame showing %q: %v", want, err)
		}
		if f.Flags&proto.FlagPush != 0 && f.ReqID == sub {
			frames = append(frames, decodeScreenFrame(c.t, f))
		}
	}
	return frames
}

// decodeScreenFrame decodes a push that must be a screen frame.
func decodeScreenFrame(t *testing.T, f proto.Frame) *proto.ScreenFrame {
	t.Helper()
	m, err := f.Message()
	if err != nil {
		t.Fatalf("decode push: %v", err)
	}
	sf, ok := m.(*proto.ScreenFrame)
	if !ok {
		t.Fatalf("push %T; want a screen frame", m)
	}
	return sf
}
