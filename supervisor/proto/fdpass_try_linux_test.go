//go:build linux

package proto

import (
	"bytes"
	"testing"
)

// TestTryWriteFrameStopsAtAFullSocketWithWholeFrames: a peer that reads
// nothing makes TryWriteFrame report false instead of waiting, and every
// frame it did report written arrives whole, in order (issue 12: the
// pane reader writes echoes with it and must never wait for a client).
func TestTryWriteFrameStopsAtAFullSocketWithWholeFrames(t *testing.T) {
	a, b := fdSocketPair(t)
	body := bytes.Repeat([]byte("x"), 1000)
	written := 0
	for ; written < 1<<20; written++ { // the socket's buffer fills long before
		f := Frame{Type: MsgOutput, ReqID: uint32(written), Flags: FlagPush, Body: body}
		ok, err := a.TryWriteFrame(f)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
	}
	if written == 0 || written == 1<<20 {
		t.Fatalf("wrote %d frames before the socket was full", written)
	}
	for i := 0; i < written; i++ {
		f, err := b.ReadFrame()
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if f.ReqID != uint32(i) || !bytes.Equal(f.Body, body) {
			t.Fatalf("frame %d: req %d, %d bytes", i, f.ReqID, len(f.Body))
		}
	}
	if ok, err := a.TryWriteFrame(Frame{Type: MsgOutput, Flags: FlagPush, Body: body}); !ok || err != nil {
		t.Fatalf("after the peer read: %v %v", ok, err)
	}
}

// TestTryWriteFrameNeverWaitsForAnotherWriter: while a WriteFrame holds the
// write side, TryWriteFrame reports false at once.
func TestTryWriteFrameNeverWaitsForAnotherWriter(t *testing.T) {
	a, _ := fdSocketPair(t)
	a.wmu.Lock()
	ok, err := a.TryWriteFrame(Frame{Type: MsgOutput, Flags: FlagPush})
	a.wmu.Unlock()
	if ok || err != nil {
		t.Fatalf("with the write side held: %v %v", ok, err)
	}
}

// TestTryWriteFrameLeavesBigFramesToWriteFrame: a frame over TryWriteMax
// is not tried.
func TestTryWriteFrameLeavesBigFramesToWriteFrame(t *testing.T) {
	a, _ := fdSocketPair(t)
	ok, err := a.TryWriteFrame(Frame{Type: MsgOutput, Flags: FlagPush, Body: make([]byte, TryWriteMax)})
	if ok || err != nil {
		t.Fatalf("a frame over TryWriteMax: %v %v", ok, err)
	}
}
