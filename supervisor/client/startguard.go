package client

// This file lets a client that reconnects only to hand held PTY masters
// back (the TUI, attach: escrow.go) say when a host is worth starting: a
// deliberate `host stop --force` kills every pane before the host exits,
// so by the time a slow client sees its connection end, the panes it held
// may all be dead, and starting a host for them would bring one back
// behind the user's back.

import (
	"context"
	"errors"
)

// ErrNoHostNeeded is Connect's error under StartOnlyIf when no host runs
// and need said that none is worth starting; it matches ErrNoHost too.
var ErrNoHostNeeded = errors.New("the host stopped and no pane runs: nothing to hand back, so no host was started (`clowder host` starts one)")

// startGuardKey keys the need of StartOnlyIf in a context.
type startGuardKey struct{}

// StartOnlyIf makes Connect (and a Redialer's Reconnect through it) start
// a host under ctx only if need says yes at that moment, after dialling
// found none: a host already running is always used. need is asked at
// the last step, so what it checks (a held pane's leader still running)
// is as fresh as can be.
func StartOnlyIf(ctx context.Context, need func() bool) context.Context {
	return context.WithValue(ctx, startGuardKey{}, need)
}

// mayStart reports whether Connect may start a host under ctx.
func mayStart(ctx context.Context) bool {
	need, ok := ctx.Value(startGuardKey{}).(func() bool)
	return !ok || need == nil || need()
}

// never is a need that is never there.
func never() bool { return false }

// waitForHost makes c's own retries (a request the host did not run, sent
// again on a new connection: retry.go) wait for a host to answer instead
// of starting one. A Redialer's owner recovers from a lost host by itself
// and starts one only when a pane it holds still runs; a retried keystroke
// or resize must not start one behind its back (after host stop --force).
func (c *Client) waitForHost() { c.noStart.Store(true) }
