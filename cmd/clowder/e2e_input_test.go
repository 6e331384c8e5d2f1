//go:build linux

package main

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"clowder/supervisor/proto"
)

// TestE2ETUITypingRightAfterASplitReachesTheNewPaneInOrder pins issue 7
// §1: `echo mk864906` typed right after a split reached the shell as
// `ceh om8k6940`. Twenty times in a row: split, then at once a 500
// character line; the new pane's shell runs it whole and in order (it
// writes its own pane id and the text to a file).
func TestE2ETUITypingRightAfterASplitReachesTheNewPaneInOrder(t *testing.T) {
	e, o := tuiEnv(t, 160, 48)
	o.waitScreen("$")
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	for i := range 20 {
		before := paneIDs(e.livePanes())
		out := filepath.Join(e.dir, fmt.Sprintf("typed.%d", i))
		head := `printf '%s %s\n' "$CLOWDER_PANE_ID" `
		tail := " >" + out
		text := randomWord(rng, 500-len(head)-len(tail))
		line := head + text + tail
		o.keys("C-Space", "%")
		o.keys("-l", line)
		o.keys("Enter")
		var got []byte
		e.eventually(15*time.Second, fmt.Sprintf("round %d: the typed line ran", i), func() bool {
			got, _ = os.ReadFile(out)
			return strings.HasSuffix(string(got), "\n")
		})
		added := slices.DeleteFunc(paneIDs(e.livePanes()), func(id string) bool { return slices.Contains(before, id) })
		if len(added) != 1 {
			t.Fatalf("round %d: the split added panes %v, want one", i, added)
		}
		if want := added[0] + " " + text + "\n"; string(got) != want {
			t.Fatalf("round %d: the shell ran the line as\n%q\nwant\n%q", i, got, want)
		}
		e.must("rm", added[0]) // keeps the layout from filling up
		e.eventually(10*time.Second, "the removed pane gone", func() bool {
			return !slices.Contains(paneIDs(e.livePanes()), added[0])
		})
	}
}

// paneIDs lists the panes' ids.
func paneIDs(list []proto.PaneInfo) []string {
	var ids []string
	for _, p := range list {
		ids = append(ids, p.ID)
	}
	return ids
}

// randomWord is n random lower-case letters and digits (nothing a shell
// reads specially).
func randomWord(rng *rand.Rand, n int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[rng.Intn(len(alphabet))]
	}
	return string(b)
}

// TestE2ETUIPrefixCommandsRightAfterASplitActOnTheNewPane pins a bug of
// issue 7 §1: in one burst, `C-Space %`, `C-Space "` and a command; the
// second split went below the original pane, because the new pane entered
// the layout only once the host answered. Now the split is immediate: the
// third pane is below the second, and the command runs in the third.
func TestE2ETUIPrefixCommandsRightAfterASplitActOnTheNewPane(t *testing.T) {
	e, o := tuiEnv(t, 160, 48)
	live := e.livePanes()
	orig, companion := live[0].ID, live[1].ID
	if live[0].Kind != "agent" {
		orig, companion = companion, orig
	}
	e.must("rm", companion) // one pane, as the report had it
	e.eventually(10*time.Second, "one pane left", func() bool { return len(savedTree(t, e).leaves()) == 1 })
	o.run("send-keys", "-t", "0", "C-Space", "%", ";", "send-keys", "-t", "0", "C-Space", `"`, ";",
		"send-keys", "-t", "0", "-l", "echo THIRD", ";", "send-keys", "-t", "0", "Enter")
	var root *layoutNode
	e.eventually(15*time.Second, "three panes in layout.json", func() bool {
		root = savedTree(t, e)
		return len(root.leaves()) == 3
	})
	if root.Axis != "horizontal" || root.Children[0].Pane != orig || root.Children[1].Axis != "vertical" || len(root.Children[1].Children) != 2 {
		t.Fatalf("layout = %s; want [%s | [second / third]]", root, orig)
	}
	third := root.Children[1].Children[1].Pane
	e.eventually(15*time.Second, "THIRD echoed in the third pane", func() bool {
		out, _, _ := e.run("capture", third)
		return strings.Count(out, "THIRD") == 2 // the command and its output
	})
}

// layoutNode is a node of layout.json's tree, as the layout package
// writes it.
type layoutNode struct {
	Pane     string        `json:"pane"`
	Axis     string        `json:"axis"`
	Children []*layoutNode `json:"children"`
}

// leaves lists the panes under n, in order.
func (n *layoutNode) leaves() []string {
	if n == nil {
		return nil
	}
	if n.Pane != "" {
		return []string{n.Pane}
	}
	var out []string
	for _, c := range n.Children {
		out = append(out, c.leaves()...)
	}
	return out
}

// String shows n as [a | [b / c]].
func (n *layoutNode) String() string {
	if n == nil || n.Pane != "" || len(n.Children) != 2 {
		if n == nil {
			return "<none>"
		}
		return n.Pane
	}
	sep := " | "
	if n.Axis == "vertical" {
		sep = " / "
	}
	return "[" + n.Children[0].String() + sep + n.Children[1].String() + "]"
}

// savedTree reads layout.json's tree (nil while there is none).
func savedTree(t *testing.T, e *e2eEnv) *layoutNode {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(e.dir, "state", "layout.json"))
	if err != nil {
		return nil
	}
	var doc struct {
		Layout struct {
			Tree struct {
				Root *layoutNode `json:"root"`
			} `json:"tree"`
		} `json:"layout"`
	}
	if json.Unmarshal(raw, &doc) != nil {
		return nil
	}
	return doc.Layout.Tree.Root
}
