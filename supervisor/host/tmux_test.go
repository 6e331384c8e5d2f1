//go:build linux

package host

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"clowder/supervisor/proto"
)

// testTmux is a tmux server on a socket of the test's own, whose processes
// carry the oracle's mark; it is killed when the test ends, and the test
// waits for it and its panes to be gone.
type testTmux struct {
	t    *testing.T
	sock string
	env  []string
}

// startTestTmux runs script in a new tmux server and waits for ready.
func startTestTmux(t *testing.T, th *testHost, script, ready string) *testTmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	file := filepath.Join(filepath.Dir(th.paths.RuntimeDir), "pane.sh")
	if err := os.WriteFile(file, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	x := &testTmux{t: t, sock: filepath.Join(filepath.Dir(th.paths.RuntimeDir), "tmux.sock"), env: th.o.Env()}
	t.Cleanup(func() {
		_, _ = x.cmd("kill-server") // may be gone already
		// kill-server returns before the server and its panes are gone.
		eventually(t, "the tmux server and its panes to end", func() bool { return th.o.Observe() == 0 })
	})
	if out, err := x.cmd("-f", "/dev/null", "new-session", "-d", "-s", "w", "-x", "60", "-y", "10", "exec sh "+file); err != nil {
		t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	eventually(t, "the tmux pane to show "+ready, func() bool {
		out, _ := x.cmd("capture-pane", "-p", "-t", "w")
		return strings.Contains(out, ready)
	})
	return x
}

func (x *testTmux) cmd(args ...string) (string, error) {
	c := exec.Command("tmux", append([]string{"-S", x.sock}, args...)...)
	c.Env = x.env
	out, err := c.CombinedOutput()
	return string(out), err
}

// TestTmuxPaneSubscribesWithoutMasterAndSeedsModes: a client asking for
// the PTY master of an adopted tmux pane (the TUI does) gets its screen
// without one (it then sends input through the host), and the screen
// carries the modes the program set before it was adopted, so keys the
// TUI encodes from them are right (application cursor keys here).
func TestTmuxPaneSubscribesWithoutMasterAndSeedsModes(t *testing.T) {
	th := startHost(t)
	x := startTestTmux(t, th, "printf '\\033[?1hMODES-READY\\n'\nwhile read l; do echo \"GOT:$l\"; done\n", "MODES-READY")
	c := th.dial()
	pane := c.call(&proto.AdoptTmuxReq{Socket: x.sock, Target: "w"}).(*proto.AdoptedReply).Pane
	id := c.send(&proto.SubscribeReq{Pane: pane.ID, Screen: true, WantFd: true})
	m, fds, err := c.await(id)
	proto.CloseFds(fds)
	if err != nil || m.(*proto.SubscribedReply).Fd || len(fds) != 0 {
		t.Fatalf("subscribe with want_fd to a tmux pane: %v, %+v, %d fds; want a stream without a master", err, m, len(fds))
	}
	frames := c.screenFramesUntil(id, "MODES-READY")
	if f := frames[len(frames)-1]; f.Modes.Flags&proto.ModeAppCursor == 0 {
		t.Errorf("the seeded screen lost the program's application cursor keys: %+v", f.Modes)
	}
	c.call(&proto.InputReq{Pane: pane.ID, Data: []byte("via host"), Keys: []string{"Enter"}})
	c.waitText(pane.ID, "GOT:via host")
}

// TestTmuxHostStopLeavesThePaneRunning: an adopted tmux pane is tmux's;
// a host that stops stops reading it (pipe-pane off, fifo gone) and
// leaves its process alone.
func TestTmuxHostStopLeavesThePaneRunning(t *testing.T) {
	th := startHost(t)
	x := startTestTmux(t, th, "echo STOP-READY\nwhile read l; do :; done\n", "STOP-READY")
	c := th.dial()
	c.call(&proto.AdoptTmuxReq{Socket: x.sock, Target: "w"})
	c.call(&proto.HostStopReq{})
	select {
	case <-th.done:
	case <-time.After(30 * time.Second):
		t.Fatal("the host did not stop")
	}
	if out, _ := x.cmd("display-message", "-p", "-t", "w", "#{pane_dead}|#{pane_pipe}"); strings.TrimSpace(out) != "0|0" {
		t.Errorf("after host stop the tmux pane is dead|piped = %q; want 0|0", out)
	}
	if left, _ := filepath.Glob(filepath.Join(th.paths.RuntimeDir, "tmux-*.fifo")); len(left) > 0 {
		t.Errorf("fifos left behind: %v", left)
	}
}
