package host

import (
	"strings"
	"testing"
	"time"

	"clowder/persist"
	"clowder/supervisor/proto"
)

// floodScript fills the screen, waits for a line, scrolls out a flood and
// marks its end, so every frame of the flood is a big one (it scrolls).
const floodScript = "seq 1 100; read x; seq 1 20000; echo FLOOD''END; exec cat"

// spawnSh starts sh -c script through the host.
func (th *testHost) spawnSh(c *tclient, script string) proto.PaneInfo {
	th.t.Helper()
	r := c.call(&proto.SpawnReq{Nonce: "sh" + time.Now().String(), Argv: []string{"sh", "-c", script}, Env: th.o.Env(), Kind: "run"})
	return r.(*proto.SpawnedReply).Pane
}

// subscribeScreen subscribes c to the pane's screen frames.
func (c *tclient) subscribeScreen(pane string) uint32 {
	c.t.Helper()
	sub := c.send(&proto.SubscribeReq{Pane: pane, Screen: true})
	if _, _, err := c.await(sub); err != nil {
		c.t.Fatalf("subscribe: %v", err)
	}
	return sub
}

// screenFramesToEnd unsubscribes sub and returns every screen frame pushed
// for it up to its end marker.
func (c *tclient) screenFramesToEnd(sub uint32) []*proto.ScreenFrame {
	c.t.Helper()
	var out []*proto.ScreenFrame
	take := func(f proto.Frame) {
		if m, err := f.Message(); err == nil {
			if sf, ok := m.(*proto.ScreenFrame); ok {
				out = append(out, sf)
			}
		}
	}
	for _, f := range c.pushes[sub] {
		take(f)
	}
	c.pushes[sub] = nil
	c.send(&proto.UnsubscribeReq{Sub: sub})
	for {
		f, err := c.read(30 * time.Second)
		if err != nil {
			c.t.Fatalf("waiting for the end of subscription %d: %v", sub, err)
		}
		if f.Flags&proto.FlagPush != 0 && f.ReqID == sub {
			if f.Flags&proto.FlagEnd != 0 {
				return out
			}
			take(f)
		}
	}
}

// TestHostPacesScreenFramesOfAFloodingPane pins issue 12: the host built
// and sent a screen frame per PTY read of a flood (150-400 per 20 MB); now,
// after a big frame, the next waits for the end of the period. With a
// period of an hour the whole flood is at most a few frames.
func TestHostPacesScreenFramesOfAFloodingPane(t *testing.T) {
	th := newTestHost(t)
	th.serve(persist.DefaultConfig(), func(h *Server) { h.framePeriod, h.frameSettle = time.Hour, time.Hour })
	c := th.dial()
	p := th.spawnSh(c, floodScript)
	c.waitText(p.ID, "(?m)^100$")
	sub := c.subscribeScreen(p.ID)
	c.call(&proto.InputReq{Pane: p.ID, Keys: []string{"Enter"}})
	c.waitText(p.ID, "FLOODEND")
	frames := c.screenFramesToEnd(sub)
	if len(frames) > 4 {
		t.Fatalf("a flood paced by an hour got %d screen frames; want the first full one, the first big one and at most two small ones", len(frames))
	}
}

// TestHostSendsTheLastPictureOfAFlood: paced frames never lose the final
// screen; the frames applied in order give the pane's screen once output
// stops.
func TestHostSendsTheLastPictureOfAFlood(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnSh(c, floodScript)
	c.waitText(p.ID, "(?m)^100$")
	sub := c.subscribeScreen(p.ID)
	c.call(&proto.InputReq{Pane: p.ID, Keys: []string{"Enter"}})
	c.waitText(p.ID, "FLOODEND")
	want := strings.TrimRight(c.screen(p.ID), "\n")
	c.screenFramesGiving(sub, want)
}

