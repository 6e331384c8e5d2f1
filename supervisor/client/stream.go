// This file reads a pane's raw output through a subscription, for `clowder
// log`, `poll` and `exec`: from a sequence number up to the end of the ring
// as it was when subscribing, or, following, until the pane has exited and
// every byte it wrote has been delivered.

package client

import (
	"context"
	"math"
	"time"

	"clowder/supervisor/proto"
)

// ReadOptions say which output ReadOutput delivers.
type ReadOptions struct {
	// From is the absolute seq to start at; bytes already gone from the
	// ring arrive as a gap on the first chunk.
	From uint64
	// Follow keeps reading until the pane exits and all its output has
	// been delivered (or ctx ends).
	Follow bool
	// WaitNew, when there is nothing after From at the time of
	// subscribing, waits up to this long for the first new bytes (or the
	// pane's exit). Ignored with Follow.
	WaitNew time.Duration
}

// ReadResult is where ReadOutput stopped.
type ReadResult struct {
	Next   uint64          // seq after the last byte delivered
	Exited bool            // the pane's exit was seen (Follow or WaitNew)
	Pane   *proto.PaneInfo // the pane at its exit, when Exited
}

// ReadOutput subscribes to pane's raw output and calls emit for each chunk
// in order (emit's error stops it). It returns where it stopped.
func (c *Client) ReadOutput(ctx context.Context, pane string, o ReadOptions, emit func(*proto.OutputChunk) error) (ReadResult, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends the exit wait, if any
	sub, err := c.Subscribe(ctx, proto.SubscribeReq{Pane: pane, Raw: true, FromSeq: o.From})
	if err != nil {
		return ReadResult{Next: o.From}, err
	}
	defer func() { _ = sub.Close() }() // best effort: the host also ends it on disconnect
	r := ReadResult{Next: o.From}
	target, exited, timeout := readTarget(c, ctx, pane, sub.Reply.Seq, o)
	for r.Next < target {
		select {
		case m, ok := <-sub.C:
			if !ok {
				return r, sub.Err()
			}
			if err := deliver(m, &r, emit); err != nil {
				return r, err
			}
		case w := <-exited:
			exited = nil
			if w.err != nil {
				return r, w.err
			}
			r.Exited, r.Pane, target = true, &w.info, w.info.Seq
		case <-timeout:
			return r, nil
		case <-ctx.Done():
			return r, ctx.Err()
		}
	}
	return r, nil
}

// readTarget decides how far ReadOutput reads and what else ends it.
func readTarget(c *Client, ctx context.Context, pane string, end uint64, o ReadOptions) (uint64, <-chan exitWait, <-chan time.Time) {
	switch {
	case o.Follow:
		return math.MaxUint64, c.waitExit(ctx, pane), nil
	case o.WaitNew > 0 && o.From >= end:
		return o.From + 1, c.waitExit(ctx, pane), time.After(o.WaitNew)
	}
	return end, nil, nil
}

// deliver hands one push to emit and advances r.
func deliver(m proto.Message, r *ReadResult, emit func(*proto.OutputChunk) error) error {
	ch, ok := m.(*proto.OutputChunk)
	if !ok {
		return nil
	}
	if err := emit(ch); err != nil {
		return err
	}
	r.Next = ch.Seq + uint64(len(ch.Data))
	return nil
}

// exitWait is the outcome of waiting for a pane's exit.
type exitWait struct {
	info proto.PaneInfo
	err  error
}

// waitExit waits for pane to exit in a goroutine that ends with ctx.
func (c *Client) waitExit(ctx context.Context, pane string) <-chan exitWait {
	out := make(chan exitWait, 1)
	go func() {
		r, err := c.Wait(ctx, proto.WaitReq{Pane: pane, Exit: true})
		out <- exitWait{info: r.Pane, err: err}
	}()
	return out
}
