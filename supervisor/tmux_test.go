package supervisor

import (
	"strings"
	"testing"

	"clowder/persist"
)

// TestTmuxArgKeepsAFinalSemicolon: tmux takes an argument's final ";" for
// the end of its command and drops it, so "ls;" would be typed as "ls".
func TestTmuxArgKeepsAFinalSemicolon(t *testing.T) {
	for in, want := range map[string]string{"ls;": `ls\;`, ";": `\;`, `a\;`: `a\\;`, "a;b": "a;b", "": ""} {
		if got := tmuxArg(in); got != want {
			t.Errorf("tmuxArg(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTmuxChangedNamesEachChange: every part of the identity is compared,
// and a dead pane with the same process is not a change (it is exited).
func TestTmuxChangedNamesEachChange(t *testing.T) {
	rec := persist.TmuxPane{Socket: "/s", ServerPID: 10, ServerStart: 100, Target: "w:0.0", PaneID: "%1", Command: "sh x"}
	proc := Identity{PID: 20, Start: 200, BootID: "b"}
	same := TmuxStatus{Pane: rec, Process: proc}
	if got := TmuxChanged(rec, proc, same); got != "" {
		t.Fatalf("no change reported as %q", got)
	}
	for want, mod := range map[string]func(*TmuxStatus){
		"tmux server":    func(s *TmuxStatus) { s.Pane.ServerStart = 101 },
		"pane id":        func(s *TmuxStatus) { s.Pane.PaneID = "%2" },
		"session target": func(s *TmuxStatus) { s.Pane.Target = "w:1.0" },
		"pane process":   func(s *TmuxStatus) { s.Process = Identity{PID: 21, Start: 300, BootID: "b"} },
		"pane command":   func(s *TmuxStatus) { s.Pane.Command = "vim" },
	} {
		st := same
		mod(&st)
		if got := TmuxChanged(rec, proc, st); !strings.HasPrefix(got, want) {
			t.Errorf("change of %s reported as %q", want, got)
		}
	}
	dead := TmuxStatus{Pane: rec, Process: Identity{PID: 20}, Dead: true}
	if got := TmuxChanged(rec, proc, dead); got != "" {
		t.Errorf("a dead pane of the same process reported as a change: %q", got)
	}
}
