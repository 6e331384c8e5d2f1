package host

import (
	"strings"
	"testing"

	"clowder/supervisor/proto"
)

// TestHostStopWithOnePaneSaysPaneInTheSingular pins a trial-4 slip:
// `clowder host stop` with one pane running said "1 panes are running".
func TestHostStopWithOnePaneSaysPaneInTheSingular(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFake(c, "keys")
	c.waitText(p.ID, "READY")
	if e := c.callErr(&proto.HostStopReq{}); !strings.HasPrefix(e.Message, "1 pane is running;") {
		t.Fatalf("host stop with one pane: %q", e.Message)
	}
}
