//go:build linux

package client

import (
	"context"
	"strings"
	"testing"
	"time"

	"clowder/supervisor/proto"
)

// A paste into a program that reads it steadily but slowly (the host
// writes each part as fast as the program takes it) failed once one part
// took longer than the request's deadline: the 4 MiB parts needed a
// program reading 280 KB/s for the CLI's 15 s, and a slower one got
// "the clowder host did not answer paste within 15s; it may be stopped"
// while the host went on writing the part (a retry pasted it twice).
// Parts of 256 KiB need 17 KB/s; here, a 3 MiB paste read at 1 MiB/s
// against a 2 s deadline for each request.
func TestPasteToASteadySlowProgramFinishesEveryPartWithinItsDeadline(t *testing.T) {
	c, srv := clientPair(t)
	c.SetCallTimeouts(func(proto.Message) time.Duration { return 2 * time.Second })
	const rate = 1 << 20 // bytes per second the program reads
	text := strings.Repeat("a", 3<<20)
	done := make(chan error, 1)
	go func() { done <- c.Paste(context.Background(), proto.PasteReq{Pane: "p1", Data: []byte(text)}) }()
	for got := 0; got < len(text); {
		f, m := srv.next()
		req, ok := m.(*proto.PasteReq)
		if !ok {
			t.Fatalf("request %T", m)
		}
		time.Sleep(time.Duration(len(req.Data)) * time.Second / rate) // the program's pace, as the host writes the part
		got += len(req.Data)
		srv.reply(f.ReqID, &proto.OKReply{})
	}
	if err := <-done; err != nil {
		t.Fatalf("paste: %v", err)
	}
}
