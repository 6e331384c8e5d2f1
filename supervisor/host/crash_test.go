package host

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"clowder/persist"
	"clowder/supervisor/internal/testproc"
	"clowder/supervisor/proto"
)

// Regression (issue 10 §5, "SIGKILL at each step of spawn"): the nonce
// table lived only in memory, so a client's retry of a spawn whose host
// was SIGKILLed ran again on the next host, and the pane was recorded
// twice (22 times in 200 spawns). Crashed at every step of a spawn, the
// host leaves exactly one pane per request: the retry on the next host
// gets the pane the first attempt made (or an error that names it, when
// it was lost with the host), or a fresh one when nothing was recorded.
func TestSpawnRetryAfterHostCrashAtEachStepMakesOnePane(t *testing.T) {
	for _, step := range spawnSteps {
		t.Run(step, func(t *testing.T) {
			th := newTestHost(t)
			first := th.startProc("HOST_CRASH_AT=" + step)
			req := &proto.SpawnReq{Nonce: "crash-" + step, Argv: []string{os.Args[0]}, Kind: "run",
				Env: th.o.Env(testproc.FakeAgentEnv + "=sleep")}
			c := first.dial()
			c.send(req)
			if f, err := c.read(60 * time.Second); err == nil {
				t.Fatalf("host answered %v; want it to crash at %s", f, step)
			}
			waitClosed(t, "the crashed host", first.exited)

			th.startProc()
			p := retrySpawn(t, th.dial(), req, step)
			recs := recordsWithNonce(t, th.paths.AgentsFile(), req.Nonce)
			if len(recs) != 1 || recs[0].ID != p {
				t.Fatalf("agents.json holds %d records of the request (%+v); want exactly pane %s", len(recs), recs, p)
			}
			if l := th.dial().call(&proto.ListReq{}).(*proto.PaneListReply); len(l.Panes) != 1 {
				t.Fatalf("the new host lists %s; want one pane", ids(l.Panes))
			}
		})
	}
}

// retrySpawn sends the request again, as the client does after a broken
// connection, and returns the id of the pane it names.
func retrySpawn(t *testing.T, c *tclient, req *proto.SpawnReq, step string) string {
	t.Helper()
	m, fds, err := c.await(c.send(req))
	proto.CloseFds(fds)
	var e *proto.ErrorReply
	switch {
	case errors.As(err, &e) && e.Code == proto.CodeExited && strings.Contains(e.Message, "already made pane p1"):
		if step == "registered" {
			t.Fatalf("nothing was recorded, yet the retry says %q", e.Message)
		}
		return "p1"
	case err != nil:
		t.Fatalf("retry: %v", err)
	}
	r := m.(*proto.SpawnedReply)
	if r.Existing != (step != "registered") || r.Pane.ID != "p1" {
		t.Fatalf("retry after a crash at %s = %+v (existing %v); want pane p1, existing unless nothing was recorded", step, r.Pane, r.Existing)
	}
	return r.Pane.ID
}

// recordsWithNonce are the records of agents.json made by one request.
func recordsWithNonce(t *testing.T, path, nonce string) []persist.PaneRecord {
	t.Helper()
	reg, err := persist.LoadRegistry(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []persist.PaneRecord
	for _, r := range reg.Panes {
		if r.Nonce == nonce {
			out = append(out, r)
		}
	}
	return out
}
