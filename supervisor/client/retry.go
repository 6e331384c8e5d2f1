// This file carries a Client's requests across a host that goes away
// under them (docs/protocol.md, "Upgrade window"). A host upgrading in
// place answers every request it will not execute with CodeUpgrading and
// ends each connection with an upgrade notice, after which any request
// still unanswered was never executed: such a request is sent again, on a
// new connection, once the new host answers; input and paste included,
// it runs exactly once. A connection that ends with no notice (the host
// crashed or was killed) leaves unanswered requests in doubt: only those
// that are safe to repeat (list, capture, history, status, wait, resize,
// and signal or kill by verified identity) are sent again; the others
// fail with a *HostGoneError that says what may not have been done.
// A connection that ends with the host's stop notice (or a dial whose
// hello a stopping host answered shutting-down) sends nothing again and
// waits for no host: its requests fail with ErrHostStopped, which
// matches ErrNoHost (docs/protocol.md, "Stop notice").
//
// A Client made by Dial or Connect sends again what the host did not run;
// the repeats after a crash need RetryAcrossHostLoss (the CLI sets it; the
// TUI, which recovers from a crash by itself, does not). It connects
// again the same way it was made (Connect may start a host), and later
// requests go to the new connection (live).

package client

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"clowder/supervisor/proto"
)

// ErrNotExecuted matches (errors.Is) the error of a request the host did
// not execute and never will: it refused it while upgrading in place, or
// the connection ended after its upgrade notice with the request
// unanswered, or it was never sent. Sending it again is safe.
var ErrNotExecuted = errors.New("the host did not execute the request")

// reconnectWait bounds how long a request waits for a host to serve again
// after its connection was lost: an upgrade takes well under it even on a
// loaded machine, and a crashed host restarted by someone else too.
const reconnectWait = 20 * time.Second

// maxRetries bounds how often one request is sent again (one per
// upgrade it meets).
const maxRetries = 10

// redialer makes a new connection the way the Client was made.
type redialer func(context.Context) (*Client, error)

// HostGoneError is a request whose connection ended before the host
// answered, when sending it again was not safe or not possible.
type HostGoneError struct {
	Req      proto.Message // the request
	Executed bool          // false: the host certainly did not execute it
	Cause    error         // the connection's end, or why connecting again failed
}

func (e *HostGoneError) Error() string {
	if !e.Executed {
		return fmt.Sprintf("the clowder host went away (upgrading or restarting) and did not run this %s; it could not be sent again: %v", e.Req.MsgType(), oneLine(e.Cause))
	}
	switch r := e.Req.(type) {
	case proto.InputReq:
		return fmt.Sprintf("the clowder host went away before answering; the input may not have been delivered to %s: check with clowder capture %s", r.Pane, r.Pane)
	case proto.PasteReq:
		return fmt.Sprintf("the clowder host went away before answering; the paste may not have been delivered to %s: check with clowder capture %s", r.Pane, r.Pane)
	}
	return fmt.Sprintf("the clowder host went away before answering this %s, which may or may not have been done: check with clowder ls", e.Req.MsgType())
}

// Unwrap keeps the cause matchable (ErrConnectionLost, ErrNoHost, ...).
func (e *HostGoneError) Unwrap() error { return e.Cause }

// oneLine is err's text, or "-" for none.
func oneLine(err error) string {
	if err == nil {
		return "-"
	}
	return err.Error()
}

// notExecuted reports whether err says the host did not execute the
// request.
func notExecuted(err error) bool {
	return errors.Is(err, ErrNotExecuted) || errors.Is(err, &proto.ErrorReply{Code: proto.CodeUpgrading})
}

// safeToRepeat reports whether req may be sent again when it is unknown
// whether the host executed it.
func safeToRepeat(req proto.Message) bool {
	switch r := req.(type) {
	case proto.ListReq, proto.CaptureReq, proto.HistoryReq, proto.HostStatusReq, proto.WaitReq, proto.ResizeReq:
		return true
	case proto.SignalReq:
		return r.Pid != 0
	case proto.KillReq:
		return r.Pid != 0
	}
	return false
}

// retryable reports whether req, which failed with err, is sent again;
// inDoubt allows requests the host may have run, if safe to repeat.
func retryable(req proto.Message, err error, inDoubt bool) bool {
	if _, ok := req.(proto.UpgradeReq); ok {
		return false // a second upgrade is not what was asked
	}
	if errors.Is(err, ErrHostStopped) {
		return false // the host said it is stopping: none to wait for
	}
	if notExecuted(err) {
		return true
	}
	return inDoubt && errors.Is(err, ErrConnectionLost) && !errors.Is(err, ErrClientClosed) && safeToRepeat(req)
}

// RetryAcrossHostLoss makes c also send again, on a new connection,
// requests whose connection ended with no answer and no upgrade notice
// (the host crashed) when they are safe to repeat, wait for a host to
// serve again for that (reconnectWait), and report the others as a
// *HostGoneError. Without it, a Client made by Dial or Connect sends again
// only what the host said it did not run (an upgrade). The CLI sets it;
// the TUI, which recovers from a crash by itself, does not.
func (c *Client) RetryAcrossHostLoss() { c.retry.Store(true) }

