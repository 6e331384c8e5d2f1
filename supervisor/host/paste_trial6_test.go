package host

import (
	"strings"
	"testing"

	"clowder/supervisor/proto"
)

// A connection told of an upgrade in place hangs up to follow the host
// and sends what it has not finished again to the new one: the rest of a
// split paste (`clowder paste` resends its unanswered parts), or the TUI,
// which writes a paste's body to the master between the host's brackets,
// the body's rest. Closing its open paste at that hang-up put ESC[201~ in
// the middle of the paste, and the rest of it arrived as typed keys (each
// newline an Enter). An upgrade's hang-up leaves the paste open, as it
// leaves the connection's panes running.
func TestSplitPasteOfAConnectionToldOfAnUpgradeIsNotClosedAtItsHangUp(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFake(c, "keys")
	c.waitText(p.ID, "READY")
	moving := th.dial()
	moving.call(&proto.PasteReq{Pane: p.ID, Text: "ab", Part: proto.PastePartFirst})
	c.waitText(p.ID, "IN 1b5b3230307e6162")
	th.host.tellUpgrading(nil) // the notice, as just before the exec
	moving.uc.Close()          // the client follows the host
	th.host.endDrain()         // the exec failed: the host serves on, for new connections
	after := th.dial()
	after.call(&proto.PasteReq{Pane: p.ID, Text: "c", Part: proto.PastePartLast}) // the rest, sent again
	after.call(&proto.InputReq{Pane: p.ID, Data: []byte("z")})
	after.waitText(p.ID, "7a")
	if s := after.screen(p.ID); strings.Count(s, "3230317e") != 1 || !strings.Contains(s, "631b5b3230317e") {
		t.Fatalf("the paste was closed %d times, want once after its last part:\n%s", strings.Count(s, "3230317e"), s)
	}
}
