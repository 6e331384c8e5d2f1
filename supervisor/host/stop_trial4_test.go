package host

import (
	"os"
	"strings"
	"testing"

	"clowder/persist"
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

// TestCorruptRegistryRestoreIsSaidOnce pins a trial-4 slip: host status
// told how to restore agents.json twice in one line ("(copy it to X to
// restore it); to restore it, stop the host and copy it back: ...").
func TestCorruptRegistryRestoreIsSaidOnce(t *testing.T) {
	th := newTestHost(t)
	path := th.paths.AgentsFile()
	saveGood(t, path, exitedRecords(1))
	if err := os.WriteFile(path, []byte(`{"schema_version": 1, "pan`), 0o600); err != nil {
		t.Fatal(err)
	}
	th.serve(persist.DefaultConfig())
	st := th.dial().call(&proto.HostStatusReq{}).(*proto.HostInfoReply)
	if n := strings.Count(st.Registry, "restore"); n != 1 || !strings.Contains(st.Registry, "clowder host stop && cp ") {
		t.Fatalf("host status registry says restore %d times: %q", n, st.Registry)
	}
}
