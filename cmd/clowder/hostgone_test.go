package main

import (
	"net"
	"os"
	"strings"
	"testing"

	"clowder/persist"
	"clowder/supervisor/proto"
)

// hostGoingAway listens on the app's socket as a host would, welcomes
// one client, and goes away with its request unanswered, the socket gone:
// a host stopping just as a command's request came in.
func hostGoingAway(t *testing.T, a *app) {
	t.Helper()
	p, err := a.paths()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.EnsureRuntimeDir(); err != nil {
		t.Fatal(err)
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: p.SocketFile(), Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() { _ = ln.Close(); <-done }) // a command that never dialled must not hang the test
	go func() {
		defer close(done)
		uc, err := ln.AcceptUnix()
		if err != nil {
			t.Errorf("no command dialled the host: %v", err)
			return
		}
		defer uc.Close()
		fc := proto.NewFdConn(uc)
		g, err := proto.ReadHello(fc, proto.MinVersion, proto.MaxVersion, proto.WelcomeReply{Host: "going", Pid: os.Getpid()})
		if err != nil {
			t.Error(err)
			return
		}
		if err := g.Answer(fc); err != nil {
			t.Error(err)
		}
		_ = ln.Close() // stopped: no socket, and no answer
	}()
}

// Regression (a CI run of TestE2ELsAndCaptureInALoopAcrossHostStop): `ls`
// whose host stopped under its request, and none came back while the
// client waited for one, said "the clowder host went away before
// answering this list, which may or may not have been done", where a
// list has nothing to have done: it is what ls says with no host, the
// recorded panes and one line. capture says no host runs, in one line.
// Each waits for a host to come back first (20 s), so the two run side
// by side.
func TestReadsWhoseHostWentAwaySayNoHostRuns(t *testing.T) {
	for _, args := range [][]string{{"ls"}, {"capture", "p1"}} {
		t.Run(args[0], func(t *testing.T) {
			t.Parallel()
			a, out, errb := unitApp(t)
			p, err := a.paths()
			if err != nil {
				t.Fatal(err)
			}
			if err := p.EnsureStateDir(); err != nil {
				t.Fatal(err)
			}
			rec := persist.PaneRecord{ID: "p1", Name: "sh", Kind: persist.KindShell, Argv: []string{"sh"}, Cwd: "/", State: persist.StateRunning}
			if err := (&persist.Registry{Panes: []persist.PaneRecord{rec}}).Save(p.AgentsFile()); err != nil {
				t.Fatal(err)
			}
			hostGoingAway(t, a)
			code := run(args, a)
			lines := strings.Split(strings.TrimRight(errb.String(), "\n"), "\n")
			if len(lines) != 1 || !strings.Contains(lines[0], "no clowder host is running") {
				t.Errorf("%v: exit %d, stderr %q; want one line saying no host runs", args, code, errb)
			}
			if args[0] == "ls" && (code != 0 || !strings.Contains(out.String(), "p1")) {
				t.Errorf("ls: exit %d, stdout %q; want 0 and the recorded p1", code, out)
			}
		})
	}
}
