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

// fakeSync draws one screen inside a synchronized update, in two writes
// with a line of input between them, as an agent's frame split across PTY
// reads arrives at the host.
func fakeSync() int {
	fmt.Println("READY")
	in := bufio.NewScanner(os.Stdin)
	in.Scan()
	os.Stdout.WriteString("\x1b[?2026h\x1b[2J\x1b[HHALF")
	in.Scan()
	os.Stdout.WriteString("\x1b[HDONE\x1b[?2026l")
	return testproc.Block()
}

// fakeSyncStuck begins a synchronized update and never ends it.
func fakeSyncStuck() int {
	fmt.Println("READY")
	bufio.NewScanner(os.Stdin).Scan()
	os.Stdout.WriteString("\x1b[?2026h\x1b[2J\x1b[HSTUCK")
	return testproc.Block()
}

// TestHostHoldsFramesInsideSynchronizedUpdate pins issue 8: a screen
// subscriber was sent the half-drawn screen of a synchronized update (mode
// 2026); now it gets the screen only once the update ends.
func TestHostHoldsFramesInsideSynchronizedUpdate(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFake(c, "sync")
	c.waitText(p.ID, "READY")
	sub := c.send(&proto.SubscribeReq{Pane: p.ID, Screen: true})
	if _, _, err := c.await(sub); err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	c.call(&proto.InputReq{Pane: p.ID, Data: []byte("a"), Keys: []string{"Enter"}})
	c.waitText(p.ID, "HALF") // the host's screen has the half frame; a subscriber must not
	c.call(&proto.InputReq{Pane: p.ID, Data: []byte("b"), Keys: []string{"Enter"}})
	for _, f := range c.screenFramesUntil(sub, "DONE") {
		if text := frameText(f); strings.Contains(text, "HALF") {
			t.Fatalf("a subscriber got a frame from inside the synchronized update:\n%s", text)
		}
	}
}

// TestHostReleasesAStuckSynchronizedUpdate: a program that never ends its
// update has its screen shown after syncHoldMax, with no further output.
func TestHostReleasesAStuckSynchronizedUpdate(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFake(c, "sync-stuck")
	c.waitText(p.ID, "READY")
	sub := c.send(&proto.SubscribeReq{Pane: p.ID, Screen: true})
	if _, _, err := c.await(sub); err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	c.call(&proto.InputReq{Pane: p.ID, Data: []byte("a"), Keys: []string{"Enter"}})
	frames := c.screenFramesUntil(sub, "STUCK")
	if last := frames[len(frames)-1]; last.Modes.Flags&proto.ModeSyncOutput == 0 {
		t.Fatalf("the released frame does not show the update still open: %+v", last.Modes)
	}
}

// screenFramesUntil returns the screen frames pushed for sub, those kept
// while awaiting replies first, up to the first whose rows contain want.
func (c *tclient) screenFramesUntil(sub uint32, want string) []*proto.ScreenFrame {
	c.t.Helper()
	var out []*proto.ScreenFrame
	take := func(f proto.Frame) bool {
		m, err := f.Message()
		if err != nil {
			c.t.Fatalf("decode push: %v", err)
		}
		sf, ok := m.(*proto.ScreenFrame)
		if !ok {
			return false
		}
		out = append(out, sf)
		return strings.Contains(frameText(sf), want)
	}
	for _, f := range c.pushes[sub] {
		if take(f) {
			return out
		}
	}
	for {
		f, err := c.read(30 * time.Second)
		if err != nil {
			c.t.Fatalf("waiting for a frame showing %q: %v", want, err)
		}
		if f.Flags&proto.FlagPush != 0 && f.ReqID == sub && take(f) {
			return out
		}
	}
}

// frameText is the text of the rows a frame carries.
func frameText(f *proto.ScreenFrame) string {
	var b strings.Builder
	for _, row := range f.Lines {
		for _, cell := range row.Cells {
			b.WriteString(cell.Text)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
