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
