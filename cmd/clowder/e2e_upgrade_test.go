//go:build linux

package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"clowder/persist"
	"clowder/supervisor/client"
	hostpkg "clowder/supervisor/host"
	"clowder/supervisor/proto"
	"clowder/vtgrid"
)

// fakeStreamEnv makes the test binary a fake agent that writes a
// deterministic stream of lines (argv: its name, the file it records what
// it wrote in, the file whose existence stops it) at a steady pace, then
// "done", and exits 0.
const fakeStreamEnv = "CLOWDER_E2E_FAKE_STREAM"

// fakeStream is the fake agent of fakeStreamEnv.
func fakeStream() int {
	if len(os.Args) < 4 {
		return 2
	}
	name, record, stop := os.Args[1], os.Args[2], os.Args[3]
	rec, err := os.Create(record)
	if err != nil {
		return 3
	}
	defer rec.Close()
	write := func(s string) {
		_, _ = os.Stdout.WriteString(s)
		_, _ = rec.WriteString(s)
	}
	for i := 0; ; i++ {
		write(fmt.Sprintf("%s %05d %s\x1b[1mbold\x1b[0m\n", name, i, strings.Repeat(string(rune('a'+i%26)), i%40)))
		if _, err := os.Stat(stop); err == nil {
			break
		}
		time.Sleep(5 * time.Millisecond) // the pace of the stream, not a wait for a condition
	}
	write("done\n")
	return 0
}

// buildStamped builds the clowder source again with another version stamp,
// as `make build` does, so the host's build visibly changes.
func buildStamped(t *testing.T, dir, stamp string) string {
	t.Helper()
	bin := filepath.Join(dir, "clowder-"+stamp)
	out, err := exec.Command("go", "build", "-ldflags", "-X main.version="+stamp, "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("build %s: %v\n%s", stamp, err, out)
	}
	return bin
}

