package host

import (
	"testing"

	"clowder/supervisor/proto"
)

// TestCaptureAnswersWithATextBodyWhenAsked pins issue 12 (capture
// --scrollback 10000 was 1.6x tmux): the text went as a JSON string, which
// the host escaped and the client validated and unescaped byte by byte. A
// capture with TextBody is answered with captured-text, the same fields
// with the text as raw bytes; without it the answer is captured, as
// before, so old clients keep working.
func TestCaptureAnswersWithATextBodyWhenAsked(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	r := c.call(&proto.SpawnReq{Nonce: "captext", Argv: []string{"sh", "-c", `printf 'one\ttab "quoted" \\ back\nt\303\251l\303\251\n'; seq 1 30; echo done; exec sleep 60`},
		Env: th.o.Env()}).(*proto.SpawnedReply)
	c.waitText(r.Pane.ID, "done")
	for _, sb := range []int{0, 100} {
		old := c.call(&proto.CaptureReq{Pane: r.Pane.ID, Scrollback: sb}).(*proto.CapturedReply)
		got, ok := c.call(&proto.CaptureReq{Pane: r.Pane.ID, Scrollback: sb, TextBody: true}).(*proto.CapturedText)
		if !ok {
			t.Fatalf("scrollback %d: a capture asking for a text body was not answered with captured-text", sb)
		}
		if got.Reply() != *old {
			t.Fatalf("scrollback %d: captured-text %+v differs from captured %+v", sb, got.Reply(), *old)
		}
	}
}
