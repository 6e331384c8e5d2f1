package tui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"clowder/persist"
	"clowder/supervisor/proto"
)

// Regression: a layout.json that parses but is invalid (a negative ratio,
// a split with three children, an empty split) was reported as "not used"
// and then the next save replaced it with no copy kept. It must be moved
// aside like broken JSON, and the message must say where it went.
func TestInvalidLayoutJSONIsMovedAsideAndTheMessageSaysWhere(t *testing.T) {
	docs := map[string]string{
		"negative ratio": `{"tree":{"schema_version":1,"root":{"axis":"horizontal","ratio":-5,"children":[{"pane":"p1"},{"pane":"p2"}]},"focus":"p1"},"panes":{}}`,
		"three children": `{"tree":{"schema_version":1,"root":{"axis":"horizontal","ratio":0.5,"children":[{"pane":"p1"},{"pane":"p2"},{"pane":"p3"}]},"focus":"p1"},"panes":{}}`,
		"empty split":    `{"tree":{"schema_version":1,"root":{"axis":"horizontal","ratio":0.5,"children":[]},"focus":"p1"},"panes":{}}`,
	}
	for name, doc := range docs {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "layout.json")
			content := `{"schema_version":1,"layout":` + doc + "}\n"
			if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			m := startOnLayout(t, dir)
			aside := regexp.MustCompile(regexp.QuoteMeta(path) + `\.corrupt-\d{8}T\d{6}Z`)
			moved := aside.FindString(m.status)
			if !strings.Contains(m.status, "layout.json not used") || moved == "" {
				t.Fatalf("status = %q, want it to say layout.json was moved to %s.corrupt-<time>", m.status, path)
			}
			if got, err := os.ReadFile(moved); err != nil || string(got) != content {
				t.Errorf("moved copy = %q, %v; want the original", got, err)
			}
		})
	}
}

// startOnLayout starts a model whose state dir is dir, over a host with
// one running pane.
func startOnLayout(t *testing.T, dir string) *Model {
	t.Helper()
	h := &fakeHost{infos: []proto.PaneInfo{running("p1", "a")}, next: 100, t: t}
	c := persist.DefaultConfig()
	c.TUI.DefaultAdapter = ""
	m, err := New(Options{Host: h, Config: c, Paths: persist.Paths{StateDir: dir}, Cwd: "/work", Clipboard: &fakeClipboard{}})
	if err != nil {
		t.Fatal(err)
	}
	m.mail.close()
	t.Cleanup(m.Close)
	m.after = h.timers.arm
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	settle(t, m, m.startCmd())
	return m
}
