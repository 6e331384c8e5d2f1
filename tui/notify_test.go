package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"clowder/persist"
	"clowder/supervisor/proto"
)

// notifyRig is a model over three panes whose terminal commands and
// notify-send runs (a script on PATH that appends its arguments to a file)
// are recorded, with a clock the test moves.
type notifyRig struct {
	t     *testing.T
	m     *Model
	cmds  []string
	sent  string // notify-send's log
	clock time.Time
}

func newNotifyRig(t *testing.T) *notifyRig {
	m, _ := newTestModel(t, []proto.PaneInfo{running("p1", "one"), running("p2", "two"), running("p3", "three")}, nil)
	r := &notifyRig{t: t, m: m, clock: time.Unix(1e9, 0)}
	m.command = func(s string) { r.cmds = append(r.cmds, s) }
	m.notes.now = func() time.Time { return r.clock }
	dir := t.TempDir()
	r.sent = filepath.Join(dir, "sent")
	script := "#!/bin/sh\necho \"$@\" >> " + r.sent + "\n"
	if err := os.WriteFile(filepath.Join(dir, "notify-send"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+":"+os.Getenv("PATH"))
	t.Setenv("TERM_PROGRAM", "")
	return r
}

// attention delivers one attention event.
func (r *notifyRig) attention(pane, state string) {
	r.t.Helper()
	_, cmd := r.m.Update(mailMsg{events: []proto.PaneEvent{{Kind: proto.EventAttention, Pane: pane, Attention: state}}})
	settle(r.t, r.m, cmd)
}

// notified is what notify-send was given, one run a line.
func (r *notifyRig) notified() string {
	b, _ := os.ReadFile(r.sent)
	return string(b)
}

// TestNotifyOncePerTransitionNotFocused pins issue 11 §4: a pane that
// begins to need input is announced once (a bell to the outer terminal
// and notify-send), not again while it waits, not for a short flap
// (Claude Code's footer redraws), and never for the focused pane.
func TestNotifyOncePerTransitionNotFocused(t *testing.T) {
	r := newNotifyRig(t)
	focused := r.m.tree.Focus()
	other := "p2"
	if focused == other {
		other = "p3"
	}
	name := r.m.panes[other].info.Name
	r.attention(other, "needs-input")
	if len(r.cmds) != 1 || r.cmds[0] != "\a" {
		t.Fatalf("terminal commands = %q, want one bell", r.cmds)
	}
	if got := r.notified(); got != "--app-name=clowder clowder "+name+" needs input\n" {
		t.Fatalf("notify-send got %q", got)
	}
	r.attention(other, "needs-input") // no transition
	r.attention(other, "working")
	r.clock = r.clock.Add(time.Second)
	r.attention(other, "needs-input") // a flap: the same wait
	r.attention(focused, "needs-input")
	if len(r.cmds) != 1 || strings.Count(r.notified(), "\n") != 1 {
		t.Fatalf("after no transition, a flap and the focused pane: commands %q, notify-send %q; want the first alone", r.cmds, r.notified())
	}
	r.attention(other, "working")
	r.clock = r.clock.Add(time.Minute)
	r.attention(other, "needs-input") // a new wait after a turn
	if len(r.cmds) != 2 || strings.Count(r.notified(), "\n") != 2 {
		t.Fatalf("a new wait was not announced: commands %q, notify-send %q", r.cmds, r.notified())
	}
}

// TestNotifyOSC9WhereTheTerminalShowsIt: terminals known to show OSC 9
// get the notification text instead of a bell.
func TestNotifyOSC9WhereTheTerminalShowsIt(t *testing.T) {
	r := newNotifyRig(t)
	t.Setenv("TERM_PROGRAM", "WezTerm")
	other := "p2"
	if r.m.tree.Focus() == other {
		other = "p3"
	}
	r.attention(other, "needs-input")
	want := "\x1b]9;clowder: " + r.m.panes[other].info.Name + " needs input\a"
	if len(r.cmds) != 1 || r.cmds[0] != want {
		t.Fatalf("terminal commands = %q, want %q", r.cmds, want)
	}
}

// TestNextAttentionGoesToTheLongestWait pins issue 11 §4: prefix n
// jumps to the pane that has waited longest, not to the next one in
// layout order.
func TestNextAttentionGoesToTheLongestWait(t *testing.T) {
	r := newNotifyRig(t)
	ids := r.m.tree.Leaves()
	r.m.focus(ids[0])
	r.attention(ids[2], "needs-input") // waits first
	r.clock = r.clock.Add(time.Minute)
	r.attention(ids[1], "needs-input")
	prefix(t, r.m)
	press(t, r.m, tea.Key{Code: 'n', Text: "n"})
	if got := r.m.tree.Focus(); got != ids[2] {
		t.Fatalf("n focused %s, want %s, which has waited longest", got, ids[2])
	}
	prefix(t, r.m)
	press(t, r.m, tea.Key{Code: 'n', Text: "n"})
	if got := r.m.tree.Focus(); got != ids[1] {
		t.Fatalf("second n focused %s, want %s", got, ids[1])
	}
}

// TestNotifyFollowsTheConfig: [tui] notify = "terminal" keeps the bell
// and leaves notify-send out; "off" announces nothing (notifications could
// not be turned off before).
func TestNotifyFollowsTheConfig(t *testing.T) {
	for _, c := range []struct {
		mode       persist.Notify
		cmds, sent int
	}{{persist.NotifyAll, 1, 1}, {persist.NotifyTerminal, 1, 0}, {persist.NotifyOff, 0, 0}} {
		r := newNotifyRig(t)
		r.m.opts.Config.TUI.Notify = c.mode
		other := "p2"
		if r.m.tree.Focus() == other {
			other = "p3"
		}
		r.attention(other, "needs-input")
		if len(r.cmds) != c.cmds || strings.Count(r.notified(), "\n") != c.sent {
			t.Errorf("notify = %q: terminal commands %q, notify-send %q; want %d and %d", c.mode, r.cmds, r.notified(), c.cmds, c.sent)
		}
	}
}
