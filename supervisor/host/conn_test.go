package host

import (
	"io"
	"net"
	"testing"
	"time"

	"clowder/persist"
	"clowder/supervisor/proto"
)

// TestHostAnswersAnUnknownTypeAsUnknownType pins a tester's finding: a
// request of a type this host does not know was answered bad-request, so
// a newer client could not tell "too old" from "wrong", although
// docs/protocol.md promises unknown-type (which clients may ignore).
func TestHostAnswersAnUnknownTypeAsUnknownType(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	for _, typ := range []proto.MsgType{5, 999} {
		e := c.rawCall(typ, `{}`)
		if e == nil || e.Code != proto.CodeUnknownType {
			t.Fatalf("type %d answered %+v; want unknown-type", typ, e)
		}
	}
	c.call(&proto.ListReq{}) // the connection goes on
}

// TestHostDropsAConnectionThatNeverSaysHello pins a tester's finding:
// connections that never sent hello each held a descriptor and a
// goroutine for ever (19,990 of them took the host to its fd limit).
func TestHostDropsAConnectionThatNeverSaysHello(t *testing.T) {
	th := newTestHost(t)
	th.serve(persist.DefaultConfig(), func(h *Server) { h.opts.HandshakeTimeout = 300 * time.Millisecond })
	silent, err := net.Dial("unix", th.paths.SocketFile())
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	_ = silent.SetReadDeadline(time.Now().Add(30 * time.Second))
	if n, err := silent.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("a silent connection read %d bytes, %v; want the host to close it (EOF)", n, err)
	}
	th.dial().call(&proto.ListReq{}) // a client that says hello is served
}
