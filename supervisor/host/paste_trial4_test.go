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
