package host

import (
	"testing"
	"time"

	"clowder/supervisor/proto"
)

// TestRawSubscriptionFromPastTheEndStartsAtTheEnd pins a trial-4 bug: a
// raw subscription from a seq the ring has not reached (a client's seq of
// another host's ring, or a bad value) was answered as accepted and then
// got no output at all, however much the pane wrote, until the ring came
// up to that seq. It starts at the end the reply names.
func TestRawSubscriptionFromPastTheEndStartsAtTheEnd(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFake(c, "keys")
	c.waitText(p.ID, "READY")
	sub := th.dial()
	id := sub.send(&proto.SubscribeReq{Pane: p.ID, Raw: true, FromSeq: 1 << 62})
	r, _, err := sub.await(id)
	if err != nil {
		t.Fatal(err)
	}
	end := r.(*proto.SubscribedReply).Seq
	c.call(&proto.InputReq{Pane: p.ID, Data: []byte("z")})
	c.waitText(p.ID, "IN 7a")
	for len(sub.pushes[id]) == 0 {
		f, err := sub.read(30 * time.Second)
		if err != nil {
			t.Fatalf("no output pushed after the pane wrote: %v", err)
		}
		if f.Flags&proto.FlagPush != 0 {
			sub.pushes[f.ReqID] = append(sub.pushes[f.ReqID], f)
		}
	}
	m, err := sub.pushes[id][0].Message()
	if err != nil {
		t.Fatal(err)
	}
	if ch := m.(*proto.OutputChunk); ch.Seq != end {
		t.Errorf("first chunk at %d, want the end %d the reply named", ch.Seq, end)
	}
}
