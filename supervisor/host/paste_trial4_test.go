package host

import (
	"strings"
	"testing"

	"clowder/supervisor/proto"
)

// TestSplitPasteCutShortByAHangUpIsClosed pins a trial-4 bug: a client
// that sent the first part of a split paste and then went away (a
// `clowder paste` interrupted with Ctrl-C, whose context also fails its
// own closing call, or SIGKILLed) left the program inside a bracketed
// paste: bash swallowed every key typed after it, shown nowhere, until
// something sent ESC[201~.
func TestSplitPasteCutShortByAHangUpIsClosed(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFake(c, "keys")
	c.waitText(p.ID, "READY")
	gone := th.dial()
	gone.call(&proto.PasteReq{Pane: p.ID, Text: "ab", Part: proto.PastePartFirst})
	c.waitText(p.ID, "IN 1b5b3230307e6162")
	gone.uc.Close() // the client dies before the last part
	c.waitText(p.ID, "IN 1b5b3230317e")
}

// TestSplitPasteFinishedIsNotClosedAgain: a paste whose last part came
// gets one closing bracket, not a second one at the hang-up.
func TestSplitPasteFinishedIsNotClosedAgain(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFake(c, "keys")
	c.waitText(p.ID, "READY")
	done := th.dial()
	done.call(&proto.PasteReq{Pane: p.ID, Text: "ab", Part: proto.PastePartFirst})
	done.call(&proto.PasteReq{Pane: p.ID, Text: "c", Part: proto.PastePartLast})
	c.waitText(p.ID, "3230317e")
	done.uc.Close()
	c.call(&proto.InputReq{Pane: p.ID, Data: []byte("z")}) // after the hang-up's work, if any
	c.waitText(p.ID, "IN 7a")
	if s := c.screen(p.ID); strings.Count(s, "3230317e") != 1 {
		t.Fatalf("the paste was closed %d times:\n%s", strings.Count(s, "3230317e"), s)
	}
}

// TestSplitPasteWhoseFirstPartFailedIsNotClosed: a split paste whose
// first part the host refused (here a control character in it) never
// opened a bracketed paste, so its client's hang-up must not send the
// program a closing bracket it never had an opening one for.
func TestSplitPasteWhoseFirstPartFailedIsNotClosed(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFake(c, "keys")
	c.waitText(p.ID, "READY")
	gone := th.dial()
	if e := gone.callErr(&proto.PasteReq{Pane: p.ID, Text: "a\x01b", Part: proto.PastePartFirst}); e.Code != proto.CodeBadRequest {
		t.Fatalf("the first part failed with %v; want a bad request", e)
	}
	gone.uc.Close()
	eventually(t, "the host to be done with the client that hung up", func() bool {
		return c.call(&proto.HostStatusReq{}).(*proto.HostInfoReply).Clients == 1
	})
	c.call(&proto.InputReq{Pane: p.ID, Data: []byte("z")}) // after whatever the hang-up wrote
	c.waitText(p.ID, "IN 7a")
	if s := c.screen(p.ID); strings.Contains(s, "3230317e") {
		t.Fatalf("a paste that never opened was closed:\n%s", s)
	}
}

// TestSplitPasteOfAClientFollowingAnUpgradeIsNotClosed: a client told of
// an upgrade in place hangs up to follow it and sends its split paste's
// next parts to the new host (client/retry.go). The hang-up must not
// close the paste, as it does a dead client's: the program would leave
// the bracketed paste, and take the rest of it for typed keys (a line of
// it, with its newline, run by a shell).
func TestSplitPasteOfAClientFollowingAnUpgradeIsNotClosed(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFake(c, "keys")
	c.waitText(p.ID, "READY")
	follower := th.dial()
	follower.call(&proto.PasteReq{Pane: p.ID, Text: "ab", Part: proto.PastePartFirst})
	c.waitText(p.ID, "IN 1b5b3230307e6162")
	if e := c.callErr(&proto.UpgradeReq{Binary: vanishingBinary(t)}); e.Code != proto.CodeUnsupported {
		t.Fatalf("upgrade to a binary that cannot be executed: %v; want unsupported", e)
	}
	if n := follower.notice(); n == nil || n.Code != proto.CodeUpgrading {
		t.Fatalf("no upgrade notice for the pasting client (got %v)", n)
	}
	_ = follower.uc.Close() // to follow the upgrade
	eventually(t, "the host to be done with the client that followed the upgrade", func() bool {
		return c.call(&proto.HostStatusReq{}).(*proto.HostInfoReply).Clients == 1
	})
	th.dial().call(&proto.PasteReq{Pane: p.ID, Text: "c", Part: proto.PastePartLast}) // its next part, on its new connection
	c.waitText(p.ID, "IN 63")
	if s := c.screen(p.ID); strings.Count(s, "3230317e") != 1 {
		t.Fatalf("the paste was closed before its last part:\n%s", s)
	}
}
