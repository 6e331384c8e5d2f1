package panes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Golden screens of the real CLIs, captured in a 100x30 tmux pane with
// panes/testdata/screens/cap.sh (see its README.md for the versions). A
// file is testdata/screens/ADAPTER/STATE-WHAT.txt: the adapter whose rules
// judge it, the attention state they must give, and what the screen is.
// "⌶" marks the cursor.

// screenStates are the state prefixes a golden file name may start with.
var screenStates = []struct {
	prefix string
	state  Attention
}{{"needs-input-", NeedsInput}, {"working-", Working}, {"idle-", Idle}}

// TestGoldenScreens judges every golden screen with its adapter's rules.
// Regressions (issue 11 §4): Gemini's prompt was idle, its API-key dialog
// working ("Esc to cancel" read as the busy hint), Codex's API-key screen
// idle, and a shell at its prompt "needs input".
func TestGoldenScreens(t *testing.T) {
	files, err := filepath.Glob("testdata/screens/*/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden screens: %v", err)
	}
	ads := NewAdapters(nil, "")
	for _, f := range files {
		adapter, name := filepath.Base(filepath.Dir(f)), filepath.Base(f)
		t.Run(adapter+"/"+name, func(t *testing.T) {
			ad, err := ads.Get(adapter)
			if err != nil {
				t.Fatal(err)
			}
			want := goldenState(t, name)
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			snap := screen(t, 100, strings.TrimSuffix(string(b), "\n"))
			got := ad.Rules.Assess(Observation{Screen: snap, Quiet: time.Minute})
			if got.State != want {
				t.Errorf("%s: %s by rule %q, want %s", f, got.State, got.Rule, want)
			}
		})
	}
}

// goldenState is the state a golden file's name promises.
func goldenState(t *testing.T, name string) Attention {
	t.Helper()
	for _, s := range screenStates {
		if strings.HasPrefix(name, s.prefix) {
			return s.state
		}
	}
	t.Fatalf("golden screen %s: name must start with needs-input-, working- or idle-", name)
	return 0
}

// TestGoldenScreensCoverEveryAgent: each real CLI has its dialogs, prompt
// and busy screen recorded, so a rule change is judged against all three.
func TestGoldenScreensCoverEveryAgent(t *testing.T) {
	for _, agent := range []string{"claude", "codex", "gemini"} {
		for _, prefix := range []string{"needs-input-prompt", "needs-input-apikey", "working-"} {
			m, _ := filepath.Glob(filepath.Join("testdata/screens", agent, prefix+"*.txt"))
			if len(m) == 0 {
				t.Errorf("no golden screen %s/%s*.txt", agent, prefix)
			}
		}
	}
}
