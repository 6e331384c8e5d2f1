package supervisor

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"clowder/persist"
	"clowder/supervisor/internal/testproc"
)

func TestSpawnRejectsBadSpecs(t *testing.T) {
	sp := NewSpawner(Options{CgroupMode: persist.CgroupOff})
	cases := []struct {
		name string
		spec Spec
		want string
	}{
		{"empty argv", Spec{PTY: &PTYArm{}}, "empty command"},
		{"empty argv[0]", Spec{Argv: []string{""}, PTY: &PTYArm{}}, "empty command"},
		{"no arm", Spec{Argv: []string{"true"}}, "exactly one"},
		{"both arms", Spec{Argv: []string{"true"}, PTY: &PTYArm{}, Pipe: &PipeArm{}}, "exactly one"},
		{"not in PATH", Spec{Argv: []string{"clowder-no-such-cmd"}, Pipe: &PipeArm{}}, "PATH"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := sp.Start(context.Background(), tc.spec)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

func TestPTYChildGetsOwnSessionTerminalAndCleanEnv(t *testing.T) {
	o := newOracle(t)
	out := testproc.NewSyncBuffer()
	spec := fakeSpec(o, out, "env", "TMUX=/tmp/x,1,0", "CLAUDECODE=1", "CLOWDER_PANE_ID=parent", "KEEP=yes")
	r := start(t, NewSpawner(Options{CgroupMode: persist.CgroupOff}), spec)
	text := out.WaitContains(t, "DONE")
	for _, want := range []string{
		`TERM="xterm-256color" true`, `COLORTERM="truecolor" true`,
		`CLOWDER_PANE_ID="` + spec.PaneID + `" true`, `TMUX="" false`, `CLAUDECODE="" false`,
		`KEEP="yes" true`, "leader=true fg=true size=100x30",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("child reported %q; missing %q", text, want)
		}
	}
	if e := waitExit(t, r); e.Reason != persist.ExitCompleted {
		t.Errorf("exit %v", e)
	}
}

func TestPipeRunReportsCodeAndStreams(t *testing.T) {
	for _, tc := range []struct {
		code   string
		reason persist.ExitReason
	}{{"0", persist.ExitCompleted}, {"3", persist.ExitFailed}} {
		t.Run(tc.reason.String(), func(t *testing.T) {
			o := newOracle(t)
			stdout, stderr := testproc.NewSyncBuffer(), testproc.NewSyncBuffer()
			spec := Spec{PaneID: "pipe-" + o.Mark, Argv: []string{os.Args[0]},
				Env:  o.Env(testproc.FakeAgentEnv+"=stdio", "FAKE_CODE="+tc.code),
				Pipe: &PipeArm{Stdout: stdout, Stderr: stderr}}
			r := start(t, NewSpawner(Options{CgroupMode: persist.CgroupAuto}), spec)
			e := waitExit(t, r)
			if e.Reason != tc.reason || e.String() == "" || stdout.String() != "out" || stderr.String() != "err" {
				t.Fatalf("exit %v (code %d), stdout %q, stderr %q", e, e.Code, stdout, stderr)
			}
		})
	}
}

func TestFinalOutputIsDrainedBeforeExitIsReported(t *testing.T) {
	o := newOracle(t)
	out := testproc.NewSyncBuffer()
	spec := fakeSpec(o, out, "exit", "FAKE_BYTES=1000000")
	var atExit string
	spec.OnExit = func(Exit) { atExit = out.String() }
	r := start(t, NewSpawner(Options{CgroupMode: persist.CgroupAuto}), spec)
	waitExit(t, r)
	if n := strings.Count(atExit, "x"); n != 1000000 || !strings.Contains(atExit, "END") {
		t.Fatalf("OnExit saw %d of 1000000 bytes (END seen: %v)", n, strings.Contains(atExit, "END"))
	}
}

// TestFinalizeFromEverySourceAtOnceRecordsOnce races every exit source:
// the child exiting, Kill, both watchdogs and a startup abort, many times
// each, from goroutines.
func TestFinalizeFromEverySourceAtOnceRecordsOnce(t *testing.T) {
	o := newOracle(t)
	out := testproc.NewSyncBuffer()
	spec := fakeSpec(o, out, "exit-on-line")
	var count exitCounter
	spec.OnExit = count.onExit
	r := start(t, NewSpawner(Options{CgroupMode: persist.CgroupAuto}), spec)
	out.WaitContains(t, "READY")
	gate := make(chan struct{})
	var wg sync.WaitGroup
	sources := []func(){
		func() { _, _ = r.WriteInput([]byte("bye\n")) },
		func() { _, _ = r.Kill(r.Identity(), -1) },
		func() { r.finalize(ending{reason: persist.ExitTimeout}) },
		func() { r.finalize(ending{reason: persist.ExitIdleTimeout}) },
		func() { r.finalize(ending{reason: persist.ExitKilled, grace: -1, err: errors.New("abort")}) },
	}
	for i := 0; i < 20; i++ {
		for _, src := range sources {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-gate
				src()
			}()
		}
	}
	close(gate)
	wg.Wait()
	e := waitExit(t, r)
	if n := count.n.Load(); n != 1 {
		t.Fatalf("OnExit called %d times", n)
	}
	if got := count.last.Load().(Exit); got.Reason != e.Reason || e.Reason == exitUnknown {
		t.Fatalf("record %v, Wait %v", got, e)
	}
}

func TestStartupAbortCleansTree(t *testing.T) {
	for _, cm := range cgroupModes {
		t.Run(cm.name, func(t *testing.T) {
			o := newOracle(t)
			out := testproc.NewSyncBuffer()
			spec := fakeSpec(o, out, "setsid")
			var count exitCounter
			spec.OnExit = count.onExit
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			spec.afterExec = func(*Run) {
				out.WaitContains(t, "READY") // the tree, grandchild included, is up
				o.Observe()
				cancel()
			}
			r, err := spawnerFor(t, cm.mode).Start(ctx, spec)
			if r != nil || !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "aborted while starting") {
				t.Fatalf("Start = %v, %v", r, err)
			}
			if n := count.n.Load(); n != 1 {
				t.Fatalf("OnExit called %d times", n)
			}
		})
	}
}

