package supervisor

import (
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"

	"clowder/persist"
	"clowder/supervisor/internal/testproc"
)

func TestReadIdentityOfSelfIsStable(t *testing.T) {
	a, err := ReadIdentity(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ReadIdentity(os.Getpid())
	if a != b || a.Start == 0 || len(a.BootID) < 32 {
		t.Fatalf("identity %+v then %+v", a, b)
	}
}

// TestStaleIdentityIsRefusedAndNothingIsSignalled sends SIGKILL through a
// stale identity of a live child: the call must fail naming both
// identities, and the child must still answer afterwards.
func TestStaleIdentityIsRefusedAndNothingIsSignalled(t *testing.T) {
	o := newOracle(t)
	out := testproc.NewSyncBuffer()
	r := start(t, NewSpawner(Options{CgroupMode: persist.CgroupAuto}), fakeSpec(o, out, "silent"))
	out.WaitContains(t, "READY")
	real := r.Identity()
	stale := real
	stale.Start++
	var mm *MismatchError
	err := SignalProcess(stale, syscall.SIGKILL)
	if !errors.As(err, &mm) || mm.Actual != real || !strings.Contains(err.Error(), stale.String()) || !strings.Contains(err.Error(), real.String()) {
		t.Fatalf("SignalProcess(stale) = %v", err)
	}
	if err := r.Signal(stale, syscall.SIGKILL); !errors.As(err, &mm) {
		t.Fatalf("Run.Signal(stale) = %v", err)
	}
	if _, err := r.Kill(stale, 0); !errors.As(err, &mm) {
		t.Fatalf("Run.Kill(stale) = %v", err)
	}
	if err := r.Signal(real, syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	out.WaitContains(t, "ALIVE") // a SIGKILL would have been acted on first
	if _, done := r.Exit(); done {
		t.Fatal("run ended")
	}
}

func TestIdentityOfExitedProcessIsGone(t *testing.T) {
	o := newOracle(t)
	out := testproc.NewSyncBuffer()
	r := start(t, NewSpawner(Options{CgroupMode: persist.CgroupAuto}), fakeSpec(o, out, "exit"))
	waitExit(t, r)
	err := SignalProcess(r.Identity(), syscall.SIGKILL)
	if !errors.Is(err, ErrProcessGone) {
		t.Fatalf("SignalProcess(exited) = %v", err)
	}
	if err := r.Signal(r.Identity(), syscall.SIGTERM); !errors.Is(err, ErrProcessGone) {
		t.Fatalf("Run.Signal after exit = %v", err)
	}
	if _, err := OpenHandle(Identity{}); err == nil {
		t.Fatal("OpenHandle accepted an empty identity")
	}
}

func TestHandleHoldsPidfd(t *testing.T) {
	h, err := OpenHandle(actualIdentity(os.Getpid()))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if !h.Pidfd() {
		t.Skip("kernel has no pidfd_open; the check-then-kill fallback is in use")
	}
	if err := h.Signal(0); err != nil {
		t.Fatalf("signal 0 through pidfd: %v", err)
	}
}