// retrying reports whether c sends requests again on a new connection
// after a crash (RetryAcrossHostLoss).
func (c *Client) retrying() bool { return c.redial != nil && c.retry.Load() }

// live is the connection requests go to: the newest one made after this
// one was lost, or this one.
func (c *Client) live() *Client {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.next != nil {
		return c.next
	}
	return c
}

// callAgain sends req on cur and, while it fails in a way that allows it,
// on a new connection.
func (c *Client) callAgain(ctx context.Context, cur *Client, req proto.Message) (proto.Message, []*os.File, error) {
	start := time.Now()
	m, files, err := cur.callOnce(ctx, req)
	repeated := false // sent again although the host may have run it
	for tries := 0; err != nil && c.redial != nil && ctx.Err() == nil && retryable(req, err, c.retrying()); tries++ {
		if tries == maxRetries {
			return nil, nil, &HostGoneError{Req: req, Executed: !notExecuted(err), Cause: err}
		}
		var again proto.Message
		if again, err = remaining(req, start); err != nil {
			return nil, nil, err
		}
		prev := err
		if cur, err = c.reconnect(ctx, cur); err != nil {
			return nil, nil, &HostGoneError{Req: req, Executed: !notExecuted(prev), Cause: err}
		}
		repeated = repeated || !notExecuted(prev)
		m, files, err = cur.callOnce(ctx, again)
	}
	if repeated && doneBefore(req, err) {
		return &proto.OKReply{}, nil, nil
	}
	if err != nil && c.retrying() && errors.Is(err, ErrConnectionLost) && !errors.Is(err, ErrClientClosed) {
		err = &HostGoneError{Req: req, Executed: !notExecuted(err), Cause: err}
	}
	return m, files, err
}

// doneBefore reports whether err, the answer to a kill sent again after
// the host died under the first one, says the process the kill named is
// gone: killed by the first, or dead anyway, which is what was asked.
func doneBefore(req proto.Message, err error) bool {
	_, kill := req.(proto.KillReq)
	return kill && (errors.Is(err, &proto.ErrorReply{Code: proto.CodeExited}) || errors.Is(err, &proto.ErrorReply{Code: proto.CodeIdentity}))
}

// remaining is req to send again start later: a wait keeps its overall
// deadline, and one whose deadline passed meanwhile times out.
func remaining(req proto.Message, start time.Time) (proto.Message, error) {
	w, ok := req.(proto.WaitReq)
	if !ok || w.TimeoutMS <= 0 {
		return req, nil
	}
	left := time.Duration(w.TimeoutMS)*time.Millisecond - time.Since(start)
	if left <= 0 {
		return nil, &proto.ErrorReply{Code: proto.CodeTimeout, Message: fmt.Sprintf("pane %s: the wait timed out after %s", w.Pane, time.Duration(w.TimeoutMS)*time.Millisecond)}
	}
	w.TimeoutMS = max(1, left.Milliseconds())
	return w, nil
}

// reconnect returns a live connection other than dead: one another call
// made meanwhile, or a new one, dialled until a host answers (at most
// reconnectWait). A dead connection that still runs (the host refused a
// request while upgrading) is first waited out: the upgrade notice ends
// it just before the exec. If it lives on past reconnectWait (the
// upgrade failed), it is used again.
func (c *Client) reconnect(ctx context.Context, dead *Client) (*Client, error) {
	if !dead.ended(ctx) {
		return dead, nil
	}
	c.redialMu.Lock()
	defer c.redialMu.Unlock()
	if cur := c.live(); cur != dead && cur.Err() == nil {
		return cur, nil
	}
	nc, err := c.dialAgain(ctx)
	if err != nil {
		return nil, err
	}
	nc.timeouts.Store(c.timeouts.Load())
	c.mu.Lock()
	old, closed := c.next, c.closed
	if !closed {
		c.next = nc
	}
	c.mu.Unlock()
	if closed {
		_ = nc.Close() // best effort: Close ran meanwhile
		return nil, fmt.Errorf("%w: %w", ErrConnectionLost, ErrClientClosed)
	}
	if old != nil {
		_ = old.Close() // best effort: it is dead
	}
	return nc, nil
}

// ended waits for the connection to end, at most reconnectWait; it
// reports whether it did.
func (c *Client) ended(ctx context.Context) bool {
	t := time.NewTimer(reconnectWait)
	defer t.Stop()
	select {
	case <-c.Done():
		return true
	case <-ctx.Done():
		return true // the caller sees ctx's error on its next call
	case <-t.C:
		return false
	}
}

// dialAgain dials with c.redial until a host answers, ctx ends or
// reconnectWait passes; only "no host" is waited out.
func (c *Client) dialAgain(ctx context.Context) (*Client, error) {
	ctx, cancel := context.WithTimeout(ctx, reconnectWait)
	defer cancel()
	if c.noStart.Load() {
		ctx = StartOnlyIf(ctx, never)
	}
	delay := 10 * time.Millisecond
	for {
		nc, err := c.redial(ctx)
		if err == nil || !errors.Is(err, ErrNoHost) || errors.Is(err, ErrHostStopped) {
			return nc, err
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("no clowder host answered within %s: %w", reconnectWait, err)
		case <-time.After(delay):
		}
		delay = min(2*delay, 200*time.Millisecond)
	}
}
