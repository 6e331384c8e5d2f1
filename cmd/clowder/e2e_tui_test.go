//go:build linux

package main

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"clowder/supervisor/proto"
)

// tuiEnv starts the TUI at cols x rows in a real tmux; the default agent is
// an adapter of the test's config running /bin/sh, so no agent CLI is
// needed.
func tuiEnv(t *testing.T, cols, rows int) (*e2eEnv, *outerTmux) {
	t.Helper()
	e := newE2E(t)
	e.env = append(e.env, "SHELL=/bin/sh", "PS1=$ ")
	cfg := "[tui]\ndefault_adapter = \"testagent\"\n[agents.testagent]\ncommand = [\"/bin/sh\"]\n"
	if err := os.WriteFile(filepath.Join(e.dir, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	o := startTmux(t, e, cols, rows)
	e.eventually(15*time.Second, "the two default panes", func() bool { return len(e.livePanes()) == 2 })
	return e, o
}

// livePanes lists the running panes, without failing while the host starts.
func (e *e2eEnv) livePanes() []proto.PaneInfo {
	out, _, code := e.run("ls", "--json")
	var list []proto.PaneInfo
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil {
		return nil
	}
	return slices.DeleteFunc(list, func(p proto.PaneInfo) bool { return p.State != "running" })
}

// TestE2ETUISurvivesSIGKILL pins issue 4 §3: split, run a command, resize
// the outer window, SIGKILL the TUI and start it again: the same panes,
// pids, screen content and layout.
func TestE2ETUISurvivesSIGKILL(t *testing.T) {
	e, o := tuiEnv(t, 160, 48)
	o.keys("C-Space", "%")
	e.eventually(10*time.Second, "a third pane after split", func() bool { return len(e.livePanes()) == 3 })
	marker := fmt.Sprintf("mk%06d", rand.Intn(1e6))
	o.waitScreen("$")
	o.keys("-l", "echo "+marker)
	o.keys("Enter")
	o.waitCount(marker, 2) // the typed command and its output
	before := e.livePanes()
	o.resize(120, 40)
	e.eventually(10*time.Second, "panes following the outer window", func() bool {
		for _, p := range e.livePanes() {
			if p.Cols >= 120 || p.Rows >= 40 {
				return false
			}
		}
		return true
	})
	screen := o.settled()
	if err := syscall.Kill(o.pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if after := e.livePanes(); !samePanes(before, after) {
		t.Fatalf("SIGKILL of the TUI changed the panes:\n%v\n%v", before, after)
	}
	o.run("respawn-pane", "-k", "-t", "0", o.lastCommand)
	if after := o.settled(); after != screen {
		t.Fatalf("the screen after restart:\n%s\nbefore the kill:\n%s", after, screen)
	}
	if after := e.livePanes(); !samePanes(before, after) {
		t.Fatalf("restart changed the panes:\n%v\n%v", before, after)
	}
}

// samePanes compares ids and process identities.
func samePanes(a, b []proto.PaneInfo) bool {
	key := func(l []proto.PaneInfo) []string {
		var out []string
		for _, p := range l {
			out = append(out, fmt.Sprintf("%s/%d/%d", p.ID, p.Pid, p.PidStart))
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(key(a), key(b))
}

// TestE2ETUIEncodesForThePane: through the TUI, Up reaches a pane that
// enabled DECCKM as ESC O A, and a paste reaches a pane that enabled
// bracketed paste bracketed.
func TestE2ETUIEncodesForThePane(t *testing.T) {
	e, o := tuiEnv(t, 160, 48)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimSpace(e.must("new", "--name", "keys", "--", "env", fakeKeysEnv+"=1", self))
	o.waitScreen("KEYS-READY")
	focusPane(t, e, o, id)
	o.keys("Up")
	o.waitScreen("IN 1b4f41")
	o.run("set-buffer", "pasted")
	o.run("paste-buffer", "-p", "-t", "0")
	o.waitScreen("IN 1b5b3230307e7061737465641b5b3230317e")
}

// focusPane presses the prefix and the pane's number until the TUI focuses
// it (the number is its place in the layout).
func focusPane(t *testing.T, e *e2eEnv, o *outerTmux, id string) {
	t.Helper()
	for n := 1; n <= 9; n++ {
		o.keys("C-Space", fmt.Sprint(n))
		o.keys("-l", "?")
		if o.shows("IN 3f", time.Second) {
			return
		}
	}
	t.Fatalf("could not focus pane %s", id)
}

// TestE2ETUIDetachesCleanlyOnSIGHUP pins issue 7 §2: a SIGHUP (its
// terminal closed) killed the TUI where it stood: the terminal was not
// restored and a layout.json write under way left a .layout.json.tmp-*
// behind. Now it detaches: it exits by itself, layout.json holds the
// panes, and no temporary file is left.
func TestE2ETUIDetachesCleanlyOnSIGHUP(t *testing.T) {
	e, o := tuiEnv(t, 120, 40)
	state := filepath.Join(e.dir, "state")
	o.keys("C-Space", "%")
	e.eventually(10*time.Second, "the split saved", func() bool {
		raw, _ := os.ReadFile(filepath.Join(state, "layout.json"))
		return len(e.livePanes()) == 3 && strings.Count(string(raw), `"kind"`) == 3
	})
	o.keys("C-Space", "z") // a layout change: layout.json is being written again
	if err := syscall.Kill(o.pid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	var how string
	pid := o.pid()
	e.eventually(30*time.Second, "the TUI ended", func() bool {
		// tmux 3.3a sometimes leaves the exited TUI a zombie, unreaped, for
		// longer than the test waits; the kernel knows how it ended.
		if z, ok := zombieExit(pid); ok {
			how = z
			return true
		}
		how = strings.TrimSpace(o.run("display-message", "-p", "-t", "0", "status=#{pane_dead_status} signal=#{pane_dead_signal}"))
		return how != "status= signal="
	})
	if how != "status=0 signal=" {
		t.Errorf("the TUI ended with %s, want it to exit by itself with status 0", how)
	}
	tmps, _ := filepath.Glob(filepath.Join(state, ".layout.json.tmp-*"))
	if len(tmps) != 0 {
		t.Errorf("temporary files left: %v", tmps)
	}
	raw, err := os.ReadFile(filepath.Join(state, "layout.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range e.livePanes() {
		if !strings.Contains(string(raw), `"`+p.ID+`"`) {
			t.Errorf("layout.json lacks pane %s:\n%s", p.ID, raw)
		}
	}
}

// zombieExit reads how pid ended while it is a zombie (field 52 of
// /proc/PID/stat, a waitpid status), in tmux's words: "status=N signal="
// or "status= signal=N".
func zombieExit(pid int) (string, bool) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", false
	}
	f := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+2:]))
	if len(f) < 50 || f[0] != "Z" {
		return "", false
	}
	ws, err := strconv.Atoi(f[49]) // field 52; f[0] is field 3
	if err != nil {
		return "", false
	}
	st := syscall.WaitStatus(ws)
	if st.Signaled() {
		return fmt.Sprintf("status= signal=%d", int(st.Signal())), true
	}
	return fmt.Sprintf("status=%d signal=", st.ExitStatus()), true
}

// TestE2ETUISIGKILLedDuringAFloodLosesNothing is issue 10 §5's first
// fault: the TUI is SIGKILLed while a pane floods. The agent never gets
// SIGHUP and never stalls (it finishes), the pane's output is whole and
// in order (every line once: no gap, no duplicate in the ring's sequence),
// and a new TUI shows the end of it.
func TestE2ETUISIGKILLedDuringAFloodLosesNothing(t *testing.T) {
	e := newE2E(t)
	hup, goFile := filepath.Join(e.dir, "hup"), filepath.Join(e.dir, "go")
	const n = 100 * 2000
	// 100 bursts of 2,000 lines, paced, so the TUI dies in the middle.
	script := fmt.Sprintf(`trap 'echo HUP >> %s' HUP; echo READY; while [ ! -e %s ]; do sleep 0.05; done; `+
		`i=0; while [ $i -lt 100 ]; do seq $((i*2000+1)) $((i*2000+2000)); i=$((i+1)); sleep 0.02; done; echo FLOOD-DONE; exec cat`, hup, goFile)
	id := strings.TrimSpace(e.must("new", "--", "sh", "-c", script))
	e.must("wait", id, "--text", "READY", "--timeout", "20s")
	o := startTmux(t, e, 120, 40)
	o.waitScreen("READY")
	if err := os.WriteFile(goFile, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	e.must("wait", id, "--text", `\d{4}`, "--timeout", "20s") // the flood runs
	if err := syscall.Kill(o.pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(e.must("capture", id), "FLOOD-DONE") {
		t.Log("the flood ended before the TUI was killed; the kill did not fall in the middle this time")
	}
	e.must("wait", id, "--text", "FLOOD-DONE", "--timeout", "60s")
	lines := strings.Split(strings.ReplaceAll(e.must("log", id, "--raw"), "\r\n", "\n"), "\n")
	next := 1
	for _, l := range lines {
		if v, err := strconv.Atoi(l); err == nil {
			if v != next {
				t.Fatalf("line %d where %d was due: the output has a gap or a duplicate", v, next)
			}
			next++
		}
	}
	if next != n+1 {
		t.Fatalf("the log holds lines 1..%d; want 1..%d", next-1, n)
	}
	if b, err := os.ReadFile(hup); err == nil {
		t.Fatalf("the agent got SIGHUP when the TUI died: %q", b)
	}
	if p := e.pane(id); p.State != "running" {
		t.Fatalf("after the TUI's SIGKILL the pane is %s", p.State)
	}
	o.run("respawn-pane", "-k", "-t", "0", o.lastCommand)
	o.waitScreen("FLOOD-DONE")
}
