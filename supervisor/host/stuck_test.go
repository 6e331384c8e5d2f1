package host

import (
	"testing"
	"time"

	"clowder/persist"
	"clowder/supervisor/proto"
)

// TestAStuckClientsOtherPaneStillEchoes: a client that stops reading, its
// socket full of one pane's output, also watches the screen of a second
// pane; the second pane's keys still echo, at once, to another client
// watching it. Its reader meets the stuck client first (it subscribed
// first) and must pass over it: a reader that waited on the stuck
// client's socket, within the write timeout (an hour here), would stall
// that pane for every client.
func TestAStuckClientsOtherPaneStillEchoes(t *testing.T) {
	th := newTestHost(t)
	th.serve(persist.DefaultConfig(), func(h *Server) { h.opts.WriteTimeout = time.Hour })
	c := th.dial()
	stuck := th.dial()
	echo := th.spawnSh(c, "stty raw -echo; printf READY; exec cat")
	c.waitText(echo.ID, "READY")
	stuck.subscribeScreen(echo.ID)
	size := moreThanASocketHolds(t, stuck)
	flood := th.spawnFake(c, "stream", "FAKE_BYTES="+itoa(size))
	stuck.send(&proto.SubscribeReq{Pane: flood.ID, Raw: true})
	waitFull(t, stuck, 64<<10)

	watcher := th.dial()
	sub := watcher.subscribeScreen(echo.ID)
	typed := "READY"
	var frames []*proto.ScreenFrame
	for i := 0; i < 20; i++ {
		k := string(rune('a' + i))
		typed += k
		c.call(&proto.InputReq{Pane: echo.ID, Data: []byte(k)})
		frames = watcher.allScreenFramesUntil(sub, frames, typed)
	}
	if n := c.call(&proto.HostStatusReq{}).(*proto.HostInfoReply).Clients; n != 3 {
		t.Fatalf("%d clients; the stuck one should still be connected", n)
	}
	_ = stuck.uc.Close()
}
