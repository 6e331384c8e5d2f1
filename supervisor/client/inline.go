// This file lets a call read its own reply (client.go, "Who reads"). A
// one-shot command (ls, capture) otherwise starts a reader goroutine,
// which wakes another thread, and hands each reply across goroutines
// twice: with the Go runtime's own start that was a tenth of its CPU
// (bench/profiles/cli.md). While it reads inline, a call waits for the
// socket to be readable through the runtime's poller, which its context
// can interrupt without a byte read, so a cancelled call leaves the
// connection as usable as before; the frame itself is then read whole.

package client

import (
	"context"
	"sync"
	"syscall"
	"time"
)

// readableConn is a transport a call can wait on without reading: a unix
// socket (*net.UnixConn).
type readableConn interface {
	SyscallConn() (syscall.RawConn, error)
	SetReadDeadline(time.Time) error
}

// claimInline makes the caller the one that reads, if nobody does.
func (c *Client) claimInline() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.raw == nil || c.readerOn || c.inline || c.err != nil {
		return false
	}
	c.inline = true
	return true
}

// releaseInline ends the caller's reading; the reader goroutine takes over
// if it was asked for meanwhile or another call still waits.
func (c *Client) releaseInline() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.inline = false
	if c.readerOn {
		go c.readLoop()
		return
	}
	if len(c.pending) > 0 {
		c.startReaderLocked()
	}
}

// readUntil reads frames inline until ch holds the reply or ctx ends or
// the connection does.
func (c *Client) readUntil(ctx context.Context, ch chan result) {
	for len(ch) == 0 && c.readInline(ctx) {
	}
}

// readInline waits within ctx for a frame and reads it; false when ctx
// ended first or the connection ended.
func (c *Client) readInline(ctx context.Context) bool {
	if !c.waitReadable(ctx) {
		return false
	}
	if c.readOne() {
		return true
	}
	c.mu.Lock()
	reader := c.readerOn
	c.mu.Unlock()
	if !reader {
		c.stopped() // nothing else will read: the connection has ended
	}
	return false
}

// longAgo is a deadline already past.
var longAgo = time.Unix(1, 0)

// waitReadable waits until the socket has something to read (or fails:
// the read then says how); false when ctx ended first, with nothing read.
func (c *Client) waitReadable(ctx context.Context) bool {
	if ctx.Err() != nil {
		return false
	}
	rc, err := c.raw.SyscallConn()
	if err != nil {
		return true
	}
	if ctx.Done() == nil {
		_ = rc.Read(readable) // a failure is the read's to report
		return true
	}
	var mu sync.Mutex
	waiting := true
	stop := context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		if waiting {
			_ = c.raw.SetReadDeadline(longAgo) // best effort: interrupts the wait below
		}
	})
	err = rc.Read(readable)
	mu.Lock()
	waiting = false
	mu.Unlock()
	if !stop() {
		_ = c.raw.SetReadDeadline(time.Time{}) // best effort: the next read must not time out
	}
	return err == nil || ctx.Err() == nil
}
