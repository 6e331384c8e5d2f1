package host

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"clowder/supervisor/proto"
)

// collectFrames reads c's screen frames for sub on a goroutine of its
// own, onto the returned channel, until the connection ends.
func collectFrames(c *tclient, sub uint32) <-chan *proto.ScreenFrame {
	out := make(chan *proto.ScreenFrame, 1<<16)
	go func() {
		defer close(out)
		for {
			f, err := c.read(time.Hour)
			if err != nil {
				return
			}
			if f.Flags&proto.FlagPush == 0 || f.ReqID != sub {
				continue
			}
			if m, err := f.Message(); err == nil {
				if sf, ok := m.(*proto.ScreenFrame); ok {
					out <- sf
				}
			}
		}
	}()
	return out
}

// framesUntilScreen takes frames from in until, applied in order, they
// show want, and checks their seqs never go back.
func framesUntilScreen(t *testing.T, name string, in <-chan *proto.ScreenFrame, want string) {
	t.Helper()
	var frames []*proto.ScreenFrame
	timeout := time.After(60 * time.Second)
	for appliedText(frames) != want {
		select {
		case f, ok := <-in:
			if !ok {
				t.Fatalf("%s: the connection ended at %d frames showing\n%s\nthe screen is\n%s", name, len(frames), appliedText(frames), want)
			}
			if n := len(frames); n > 0 && f.Seq < frames[n-1].Seq {
				t.Fatalf("%s: frame %d has seq %d after %d", name, n, f.Seq, frames[n-1].Seq)
			}
			frames = append(frames, f)
		case <-timeout:
			t.Fatalf("%s: %d frames applied show\n%s\nthe screen is\n%s", name, len(frames), appliedText(frames), want)
		}
	}
}

// echoStep is the input typed at step i into a pane that writes its input
// back raw: text, with an alternate screen or a synchronized update opened
// or closed now and then, and new lines.
func echoStep(i int) string {
	s := fmt.Sprintf("k%d ", i)
	switch i % 23 {
	case 3:
		s = "\x1b[?1049h" + s
	case 9:
		s += "\x1b[?1049l"
	case 5:
		s = "\x1b[?2026h" + s
	case 7:
		s += "\x1b[?2026l"
	case 11, 17:
		s += "\r\n"
	}
	return s
}

// Three screen subscribers of one pane, two reading as frames come and
// one reading nothing until the end, while keys echo with alternate
// screen switches, synchronized updates and resizes between them: each
// ends showing the pane's screen, its frames' seqs never going back.
func TestThreeSubscribersEndShowingThePaneAcrossResizesAndModes(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnSh(c, "stty raw -echo; printf READY; exec cat")
	c.waitText(p.ID, "READY")
	fast1, fast2, slow := th.dial(), th.dial(), th.dial()
	in1 := collectFrames(fast1, fast1.subscribeScreen(p.ID))
	in2 := collectFrames(fast2, fast2.subscribeScreen(p.ID))
	slowSub := slow.subscribeScreen(p.ID)
	inSlow := (<-chan *proto.ScreenFrame)(nil)
	sizes := [][2]uint16{{80, 24}, {60, 20}, {100, 30}, {40, 10}}
	for i := 0; i < 400; i++ {
		c.call(&proto.InputReq{Pane: p.ID, Data: []byte(echoStep(i))})
		if i%37 == 0 {
			sz := sizes[(i/37)%len(sizes)]
			c.call(&proto.ResizeReq{Pane: p.ID, Cols: sz[0], Rows: sz[1]})
		}
	}
	c.call(&proto.InputReq{Pane: p.ID, Data: []byte("\x1b[?2026l\x1b[?1049lEND")})
	c.waitText(p.ID, "END")
	want := strings.TrimRight(c.screen(p.ID), "\n")
	inSlow = collectFrames(slow, slowSub)
	framesUntilScreen(t, "first", in1, want)
	framesUntilScreen(t, "second", in2, want)
	framesUntilScreen(t, "slow", inSlow, want)
	t.Logf("%d frames written by the reader", th.host.echoed.Load())
}

// Of three screen subscribers of a pane echoing keys, one disconnects
// while frames go to it (the reader's and its goroutine's): the two others
// end showing the pane, and the host keeps serving.
func TestASubscriberLeavingMidEchoesLeavesTheOthersWhole(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnSh(c, "stty raw -echo; printf READY; exec cat")
	c.waitText(p.ID, "READY")
	stay1, stay2, leaver := th.dial(), th.dial(), th.dial()
	in1 := collectFrames(stay1, stay1.subscribeScreen(p.ID))
	in2 := collectFrames(stay2, stay2.subscribeScreen(p.ID))
	leaver.subscribeScreen(p.ID)
	for i := 0; i < 300; i++ {
		c.call(&proto.InputReq{Pane: p.ID, Data: []byte(echoStep(i))})
		if i == 150 {
			_ = leaver.uc.Close()
		}
	}
	c.call(&proto.InputReq{Pane: p.ID, Data: []byte("\x1b[?2026l\x1b[?1049lEND")})
	c.waitText(p.ID, "END")
	want := strings.TrimRight(c.screen(p.ID), "\n")
	framesUntilScreen(t, "first", in1, want)
	framesUntilScreen(t, "second", in2, want)
	eventually(t, "the leaver's connection gone", func() bool {
		return c.call(&proto.HostStatusReq{}).(*proto.HostInfoReply).Clients == 3
	})
}