func TestInputWriteTimesOutWhenChildNeverReads(t *testing.T) {
	o := newOracle(t)
	out := testproc.NewSyncBuffer()
	spec := fakeSpec(o, out, "silent")
	spec.Limits.InputTimeout = 200 * time.Millisecond
	r := start(t, NewSpawner(Options{CgroupMode: persist.CgroupAuto}), spec)
	out.WaitContains(t, "READY")
	n, err := r.WriteInput([]byte(strings.Repeat("a", 1<<20)))
	if !errors.Is(err, os.ErrDeadlineExceeded) || !strings.Contains(err.Error(), "input buffer full") {
		t.Fatalf("WriteInput wrote %d, err %v", n, err)
	}
	// The pane is not harmed: it still runs, resizes and answers a signal.
	if _, done := r.Exit(); done {
		t.Fatal("run ended after a write timeout")
	}
	if err := r.Resize(Size{Cols: 90, Rows: 20}); err != nil {
		t.Fatal(err)
	}
	if err := r.Signal(r.Identity(), syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	out.WaitContains(t, "ALIVE")
}

func TestDupMasterIsAnIndependentFile(t *testing.T) {
	o := newOracle(t)
	out := testproc.NewSyncBuffer()
	r := start(t, NewSpawner(Options{CgroupMode: persist.CgroupAuto}), fakeSpec(o, out, "exit-on-line"))
	out.WaitContains(t, "READY")
	dup, err := r.DupMaster()
	if err != nil {
		t.Fatal(err)
	}
	defer dup.Close()
	if _, err := dup.Write([]byte("via dup\n")); err != nil {
		t.Fatal(err)
	}
	if e := waitExit(t, r); e.Reason != persist.ExitCompleted {
		t.Fatalf("exit %v", e)
	}
}

// TestReadingTheTermSizeKeepsTheMasterNonBlocking: the host reads the size
// and the foreground group before each output chunk. They go through the
// master's SyscallConn, not os.File.Fd, which puts a file back in blocking
// mode when Go itself made it non-blocking; the master stays non-blocking
// and input deadlines keep working.
func TestReadingTheTermSizeKeepsTheMasterNonBlocking(t *testing.T) {
	o := newOracle(t)
	out := testproc.NewSyncBuffer()
	spec := fakeSpec(o, out, "silent")
	spec.Limits.InputTimeout = 200 * time.Millisecond
	r := start(t, NewSpawner(Options{CgroupMode: persist.CgroupAuto}), spec)
	out.WaitContains(t, "READY")
	if _, _, ok := r.TermSize(); !ok {
		t.Fatal("TermSize: no size")
	}
	if r.Foreground() == 0 {
		t.Fatal("Foreground: no process group")
	}
	done := make(chan error, 1)
	go func() {
		_, err := r.WriteInput([]byte(strings.Repeat("a", 1<<20)))
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("WriteInput: %v, want a deadline error", err)
		}
	case <-time.After(time.Minute): // bounds a failure only
		_ = r.Signal(r.Identity(), syscall.SIGKILL) // unblocks the write
		t.Fatal("WriteInput blocked past its deadline: the master became blocking")
	}
}

// TestTerminalQueriesRaceNothingWithTheRunsEnd: the host asks a run's
// terminal its size and foreground group while the run may be ending
// (a spawn reply for a command that exits at once). They read the
// master's descriptor through Fd() while the run's end closed it: a data
// race the race detector caught in make bench, and an ioctl on a closed
// or reused descriptor.
func TestTerminalQueriesRaceNothingWithTheRunsEnd(t *testing.T) {
	o := newOracle(t)
	sp := NewSpawner(Options{CgroupMode: persist.CgroupOff})
	for i := 0; i < 5; i++ {
		r := start(t, sp, fakeSpec(o, testproc.NewSyncBuffer(), "exit"))
		stop := make(chan struct{})
		go func() {
			for {
				select {
				case <-stop:
					return
				default:
					r.Foreground()
					r.TermSize()
				}
			}
		}()
		waitExit(t, r)
		<-r.Done()
		close(stop)
	}
}
