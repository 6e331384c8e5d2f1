package tui

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"clowder/supervisor/proto"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// stripped is the view as plain text.
func stripped(m *Model) string { return ansi.Strip(m.View().Content) }

// golden compares the view, as plain text and with its styles, to
// testdata/name.txt and testdata/name.ansi.
func golden(t *testing.T, m *Model, name string) {
	t.Helper()
	for ext, got := range map[string]string{".txt": stripped(m) + "\n", ".ansi": m.View().Content + "\n"} {
		path := filepath.Join("testdata", name+ext)
		if *update {
			if err := os.MkdirAll("testdata", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./tui -run %s -update)", err, t.Name())
		}
		if string(want) != got {
			t.Errorf("%s differs from the view:\n--- want\n%s\n--- got\n%s", path, want, got)
		}
	}
}

// goldenModel is two panes with some text, the left one focused.
func goldenModel(t *testing.T) *Model {
	t.Helper()
	left := running("p1", "claude-fix")
	left.Kind, left.Adapter = "agent", "claude"
	m, _ := newTestModel(t, []proto.PaneInfo{left, running("p2", "shell")}, nil)
	_ = m.tree.SetFocus("p1")
	frame(t, m, "p1", 39, 22, proto.FrameModes{}, "Welcome to the agent", "> fix the login bug")
	frame(t, m, "p2", 40, 22, proto.FrameModes{}, "$ go test ./...", "ok  clowder/tui", "$ ")
	m.Update(tea0())
	return m
}

func TestGoldenTwoPanes(t *testing.T) {
	golden(t, goldenModel(t), "two-panes-80x24")
}

func TestGoldenZoomedPane(t *testing.T) {
	m := goldenModel(t)
	prefix(t, m)
	typeText(t, m, "z")
	golden(t, m, "zoomed-80x24")
}

func TestGoldenHelpOverlay(t *testing.T) {
	m := goldenModel(t)
	m.Update(tea0())
	m.Update(sizeMsg(120, 40))
	prefix(t, m)
	typeText(t, m, "?")
	golden(t, m, "help-120x40")
}

func TestGoldenNeedsInputBadge(t *testing.T) {
	m := goldenModel(t)
	m.Update(mailMsg{events: []proto.PaneEvent{{Kind: proto.EventAttention, Pane: "p2", Attention: "needs-input"}}})
	golden(t, m, "needs-input-80x24")
}

func TestGoldenPrefixAndPrompt(t *testing.T) {
	m := goldenModel(t)
	prefix(t, m)
	golden(t, m, "prefix-80x24")
	typeText(t, m, ",")
	golden(t, m, "rename-prompt-80x24")
}

// tea0 is a message Update ignores, to trigger nothing but a render check.
func tea0() any { return struct{}{} }

// sizeMsg is a window size.
func sizeMsg(w, h int) any { return teaWindowSize(w, h) }