// screenFramesGiving reads sub's screen frames until, applied in order,
// they give the screen text want.
func (c *tclient) screenFramesGiving(sub uint32, want string) {
	c.t.Helper()
	var frames []*proto.ScreenFrame
	take := func(f proto.Frame) bool {
		if m, err := f.Message(); err == nil {
			if sf, ok := m.(*proto.ScreenFrame); ok {
				frames = append(frames, sf)
			}
		}
		return appliedText(frames) == want
	}
	for _, f := range c.pushes[sub] {
		if take(f) {
			return
		}
	}
	for {
		f, err := c.read(30 * time.Second)
		if err != nil {
			c.t.Fatalf("the frames give the screen\n%s\nwant\n%s\n(%v)", appliedText(frames), want, err)
		}
		if f.Flags&proto.FlagPush != 0 && f.ReqID == sub && take(f) {
			return
		}
	}
}

// TestHostSendsAnEchoAtOnceAfterQuiet: only a big frame paces the next,
// so with a period of an hour a key's echo still arrives.
func TestHostSendsAnEchoAtOnceAfterQuiet(t *testing.T) {
	th := newTestHost(t)
	th.serve(persist.DefaultConfig(), func(h *Server) { h.framePeriod = time.Hour })
	c := th.dial()
	p := th.spawnSh(c, "echo READY; exec cat")
	c.waitText(p.ID, "READY")
	sub := c.subscribeScreen(p.ID)
	c.call(&proto.InputReq{Pane: p.ID, Data: []byte("a")})
	c.screenFramesUntil(sub, "a")
	c.call(&proto.InputReq{Pane: p.ID, Data: []byte("b")})
	c.screenFramesUntil(sub, "ab")
}

// TestFramePaceWaitsOnlyAfterABigFrame: the pacing rule, on a given clock.
func TestFramePaceWaitsOnlyAfterABigFrame(t *testing.T) {
	t0 := time.Unix(1000, 0)
	fp := framePace{period: 16 * time.Millisecond}
	if w := fp.wait(t0); w != 0 {
		t.Fatalf("the first frame waits %v", w)
	}
	fp.sent(&proto.ScreenFrame{Lines: make([]proto.FrameRow, bigFrameRows)}, t0)
	if w := fp.wait(t0); w != 0 {
		t.Fatalf("a frame after a small one waits %v", w)
	}
	fp.sent(&proto.ScreenFrame{Full: true, Lines: make([]proto.FrameRow, 24)}, t0)
	if w := fp.wait(t0); w != 0 {
		t.Fatalf("a frame after a full one waits %v", w)
	}
	fp.sent(&proto.ScreenFrame{Lines: make([]proto.FrameRow, bigFrameRows+1)}, t0)
	if w := fp.wait(t0.Add(10 * time.Millisecond)); w != 6*time.Millisecond {
		t.Fatalf("a frame 10 ms after a big one waits %v, want 6ms", w)
	}
	if w := fp.wait(t0.Add(16 * time.Millisecond)); w != 0 {
		t.Fatalf("a frame a period after a big one (after quiet) waits %v", w)
	}
}

// appliedText applies frames in order and returns the screen's text, rows
// trimmed of trailing blanks, trailing empty rows dropped.
func appliedText(frames []*proto.ScreenFrame) string {
	var rows []string
	for _, f := range frames {
		if f.Full || len(rows) != int(f.Rows) {
			rows = make([]string, f.Rows)
		}
		for _, l := range f.Lines {
			var b strings.Builder
			for _, cell := range l.Cells {
				b.WriteString(cell.Text)
			}
			rows[l.Y] = strings.TrimRight(b.String(), " ")
		}
	}
	return strings.TrimRight(strings.Join(rows, "\n"), "\n")
}

// TestHostFlushesTheLastPictureWhenOutputStops pins issue 12's flush rule:
// a paced frame waited for the end of its period, so the last picture of a
// flood came from the period's timer. With a period of an hour it now
// comes once the pane has been quiet for the settle time.
func TestHostFlushesTheLastPictureWhenOutputStops(t *testing.T) {
	th := newTestHost(t)
	th.serve(persist.DefaultConfig(), func(h *Server) { h.framePeriod = time.Hour })
	c := th.dial()
	p := th.spawnSh(c, floodScript)
	c.waitText(p.ID, "(?m)^100$")
	sub := c.subscribeScreen(p.ID)
	c.call(&proto.InputReq{Pane: p.ID, Keys: []string{"Enter"}})
	c.waitText(p.ID, "FLOODEND")
	want := strings.TrimRight(c.screen(p.ID), "\n")
	c.screenFramesGiving(sub, want)
}
