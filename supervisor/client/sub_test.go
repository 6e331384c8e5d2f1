package client

import (
	"errors"
	"testing"

	"clowder/supervisor/proto"
)

// TestSubscriptionSurfacesADrop: the client library turns the host's error
// end frame into an error a consumer can tell apart.
func TestSubscriptionSurfacesADrop(t *testing.T) {
	s := newSubscription(nil, 7, 0)
	s.push(&proto.ErrorReply{Code: proto.CodeDropped, Message: "fell behind"})
	s.hostEnded(nil)
	for range s.C {
	}
	if err := s.Err(); !errors.Is(err, ErrSubscriptionDropped) || !errors.Is(err, &proto.ErrorReply{Code: proto.CodeDropped}) {
		t.Fatalf("Err() = %v", err)
	}
}

// TestSubscriptionEndingWellDeliversOnlyPushes: the host ends a finished
// subscription with an ok frame; C carries only output, screens and
// events, so that frame is not delivered. Regression: consumers received a
// *proto.OKReply on C, which C's contract does not name.
func TestSubscriptionEndingWellDeliversOnlyPushes(t *testing.T) {
	s := newSubscription(nil, 7, 0)
	s.push(&proto.OutputChunk{Seq: 0, Data: []byte("hi")})
	s.push(&proto.OKReply{})
	s.hostEnded(nil)
	var got []proto.Message
	for m := range s.C {
		got = append(got, m)
	}
	if len(got) != 1 {
		t.Fatalf("C delivered %d messages (%#v), want the one output chunk", len(got), got)
	}
	if err := s.Err(); err != nil {
		t.Fatalf("Err() = %v after a clean end", err)
	}
}
