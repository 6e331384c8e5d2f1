package host

import (
	"bufio"
	"errors"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"clowder/persist"
	"clowder/supervisor/internal/testproc"
	"clowder/supervisor/proto"
)

// fakeEscrow is an agent that proves it never got SIGHUP and that its
// input still arrives.
func fakeEscrow() int {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	go func() {
		<-hup
		_ = os.WriteFile(os.Getenv("FAKE_OUT"), []byte("SIGHUP\n"), 0o600)
	}()
	fmt.Println("\x1b[1;31mREADY\x1b[m")
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		if sc.Text() == "exit" {
			return 3
		}
		fmt.Printf("got: %s\n", sc.Text())
	}
	return testproc.Block()
}

// heldPane is what a TUI-like client keeps of a pane: its identity, a
// copy of its master and the screen it last drew.
type heldPane struct {
	info   proto.PaneInfo
	master int
	screen []byte // a full screen frame's binary body
}

// holdPane subscribes to pane with want_fd, as the TUI does, and keeps
// the master and the first (full) frame once it shows want.
func (c *tclient) holdPane(pane, want string) heldPane {
	c.t.Helper()
	sub := c.send(&proto.SubscribeReq{Pane: pane, Screen: true, WantFd: true})
	_, fds, err := c.await(sub)
	if err != nil || len(fds) != 1 {
		c.t.Fatalf("subscribe with want_fd: %v (%d fds)", err, len(fds))
	}
	c.t.Cleanup(func() { proto.CloseFds(fds) })
	frames := c.screenFramesUntil(sub, want)
	last := frames[len(frames)-1]
	if !last.Full {
		c.t.Fatalf("the frame showing %q is not a full frame", want)
	}
	body, err := proto.EncodeMessage(last)
	if err != nil {
		c.t.Fatal(err)
	}
	return heldPane{info: c.info(pane), master: fds[0], screen: body}
}

// escrow hands a master back; it returns the reply or the error reply.
func (c *tclient) escrow(req proto.EscrowReq, master int) (*proto.EscrowedReply, error) {
	c.t.Helper()
	c.nextID++
	f := mustFrame(c.nextID, 0, &req)
	f.Fds = []int{master}
	if err := c.fc.WriteFrame(f); err != nil {
		c.t.Fatalf("send escrow: %v", err)
	}
	m, fds, err := c.await(c.nextID)
	proto.CloseFds(fds)
	if err != nil {
		return nil, err
	}
	return m.(*proto.EscrowedReply), nil
}

func escrowReq(h heldPane) proto.EscrowReq {
	return proto.EscrowReq{Pane: h.info.ID, Pid: h.info.Pid, PidStart: h.info.PidStart, Screen: h.screen}
}

// crash SIGKILLs the host process and starts the next host, in this
// process, on the same paths: it finds the panes orphaned.
func (ph *procHost) crash() {
	t := ph.t
	t.Helper()
	if err := ph.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the killed host gone", func() bool {
		return errors.Is(syscall.Kill(ph.cmd.Process.Pid, 0), syscall.ESRCH)
	})
	ph.serve(persist.DefaultConfig(), func(h *Server) {
		h.log = log.New(testWriter{t}, "host: ", 0)
	})
}

// testWriter logs a host's lines through t.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

// TestEscrowReadoptsPanesAfterHostSIGKILL proves issue 10 §1 and §5 "Host
// SIGKILLed with a TUI attached" at the host level: a client holding the
// masters keeps every pane alive through a SIGKILL of its host (no
// SIGHUP), hands them to the next host, which re-adopts each one with its
// screen intact; input works, and its exit is reported unverifiable.
func TestEscrowReadoptsPanesAfterHostSIGKILL(t *testing.T) {
	ph := startProcHost(t)
	c := ph.dial()
	dir := t.TempDir()
	var held []heldPane
	for i := range 2 {
		p := ph.spawnFake(c, "escrow", fmt.Sprintf("FAKE_OUT=%s/hup%d", dir, i))
		c.waitText(p.ID, "READY")
		held = append(held, c.holdPane(p.ID, "READY"))
	}
	st := c.call(&proto.HostStatusReq{}).(*proto.HostInfoReply)
	if len(st.Escrow) != 2 || st.Escrow[0].Pane != held[0].info.ID || st.Escrow[1].Pane != held[1].info.ID {
		t.Fatalf("host status escrow %+v; want both panes held by this client", st.Escrow)
	}

	ph.crash()
	c2 := ph.dial()
	if in := c2.info(held[0].info.ID); in.State != "orphaned" {
		t.Fatalf("before the hand-back the new host sees %s; want orphaned", in.State)
	}
	for _, h := range held {
		r, err := c2.escrow(escrowReq(h), h.master)
		if err != nil {
			t.Fatalf("escrow of %s: %v", h.info.ID, err)
		}
		if r.Existing || r.Pane.State != "running" || r.Pane.Pid != h.info.Pid || r.Pane.PidStart != h.info.PidStart {
			t.Fatalf("escrow of %s answered %+v", h.info.ID, r)
		}
		if s := c2.screen(h.info.ID); !strings.Contains(s, "READY") {
			t.Fatalf("re-adopted screen of %s lost its picture:\n%s", h.info.ID, s)
		}
	}
	for i, h := range held {
		c2.call(&proto.InputReq{Pane: h.info.ID, Data: []byte("hello\n")})
		c2.waitText(h.info.ID, "got: hello")
		if _, err := os.Stat(fmt.Sprintf("%s/hup%d", dir, i)); err == nil {
			t.Fatalf("pane %s got SIGHUP", h.info.ID)
		}
	}
	c2.call(&proto.InputReq{Pane: held[0].info.ID, Data: []byte("exit\n")})
	w := c2.call(&proto.WaitReq{Pane: held[0].info.ID, Exit: true, TimeoutMS: 30000}).(*proto.WaitDoneReply)
	if w.Pane.ExitReason != "unverifiable" || w.Pane.ExitCode != -1 {
		t.Fatalf("a re-adopted pane's exit: %s (code %d); want unverifiable (code -1)", w.Pane.ExitReason, w.Pane.ExitCode)
	}
	c2.call(&proto.KillReq{Pane: held[1].info.ID})
	if in := c2.info(held[1].info.ID); in.ExitReason != "killed" {
		t.Fatalf("a killed re-adopted pane: %+v", in)
	}
}

