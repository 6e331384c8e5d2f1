//go:build linux

package main

import (
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
