package supervisor

import (
	"context"
	"os"
	"os/exec"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"clowder/supervisor/internal/testproc"
)

// TestAdoptedTreeWatchSleepsUntilAMemberExits: watching an orphan costs
// nothing while it lives (no look at it over an idle window: it sleeps on
// pidfds, no timer), and its death is seen at once.
func TestAdoptedTreeWatchSleepsUntilAMemberExits(t *testing.T) {
	o := newOracle(t)
	cmd := exec.Command(os.Args[0])
	cmd.Env = o.Env(testproc.FakeAgentEnv+"=sleep", "CLOWDER_PANE_ID=p-watch")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = cmd.Wait() }() // the orphan reaper may reap it first: either is fine
	id := waitIdentity(t, cmd.Process.Pid)
	tree := AdoptTree(TreeSpec{PaneID: "p-watch", Leader: id, PGID: id.PID})
	var looks atomic.Int32
	done := make(chan error, 1)
	go func() { done <- tree.Watch(context.Background(), func([]Identity) { looks.Add(1) }) }()
	if !waitUntil(testproc.WaitFor, func() bool { return looks.Load() == 1 }) {
		t.Fatal("the watch never looked at the tree")
	}
	<-time.After(2 * time.Second) // the idle window observed, not a wait for a condition
	if n := looks.Load(); n != 1 {
		t.Fatalf("the watch looked %d times at a tree where nothing happened; want once", n)
	}
	killed := time.Now()
	_ = cmd.Process.Kill()
	select {
	case err := <-done:
		t.Logf("the watch saw the tree end %v after SIGKILL, after %d looks", time.Since(killed), looks.Load())
		if err != nil || !tree.Empty() {
			t.Fatalf("watch: %v, empty %v", err, tree.Empty())
		}
	case <-time.After(testproc.WaitFor):
		t.Fatal("the watch never saw the tree end")
	}
}

// waitIdentity reads pid's identity once it has exec'd (its start time is
// fixed from fork, so any read is right).
func waitIdentity(t *testing.T, pid int) Identity {
	t.Helper()
	id, err := ReadIdentity(pid)
	if err != nil {
		t.Fatal(err)
	}
	return id
}
