package host

import (
	"os"
	"slices"
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

// Regression: the host wrote its pid into its lock, then what it can do
// (relisten) in a second write after the state dir's lock; a client
// racing the start (lock held, no socket yet) read a pid without it, took
// the host for an older one stranded without its socket, and failed.
func TestAStartingHostsLockSaysAtOnceThatItCanListenAgain(t *testing.T) {
	th := newTestHost(t)
	th.serve(persist.DefaultConfig(), func(h *Server) {
		h.afterLock = func() {
			holder, held := persist.LockHolder(th.paths.LockFile())
			if !held || holder.PID != os.Getpid() || !slices.Contains(holder.Can, persist.CanRelisten) {
				t.Errorf("the lock of a starting host reads %+v (held %v)", holder, held)
			}
		}
	})
	th.dial().call(&proto.ListReq{})
}
