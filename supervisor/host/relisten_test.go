package host

import (
	"os"
	"testing"

	"clowder/persist"
	"clowder/supervisor/proto"
)

// TestHostListensAgainWhenItsSocketIsRemoved: with its socket file gone,
// relisten (SIGUSR1's handler) listens on the path again, the host serves
// there with its panes, and it still stops. A socket that answers is left
// alone.
func TestHostListensAgainWhenItsSocketIsRemoved(t *testing.T) {
	th := newTestHost(t)
	th.serve(persist.DefaultConfig())
	c := th.dial()
	p := th.spawnFake(c, "sleep")
	before := th.host.listener()
	th.host.relisten() // answers: nothing to do
	if th.host.listener() != before {
		t.Fatal("relisten replaced a listener that answered")
	}
	if err := os.Remove(th.paths.SocketFile()); err != nil {
		t.Fatal(err)
	}
	th.host.relisten()
	if in := th.dial().info(p.ID); in.State != "running" {
		t.Fatalf("through the new socket the pane is %+v", in)
	}
	th.dial().call(&proto.ListReq{})
}
