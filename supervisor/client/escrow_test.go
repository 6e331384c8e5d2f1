//go:build linux

package client

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"clowder/supervisor/proto"
)

// TestRedialerKeepsALiveConnection: a connection whose host answers is
// kept; nothing is dialled.
func TestRedialerKeepsALiveConnection(t *testing.T) {
	c, srv := clientPair(t)
	r := NewRedialer(c, func(context.Context) (*Client, error) {
		t.Error("dialled while the connection was up")
		return nil, errors.New("no")
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	go func() {
		f, _ := srv.next()
		srv.reply(f.ReqID, &proto.HostInfoReply{Pid: 1})
	}()
	if r.Probe(ctx) {
		t.Fatal("Probe called a live connection lost")
	}
	if swapped, err := r.Reconnect(ctx); swapped || err != nil || r.Client() != c {
		t.Fatalf("Reconnect on a live connection: %v, %v", swapped, err)
	}
}

// TestRedialerHandsHeldMastersToTheNextHost: after the host hung up, Probe
// says so, Reconnect dials a new connection, and HandBack sends each held
// master with its request, reporting the one the host refused; the caller
// still owns the masters.
func TestRedialerHandsHeldMastersToTheNextHost(t *testing.T) {
	old, dead := clientPair(t)
	next, srv := clientPair(t)
	r := NewRedialer(old, func(context.Context) (*Client, error) { return next, nil })
	dead.hangUp()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if !r.Probe(ctx) {
		t.Fatal("Probe missed the hung-up connection")
	}
	if swapped, err := r.Reconnect(ctx); !swapped || err != nil || r.Client() != next {
		t.Fatalf("Reconnect after the host hung up: %v, %v", swapped, err)
	}
	a, b := heldPipe(t), heldPipe(t)
	held := []Held{
		{Req: EscrowRequest(proto.PaneInfo{ID: "p1", Pid: 10, PidStart: 11}, nil), Master: a},
		{Req: EscrowRequest(proto.PaneInfo{ID: "p2", Pid: 20, PidStart: 21}, nil), Master: b},
	}
	go func() {
		for _, refuse := range []bool{false, true} {
			f, m := srv.next()
			proto.CloseFds(f.Fds)
			req := m.(*proto.EscrowReq)
			if len(f.Fds) != 1 || req.Pid == 0 {
				t.Errorf("escrow of %s came with %d fds, pid %d", req.Pane, len(f.Fds), req.Pid)
			}
			if refuse {
				srv.reply(f.ReqID, &proto.ErrorReply{Code: proto.CodeIdentity, Message: "not that pane"})
				continue
			}
			srv.reply(f.ReqID, &proto.EscrowedReply{Pane: proto.PaneInfo{ID: req.Pane}})
		}
	}()
	errs := HandBack(ctx, r, held, 5*time.Second)
	if len(errs) != 1 || errs["p2"] == nil {
		t.Fatalf("HandBack's refusals: %v; want p2's alone", errs)
	}
	if _, err := a.Write([]byte("x")); err != nil {
		t.Fatalf("HandBack closed a master the caller owns: %v", err)
	}
}

// heldPipe is a pipe's write end standing for a held master (any fd
// passes).
func heldPipe(t *testing.T) *Master {
	t.Helper()
	rd, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	m, err := MasterOf(w)
	_ = w.Close()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rd.Close(); _ = m.Close() })
	return m
}