// TestEscrowRefusesAnotherPanesTerminal: a master handed back under
// another pane's identity, or naming another process, is refused with an
// identity error and nothing changes; the right hand-back then works.
func TestEscrowRefusesAnotherPanesTerminal(t *testing.T) {
	ph := startProcHost(t)
	c := ph.dial()
	dir := t.TempDir()
	a := ph.spawnFake(c, "escrow", "FAKE_OUT="+filepath.Join(dir, "a"))
	b := ph.spawnFake(c, "escrow", "FAKE_OUT="+filepath.Join(dir, "b"))
	c.waitText(a.ID, "READY")
	c.waitText(b.ID, "READY")
	ha, hb := c.holdPane(a.ID, "READY"), c.holdPane(b.ID, "READY")
	ph.crash()
	c2 := ph.dial()

	_, err := c2.escrow(escrowReq(ha), hb.master) // b's terminal for a
	var e *proto.ErrorReply
	if !errors.As(err, &e) || e.Code != proto.CodeIdentity || !strings.Contains(e.Message, "not the pane's") {
		t.Fatalf("another pane's terminal: %v; want identity-mismatch saying it is not the pane's", err)
	}
	wrong := escrowReq(ha)
	wrong.PidStart++
	if _, err := c2.escrow(wrong, ha.master); !errors.As(err, &e) || e.Code != proto.CodeIdentity {
		t.Fatalf("a stale start time: %v; want identity-mismatch", err)
	}
	if in := c2.info(a.ID); in.State != "orphaned" {
		t.Fatalf("after refusals pane %s is %s; want orphaned", a.ID, in.State)
	}
	if r, err := c2.escrow(escrowReq(ha), ha.master); err != nil || r.Pane.State != "running" {
		t.Fatalf("the right hand-back after refusals: %+v, %v", r, err)
	}
	if r, err := c2.escrow(escrowReq(ha), ha.master); err != nil || !r.Existing {
		t.Fatalf("a second hand-back of a running pane: %+v, %v; want existing", r, err)
	}
	if _, err := c2.escrow(escrowReq(hb), hb.master); err != nil { // so that this host ends it with the test
		t.Fatalf("hand-back of %s: %v", b.ID, err)
	}
}

// TestEscrowWithoutAnFdIsABadRequest: the request is checked before the
// host acts, and names the missing descriptor.
func TestEscrowWithoutAnFdIsABadRequest(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFake(c, "sleep")
	e := c.callErr(&proto.EscrowReq{Pane: p.ID, Pid: p.Pid, PidStart: p.PidStart})
	if e.Code != proto.CodeBadRequest || !strings.HasPrefix(e.Message, "fd:") {
		t.Fatalf("escrow without an fd: %+v", e)
	}
}

// TestReadoptionKeepsTheOverallTimeoutsClock: a re-adopted pane's overall
// timeout counts from its creation, so a host crash cannot extend it.
func TestReadoptionKeepsTheOverallTimeoutsClock(t *testing.T) {
	created := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name    string
		overall time.Duration
		now     time.Time
		want    time.Duration
	}{
		{"none", 0, created.Add(time.Hour), -1},
		{"half gone", time.Hour, created.Add(30 * time.Minute), 30 * time.Minute},
		{"run out while no host watched", time.Hour, created.Add(2 * time.Hour), time.Millisecond},
	} {
		rec := persist.PaneRecord{Created: created, Timeouts: persist.Timeouts{Overall: persist.Duration(tc.overall)}}
		if got := timeoutLeft(rec, tc.now); got != tc.want {
			t.Errorf("%s: %v left; want %v", tc.name, got, tc.want)
		}
	}
}
