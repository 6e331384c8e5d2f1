//go:build linux

package client

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"clowder/supervisor/proto"
)

// reconnectingPair is a client on a first fake host whose reconnection
// reaches a second one; dials counts the reconnections.
func reconnectingPair(t *testing.T) (c *Client, first, second *fakeServer, dials *atomic.Int32) {
	c, first = clientPair(t)
	c2, second := clientPair(t)
	dials = new(atomic.Int32)
	c.RetryAcrossHostLoss()
	c.redial = func(context.Context) (*Client, error) {
		dials.Add(1)
		return c2, nil
	}
	return c, first, second, dials
}

// notice sends the host's upgrade notice and hangs up, as an upgrading
// host does at its exec.
func (s *fakeServer) notice() {
	s.send(0, proto.FlagPush|proto.FlagEnd, &proto.ErrorReply{Code: proto.CodeUpgrading, Message: "upgrading"})
	s.hangUp()
}

// TestClientResendsInputTheUpgradingHostDidNotRun proves issue 10 §2's
// exactly-once for the client: an input the upgrading host refused
// (CodeUpgrading), and one it had not answered when its upgrade notice
// came, are each sent once more, to the new host. Regression: both failed
// with "connection to the host lost" and the keys were lost.
func TestClientResendsInputTheUpgradingHostDidNotRun(t *testing.T) {
	for _, refused := range []bool{true, false} {
		c, first, second, _ := reconnectingPair(t)
		errc := make(chan error, 1)
		go func() { errc <- c.Input(context.Background(), proto.InputReq{Pane: "p1", Data: []byte("x")}) }()
		f, _ := first.next()
		if refused {
			first.reply(f.ReqID, &proto.ErrorReply{Code: proto.CodeUpgrading, Message: "not executed"})
		}
		first.notice()
		f, m := second.next()
		if in, ok := m.(*proto.InputReq); !ok || string(in.Data) != "x" {
			t.Fatalf("refused=%v: the new host got %#v; want the input", refused, m)
		}
		second.reply(f.ReqID, proto.OKReply{})
		within(t, "Input", func() {
			if err := <-errc; err != nil {
				t.Errorf("refused=%v: Input across the upgrade: %v", refused, err)
			}
		})
	}
}

// TestClientNeverRepeatsInputLostInACrash proves that an input whose
// connection ended with no answer and no upgrade notice (a host crash) is
// not sent again, since it may have run, and that the error says so in
// one plain line; a list in the same case is sent again and answered.
func TestClientNeverRepeatsInputLostInACrash(t *testing.T) {
	c, first, second, dials := reconnectingPair(t)
	errc := make(chan error, 1)
	go func() { errc <- c.Input(context.Background(), proto.InputReq{Pane: "p1", Data: []byte("x")}) }()
	first.next()
	first.hangUp()
	within(t, "Input", func() {
		err := <-errc
		var gone *HostGoneError
		if !errors.As(err, &gone) || !strings.Contains(err.Error(), "the input may not have been delivered") || strings.Contains(err.Error(), "\n") {
			t.Errorf("Input lost in a crash: %v; want one line saying the input may not have been delivered", err)
		}
	})
	if dials.Load() != 0 {
		t.Fatalf("the input was sent again after a crash (%d reconnections)", dials.Load())
	}
	listc := make(chan error, 1)
	go func() { _, err := c.List(context.Background()); listc <- err }()
	f, m := second.next()
	if _, ok := m.(*proto.ListReq); !ok {
		t.Fatalf("the new host got %#v; want the list", m)
	}
	second.reply(f.ReqID, &proto.PaneListReply{})
	within(t, "List", func() {
		if err := <-listc; err != nil {
			t.Errorf("List after the crash: %v", err)
		}
	})
}

// TestClientWaitKeepsItsDeadlineAcrossAnUpgrade proves that a wait sent
// again after an upgrade asks only for the time it had left, so that the
// overall deadline stays the one asked for.
func TestClientWaitKeepsItsDeadlineAcrossAnUpgrade(t *testing.T) {
	c, first, second, _ := reconnectingPair(t)
	const ms = 600_000
	start := time.Now()
	errc := make(chan error, 1)
	go func() {
		_, err := c.Wait(context.Background(), proto.WaitReq{Pane: "p1", Text: "x", TimeoutMS: ms})
		errc <- err
	}()
	f, _ := first.next()
	first.reply(f.ReqID, &proto.ErrorReply{Code: proto.CodeUpgrading, Message: "not executed"})
	gone := time.Since(start) // at least this much of the wait had passed when the client sent it again
	first.notice()
	f, m := second.next()
	w, ok := m.(*proto.WaitReq)
	if left := ms - gone.Milliseconds(); !ok || w.TimeoutMS <= 0 || w.TimeoutMS > left || w.Text != "x" {
		t.Fatalf("the new host got %#v; want the same wait with at most %d ms left", m, left)
	}
	second.reply(f.ReqID, &proto.WaitDoneReply{Met: "text", Match: "x"})
	within(t, "Wait", func() {
		if err := <-errc; err != nil {
			t.Errorf("Wait across the upgrade: %v", err)
		}
	})
}