// TestE2EHostUpgradeKeepsEveryPane proves issue 10 §2: three upgrades in
// place (to another build and back) while four panes write: the host keeps
// its pid, each pane keeps its pid, its output and sequence numbers carry
// on (log --raw has exactly the bytes written, and a log --follow started
// before the first upgrade got them all, none twice), its screen and
// scrollback are what it wrote, and its exit code is read as from any
// child of the host.
func TestE2EHostUpgradeKeepsEveryPane(t *testing.T) {
	e := newE2E(t)
	other := buildStamped(t, e.dir, "upgrade-e2e")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	stop := filepath.Join(e.dir, "stop")
	var ids []string
	for i := range 4 {
		name := fmt.Sprintf("s%d", i)
		ids = append(ids, strings.TrimSpace(e.must("new", "--name", name, "--", "env", fakeStreamEnv+"=1", self, name, filepath.Join(e.dir, name+".rec"), stop)))
	}
	follows := e.startFollows(ids)
	before := e.panes()
	first, _ := e.hostInfo()
	for round, bin := range []string{other, e2eBinary, other} {
		seqs := e.seqs(ids)
		old, _ := e.hostInfo()
		out := e.must("host", "upgrade", "--binary", bin)
		now, ok := e.hostInfo()
		if !ok || now.Pid != first.Pid || now.Build == old.Build {
			t.Fatalf("upgrade %d: %q; host now pid %d build %q, was pid %d build %q", round+1, out, now.Pid, now.Build, first.Pid, old.Build)
		}
		e.eventually(30*time.Second, fmt.Sprintf("output of every pane going on after upgrade %d", round+1), func() bool {
			return e.allGrew(ids, seqs)
		})
		if after := e.panes(); !samePids(before, after) {
			t.Fatalf("upgrade %d changed the panes:\n%v\nbefore:\n%v", round+1, after, before)
		}
	}
	if err := os.WriteFile(stop, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	e.eventually(60*time.Second, "every pane exited", func() bool { return len(e.livePanes()) == 0 })
	for i, id := range ids {
		want := e.written(fmt.Sprintf("s%d", i))
		p := e.pane(id)
		if p.ExitReason != "completed" || p.ExitCode != 0 {
			t.Errorf("%s ended %s (code %d); want completed with code 0, read by its parent", id, p.ExitReason, p.ExitCode)
		}
		if got := e.must("log", "--raw", id); sha256.Sum256([]byte(got)) != sha256.Sum256(want) {
			t.Errorf("%s: log --raw has %d bytes (seq %d), not the %d written", id, len(got), p.Seq, len(want))
		}
		if got := follows[i].wait(t); !bytes.Equal(got, want) {
			t.Errorf("%s: log --follow across the upgrades got %d bytes, not the %d written", id, len(got), len(want))
		}
		e.checkScreen(id, want)
	}
}

// samePids reports whether after lists the panes of before with the same
// leaders.
func samePids(before, after []proto.PaneInfo) bool {
	if len(before) != len(after) {
		return false
	}
	for i := range before {
		if before[i].ID != after[i].ID || before[i].Pid != after[i].Pid || before[i].PidStart != after[i].PidStart || after[i].State != "running" {
			return false
		}
	}
	return true
}

// seqs is each pane's next sequence number.
func (e *e2eEnv) seqs(ids []string) map[string]uint64 {
	out := map[string]uint64{}
	for _, p := range e.panes() {
		out[p.ID] = p.Seq
	}
	return out
}

// allGrew reports whether every pane's sequence number passed was.
func (e *e2eEnv) allGrew(ids []string, was map[string]uint64) bool {
	now := e.seqs(ids)
	for _, id := range ids {
		if now[id] <= was[id] {
			return false
		}
	}
	return true
}

// written is what the fake agent name wrote, as the PTY passes it on
// (onlcr: each \n becomes \r\n).
func (e *e2eEnv) written(name string) []byte {
	e.t.Helper()
	b, err := os.ReadFile(filepath.Join(e.dir, name+".rec"))
	if err != nil {
		e.t.Fatal(err)
	}
	return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n"))
}

// checkScreen compares the pane's screen and scrollback, as text, with the
// lines written.
func (e *e2eEnv) checkScreen(id string, written []byte) {
	e.t.Helper()
	lines := strings.Split(strings.TrimSuffix(string(written), "\r\n"), "\r\n")
	for i, l := range lines {
		lines[i] = strings.ReplaceAll(strings.ReplaceAll(l, "\x1b[1m", ""), "\x1b[0m", "")
	}
	got := strings.Split(strings.TrimRight(e.must("capture", "--scrollback", "100000", id), "\n"), "\n")
	if len(got) < len(lines) {
		e.t.Errorf("%s: screen and scrollback hold %d lines; want the %d written", id, len(got), len(lines))
		return
	}
	got = got[:len(lines)]
	for i := range lines {
		if strings.TrimRight(got[i], " ") != lines[i] {
			e.t.Errorf("%s: line %d of screen and scrollback is %q; want %q", id, i, got[i], lines[i])
			return
		}
	}
}

// follow is a `clowder log --raw --follow` running in the background.
type follow struct {
	cmd *exec.Cmd
	out bytes.Buffer
}

// startFollows starts one follow per pane; each ends when its pane exits.
func (e *e2eEnv) startFollows(ids []string) []*follow {
	var fs []*follow
	for _, id := range ids {
		f := &follow{cmd: e.command(context.Background(), "log", "--raw", "--follow", id)}
		f.cmd.Stdout, f.cmd.Stderr = &f.out, os.Stderr
		if err := f.cmd.Start(); err != nil {
			e.t.Fatal(err)
		}
		e.t.Cleanup(func() { _ = f.cmd.Process.Kill(); _ = f.cmd.Wait() })
		fs = append(fs, f)
	}
	return fs
}

// wait waits (30 s at most) for the follow to end and returns its output.
func (f *follow) wait(t *testing.T) []byte {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("log --follow: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Errorf("log --follow still running 30 s after its pane exited")
		_ = f.cmd.Process.Kill()
		<-done
	}
	return f.out.Bytes()
}

// tickPane starts a pane that prints a line every 50 ms and returns its id.
func (e *e2eEnv) tickPane() string {
	e.t.Helper()
	id := strings.TrimSpace(e.must("new", "--name", "tick", "--", "sh", "-c", "while :; do echo tick; sleep 0.05; done"))
	e.eventually(30*time.Second, "the ticking pane's first output", func() bool { return e.pane(id).Seq > 0 })
	return id
}

// stillServes checks that the host is the one before (pid and build), its
// pane the same process, and its output going on.
func (e *e2eEnv) stillServes(id string, host proto.HostInfoReply, pane proto.PaneInfo) {
	e.t.Helper()
	now, ok := e.hostInfo()
	if !ok || now.Pid != host.Pid || now.Build != host.Build {
		e.t.Fatalf("host now pid %d build %q (ok %v); want pid %d build %q serving on", now.Pid, now.Build, ok, host.Pid, host.Build)
	}
	if p := e.pane(id); p.Pid != pane.Pid || p.PidStart != pane.PidStart || p.State != "running" {
		e.t.Fatalf("pane now %+v; want pid %d running on", p, pane.Pid)
	}
	seq := e.pane(id).Seq
	e.eventually(30*time.Second, "the pane's output going on", func() bool { return e.pane(id).Seq > seq })
}

// TestE2EHostUpgradeRefusesWhatCannotTakeOver proves issue 10 §2's
// failure paths with the real binary: a missing binary, one that reads
// another state format (checked before anything stops), one that cannot be
// executed at the moment of the exec (the request's error says why, after
// the host had frozen its panes and ended subscriptions), and one that
// passes the check but then refuses the state (it execs the old binary
// back): each time the old host serves on, with the same pane.
func TestE2EHostUpgradeRefusesWhatCannotTakeOver(t *testing.T) {
	e := newE2E(t)
	id := e.tickPane()
	host, _ := e.hostInfo()
	pane := e.pane(id)
	other := e.buildFormat(99)
	script := func(name, body string) string {
		p := filepath.Join(e.dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	answer := fmt.Sprintf(`if [ "$1 $2" = "host --state-format" ]; then echo %d; `, hostpkg.StateFormat())
	cases := []struct{ name, bin, want string }{
		{"missing", filepath.Join(e.dir, "nothing-here"), "no such file"},
		{"another format", other, "state format \"99\""},
		{"not executable at exec", script("vanishing", answer+`chmod -x "$0"; exit 0; fi; exit 1`), "permission denied"},
		{"refuses the state", script("liar", answer+`exit 0; fi; exec `+other+` "$@"`), "cannot take over"},
	}
	for _, c := range cases {
		_, errOut, code := e.run("host", "upgrade", "--binary", c.bin)
		if code != 1 || !strings.Contains(errOut, c.want) {
			t.Fatalf("%s: host upgrade exit %d: %q; want exit 1 saying %q", c.name, code, errOut, c.want)
		}
		e.stillServes(id, host, pane)
	}
	if st, _ := e.hostInfo(); !strings.HasPrefix(st.Upgrade, "refused") {
		t.Errorf("host status upgrade = %q; want why the last new binary refused", st.Upgrade)
	}
}

// buildFormat builds the clowder source as a binary that reads state
// format n.
func (e *e2eEnv) buildFormat(n int) string {
	e.t.Helper()
	bin := filepath.Join(e.dir, fmt.Sprintf("clowder-format-%d", n))
	out, err := exec.Command("go", "build", "-ldflags", fmt.Sprintf("-X clowder/supervisor/host.stateFormat=%d", n), "-o", bin, ".").CombinedOutput()
	if err != nil {
		e.t.Fatalf("build format %d: %v\n%s", n, err, out)
	}
	return bin
}

// TestE2EHostUpgradeKeepsTheTimeoutDeadline proves that an upgrade carries
// a pane's overall timeout over at its original time: a restarted timer
// could not fire before the upgrade's time plus the whole timeout.
func TestE2EHostUpgradeKeepsTheTimeoutDeadline(t *testing.T) {
	e := newE2E(t)
	const timeout = 8 * time.Second
	id := strings.TrimSpace(e.must("new", "--timeout", timeout.String(), "--", "sleep", "1000"))
	created := time.UnixMilli(e.pane(id).CreatedMS)
	e.eventually(30*time.Second, "half the timeout gone", func() bool { return time.Since(created) > timeout/2 })
	upgraded := time.Now()
	e.must("host", "upgrade")
	e.eventually(60*time.Second, "the pane's timeout", func() bool { return e.pane(id).State == "exited" })
	if p := e.pane(id); p.ExitReason != "timeout" {
		t.Fatalf("the pane ended %s; want timeout", p.ExitReason)
	}
	reg, err := persist.LoadRegistry(filepath.Join(e.dir, "state", persist.AgentsFileName))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range reg.Panes {
		if r.ID == id && !r.Exit.At.Before(upgraded.Add(timeout)) {
			t.Fatalf("the timeout fired at %s, %s after the upgrade: it restarted instead of carrying over (created %s)", r.Exit.At, r.Exit.At.Sub(upgraded), created)
		}
	}
}

// TestE2ETUIRedrawsAfterHostUpgrade proves issue 10 §2's "clients
// reconnect by themselves" for the TUI, in real tmux: after the host
// upgrades in place, the TUI connects again by itself, shows the same
// screen, holds the panes' terminals again, and typing reaches the pane.
func TestE2ETUIRedrawsAfterHostUpgrade(t *testing.T) {
	e, o := tuiEnv(t, 160, 48)
	other := buildStamped(t, e.dir, "upgrade-tui")
	marker := fmt.Sprintf("up%06d", time.Now().UnixNano()%1e6)
	o.waitScreen("$")
	o.keys("-l", "echo "+marker)
	o.keys("Enter")
	o.waitCount(marker, 2)
	before := e.livePanes()
	e.eventually(10*time.Second, "the TUI holding both panes' terminals", func() bool {
		st, ok := e.hostInfo()
		return ok && len(st.Escrow) == len(before)
	})
	screen := o.settled()
	e.must("host", "upgrade", "--binary", other)
	e.eventually(30*time.Second, "the TUI holding both panes' terminals from the upgraded host", func() bool {
		st, ok := e.hostInfo()
		return ok && st.Build == "upgrade-tui" && len(st.Escrow) == len(before)
	})
	if !samePids(before, e.livePanes()) {
		t.Fatalf("the upgrade changed the panes: %v, before %v", e.livePanes(), before)
	}
	if got := o.settled(); got != screen {
		t.Fatalf("the TUI after the upgrade:\n%s\nbefore:\n%s", got, screen)
	}
	o.keys("-l", "echo again-"+marker)
	o.keys("Enter")
	o.waitCount("again-"+marker, 2)
}

// TestE2EHostUpgradeKeepsPanesReadoptedFromEscrow proves that panes a
// host re-adopted from the TUI's escrow (not its children: their exit is
// unverifiable) survive an upgrade as they were: SIGKILL the host, let the
// TUI hand the panes to a new one, upgrade that one, and the panes still
// run under the same pids and take keys.
func TestE2EHostUpgradeKeepsPanesReadoptedFromEscrow(t *testing.T) {
	e, o := tuiEnv(t, 160, 48)
	o.waitScreen("$")
	before := e.livePanes()
	st, _ := e.hostInfo()
	e.eventually(10*time.Second, "the TUI holding both panes' terminals", func() bool {
		st, _ = e.hostInfo()
		return len(st.Escrow) == len(before)
	})
	if err := syscall.Kill(st.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	e.eventually(30*time.Second, "a new host running the same panes, re-adopted from escrow", func() bool {
		now, ok := e.hostInfo()
		return ok && now.Pid != st.Pid && samePids(before, e.livePanes())
	})
	e.must("host", "upgrade")
	e.eventually(30*time.Second, "the TUI holding both panes' terminals from the upgraded host", func() bool {
		now, ok := e.hostInfo()
		return ok && strings.HasPrefix(now.Upgrade, "from build") && len(now.Escrow) == len(before)
	})
	if !samePids(before, e.livePanes()) {
		t.Fatalf("the upgrade changed the re-adopted panes: %v, before %v", e.livePanes(), before)
	}
	marker := fmt.Sprintf("re%06d", time.Now().UnixNano()%1e6)
	o.keys("-l", "echo "+marker)
	o.keys("Enter")
	o.waitCount(marker, 2)
}

// TestE2EPanesStartedAfterAnUpgradeInheritNothingOfIt pins a leak: the
// descriptors an upgrade keeps open across its exec (the host lock, the
// state's memory file, the old binary) must not reach panes the new image
// starts, or an agent would hold the host lock after the host died.
func TestE2EPanesStartedAfterAnUpgradeInheritNothingOfIt(t *testing.T) {
	e := newE2E(t)
	e.tickPane()
	e.must("host", "upgrade")
	id := strings.TrimSpace(e.must("new", "--", "sleep", "1000"))
	pid := e.pane(id).Pid
	ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, ent := range ents {
		target, _ := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, ent.Name()))
		if strings.Contains(target, "host.lock") || strings.Contains(target, "clowder-upgrade") || strings.Contains(target, "host.sock") || strings.HasPrefix(target, "socket:") {
			t.Errorf("the pane inherited fd %s -> %s from the upgrade", ent.Name(), target)
		}
	}
}

// appParts is what the full-screen app of TestE2EHostUpgradeKeepsTheAppsTerminal
// writes, in three parts with an upgrade between each: the first ends in
// the middle of an escape sequence, the second with a pending wrap.
var appParts = []string{
	"shell$ app\n\x1b[1;33m" + // a pen on the main screen, saved by 1049
		"\x1b[?1049h\x1b[?1h\x1b[?2004h\x1b[?1002h\x1b[?1006h\x1b[?25l" + // the alternate screen and the app's modes
		"\x1b[2;8r\x1b[H\x1b[0;7mTITLE BAR\x1b[0m" + // a scroll region under a title bar
		"\x1b[3;5H\x1b[34m\x1b(0\x1b7" + // a saved cursor: its place, its pen, G0 line drawing
		"\x1b(B\x1b[0m\x1b[10;1Hstatus line\x1b]2;app title\x07" +
		"\x1b[3g\x1b[1;20H\x1bH" + // one tab stop, at column 20
		"\x1b[1;3", // cut inside a CSI
	"1m\x1b8lqqqqk\x1b[4;5Hx    x\x1b[5;5Hmqqqqj" + // bold red, then the saved cursor: blue line drawing
		"\x1b[8;1H\n\n\x1b(B\rtab\tstop" + // the region scrolls under the title bar; a tab to the stop
		"\x1b[9;40HX", // a pending wrap in the last column
	"Y\x1b[?1049l\x1b[?25h" + // wraps; then the main screen, its cursor and pen again
		"back in the shell\n",
}

// TestE2EHostUpgradeKeepsTheAppsTerminal proves issue 10 §2 for a
// full-screen app: upgrades fall between its writes (one inside an escape
// sequence, one on a pending wrap) while it is in the alternate screen with
// a scroll region, a saved cursor and line drawing, and the host's screen
// and scrollback stay exactly those of a terminal that saw every byte with
// no upgrade, up to the main screen the app goes back to.
func TestE2EHostUpgradeKeepsTheAppsTerminal(t *testing.T) {
	e := newE2E(t)
	var script strings.Builder
	for i, part := range appParts {
		f := filepath.Join(e.dir, fmt.Sprintf("part%d", i))
		if err := os.WriteFile(f, []byte(part), 0o600); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&script, `while [ ! -e go%d ]; do sleep 0.05; done; cat part%d; `, i, i)
	}
	script.WriteString(`while [ ! -e go3 ]; do sleep 0.05; done`)
	id := strings.TrimSpace(e.must("new", "--size", "40x12", "--cwd", e.dir, "--", "sh", "-c", script.String()))
	var written string
	for i, part := range appParts {
		if i > 0 {
			e.must("host", "upgrade")
		}
		written += strings.ReplaceAll(part, "\n", "\r\n") // the PTY's onlcr
		if err := os.WriteFile(filepath.Join(e.dir, fmt.Sprintf("go%d", i)), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		e.eventually(30*time.Second, fmt.Sprintf("part %d of the app's output", i), func() bool { return e.pane(id).Seq >= uint64(len(written)) })
		if got := e.must("log", "--raw", id); got != written {
			t.Fatalf("after part %d the pane's output is %q; want %q", i, got, written)
		}
		if got, want := e.must("capture", "--ansi", "--scrollback", "100", id), referenceCapture(written, 40, 12); got != want {
			t.Fatalf("after part %d and %d upgrades the pane shows\n%q\nwant, as a terminal that saw no upgrade:\n%q", i, i, got, want)
		}
		if diff := e.frameDiff(id, written, 40, 12); diff != "" {
			t.Fatalf("after part %d and %d upgrades the screen frame a TUI gets %s", i, i, diff)
		}
	}
	if err := os.WriteFile(filepath.Join(e.dir, "go3"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
}

// referenceCapture is what `capture --ansi --scrollback 100` prints of a
// terminal of cols x rows that was fed written.
func referenceCapture(written string, cols, rows int) string {
	ref := vtgrid.New(cols, rows, vtgrid.Options{})
	_, _ = ref.Write([]byte(written))
	return ref.SnapshotScrollback(100).HistoryANSI() + "\n"
}

// frameDiff says how the first screen frame a client subscribing to the
// pane gets differs, in its cursor and the modes a TUI encodes keys and
// mouse by, from those of a terminal of cols x rows fed written.
func (e *e2eEnv) frameDiff(id, written string, cols, rows int) string {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := client.Dial(ctx, filepath.Join(e.dir, "run", "host.sock"))
	if err != nil {
		e.t.Fatal(err)
	}
	defer c.Close()
	sub, err := c.Subscribe(ctx, proto.SubscribeReq{Pane: id, Screen: true})
	if err != nil {
		e.t.Fatal(err)
	}
	defer sub.Close()
	var f *proto.ScreenFrame
	for f == nil {
		select {
		case m := <-sub.C:
			f, _ = m.(*proto.ScreenFrame)
		case <-ctx.Done():
			e.t.Fatalf("no screen frame of %s in 30 s: %v", id, sub.Err())
		}
	}
	ref := vtgrid.New(cols, rows, vtgrid.Options{})
	_, _ = ref.Write([]byte(written))
	s := ref.Snapshot()
	x, y, visible := s.Cursor()
	m := s.Modes()
	want := proto.FrameCursor{X: uint16(x), Y: uint16(y), Visible: visible, Style: uint8(m.CursorStyle)}
	wantModes := fmt.Sprintf("app cursor %v, bracketed paste %v, alternate screen %v, mouse %d/%d",
		m.AppCursor, m.BracketedPaste, m.AltScreen, m.Mouse, m.MouseEnc)
	fl := f.Modes.Flags
	gotModes := fmt.Sprintf("app cursor %v, bracketed paste %v, alternate screen %v, mouse %d/%d",
		fl&proto.ModeAppCursor != 0, fl&proto.ModeBracketedPaste != 0, fl&proto.ModeAltScreen != 0, f.Modes.Mouse, f.Modes.MouseEncoding)
	if f.Cursor != want || gotModes != wantModes {
		return fmt.Sprintf("has the cursor %+v and %s; want %+v and %s", f.Cursor, gotModes, want, wantModes)
	}
	return ""
}

// TestE2ERespawnAfterAnUpgradeUsesThePanesEnvironment proves that an
// upgrade carries each pane's launch environment: a respawn after it runs
// with the environment the pane was started with, not the asking
// client's, and says nothing of falling back. Regression: the launch was
// held only in the old image's memory.
func TestE2ERespawnAfterAnUpgradeUsesThePanesEnvironment(t *testing.T) {
	e := newE2E(t)
	base := e.env
	e.env = append(base[:len(base):len(base)], "PANE_ENV=spawned")
	id := strings.TrimSpace(e.must("new", "--", "sh", "-c", `echo "env=$PANE_ENV"`))
	e.must("wait", id, "--exit", "--timeout", "30s")
	e.must("host", "upgrade")
	e.must("host", "upgrade") // the pane is now one an earlier image ran: its launch goes on
	e.env = append(base[:len(base):len(base)], "PANE_ENV=asking")
	_, errOut, code := e.run("respawn", id)
	if code != 0 || strings.Contains(errOut, "note:") {
		t.Fatalf("respawn after the upgrade: exit %d, stderr %q; want 0 and no note on the environment", code, errOut)
	}
	e.must("wait", id, "--exit", "--timeout", "30s")
	if got := e.must("log", "--raw", id); strings.Count(got, "env=spawned") != 2 || strings.Contains(got, "asking") {
		t.Fatalf("the pane's output over both runs is %q; want env=spawned twice", got)
	}
}

// execAcrossUpgrade starts `clowder exec` of a run that prints "before",
// waits for a flag file and then runs then, upgrades the host in place
// once "before" is out, and creates the flag. It returns the exec and what
// it has printed so far on stdout and stderr.
func execAcrossUpgrade(t *testing.T, e *e2eEnv, then string) (cmd *exec.Cmd, stdout, stderr func() string) {
	t.Helper()
	e.must("new", "--", "sleep", "1000") // a host to upgrade
	flag := filepath.Join(e.dir, "go-on")
	read := func(name string) func() string {
		return func() string { b, _ := os.ReadFile(filepath.Join(e.dir, name)); return string(b) }
	}
	cmd = e.command(context.Background(), "exec", "--", "sh", "-c",
		`echo before; while [ ! -e "$1" ]; do sleep 0.05; done; echo after; `+then, "sh", flag)
	for _, f := range []struct {
		name string
		to   *io.Writer
	}{{"exec.out", &cmd.Stdout}, {"exec.err", &cmd.Stderr}} {
		file, err := os.Create(filepath.Join(e.dir, f.name))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { file.Close() })
		*f.to = file
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stdout, stderr = read("exec.out"), read("exec.err")
	e.eventually(30*time.Second, "the run's first line", func() bool { return strings.Contains(stdout(), "before") })
	e.must("host", "upgrade")
	if err := os.WriteFile(flag, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	return cmd, stdout, stderr
}

// TestE2EExecCarriesOnAcrossHostUpgrade: `clowder exec` streams its run's
// output and exits with its status across a host upgrade. It failed with
// "the host is upgrading in place; connect again and resume from your
// sequence number" (exit 1) while its run went on, unseen, to its end.
func TestE2EExecCarriesOnAcrossHostUpgrade(t *testing.T) {
	e := newE2E(t)
	cmd, stdout, stderr := execAcrossUpgrade(t, e, "exit 7")
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 7 || stdout() != "before\nafter\n" {
		t.Fatalf("exec across an upgrade: %v, stdout %q, stderr %q; want exit 7 and both lines", err, stdout(), stderr())
	}
	if ls := e.must("ls"); strings.Contains(ls, "exit 7") || strings.Count(ls, "\n") != 2 {
		t.Errorf("the finished run is still listed:\n%s", ls)
	}
}

// TestE2EExecKilledAfterAnUpgradeKillsItsRun: `clowder exec` ties its run
// to its connection, so the host kills the run when exec dies. An upgrade
// ends that connection (told of the upgrade, the host leaves the run
// alone) and exec followed the run on a new one that held no tie: killed
// after the upgrade, exec left its run going. It now sends the run's spawn
// again on each new connection, which ties the same run to it.
func TestE2EExecKilledAfterAnUpgradeKillsItsRun(t *testing.T) {
	e := newE2E(t)
	cmd, stdout, stderr := execAcrossUpgrade(t, e, "exec sleep 1000")
	// A line written after the upgrade reached exec on its new connection,
	// which it ties before it reads.
	e.eventually(30*time.Second, "the run's line after the upgrade", func() bool {
		if err := stderr(); err != "" {
			t.Fatalf("exec failed across the upgrade: stderr %q", err)
		}
		return strings.Contains(stdout(), "after")
	})
	var run proto.PaneInfo
	for _, p := range e.panes() {
		if strings.Contains(strings.Join(p.Argv, " "), "go-on") {
			run = p
		}
	}
	if run.ID == "" || run.State != "running" {
		t.Fatalf("the exec's run is not listed as running: %+v; exec's stdout %q, stderr %q", e.panes(), stdout(), stderr())
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	e.eventually(10*time.Second, "the run killed after its client died", func() bool {
		return e.pane(run.ID).State == "exited"
	})
}

// TestE2EHostUpgradeWithABadConfigKeepsEveryPane pins a bug the trial
// found: with an error in config.toml (a typo made after the host
// started), the new image failed on the config before it took the handed
// panes, so the host exited and every pane was lost. Now the new binary's
// format check fails on the config, so the upgrade is refused naming it;
// and a new image that meets a bad config only after the exec (a binary
// that did not check) takes over with the defaults.
func TestE2EHostUpgradeWithABadConfigKeepsEveryPane(t *testing.T) {
	e := newE2E(t)
	id := e.tickPane()
	host, _ := e.hostInfo()
	pane := e.pane(id)
	config := filepath.Join(e.dir, "config.toml")
	if err := os.WriteFile(config, []byte("bogus_key = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := e.run("host", "upgrade")
	if code != 1 || !strings.Contains(errOut, "bogus_key") {
		t.Fatalf("host upgrade with a bad config: exit %d: %q; want exit 1 naming the bad key", code, errOut)
	}
	e.stillServes(id, host, pane)
	if err := os.Remove(config); err != nil {
		t.Fatal(err)
	}
	late := filepath.Join(e.dir, "late-typo")
	script := fmt.Sprintf("#!/bin/sh\nif [ \"$1 $2\" = \"host --state-format\" ]; then echo %d; exit 0; fi\necho 'bogus_key = 1' > %q\nexec %q \"$@\"\n",
		hostpkg.StateFormat(), config, e.bin)
	if err := os.WriteFile(late, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	e.must("host", "upgrade", "--binary", late)
	if now := e.pane(id); now.State != "running" || now.Pid != pane.Pid {
		t.Fatalf("after an upgrade into a bad config the pane is %s pid %d; want running pid %d", now.State, now.Pid, pane.Pid)
	}
	if err := os.Remove(config); err != nil { // so that the cleanup's host stop starts no failing host
		t.Fatal(err)
	}
}
