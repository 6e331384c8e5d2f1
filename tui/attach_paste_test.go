package tui

import (
	"bytes"
	"strings"
	"testing"

	"clowder/panes"
)

// The gate sends a paste's brackets to the host and everything else to
// the master, in order, whatever reads cut the input into: every cut of a
// paste with keys around it gives the master the same bytes, and the host
// the brackets, once each.
func TestPasteGateBracketsThroughTheHostAtEveryCut(t *testing.T) {
	in := "ab" + panes.PasteStart + "x\x1by" + panes.PasteEnd + "\x1bc"
	for cut := 1; cut < len(in); cut++ {
		var out bytes.Buffer
		var parts []string
		g := &pasteGate{master: &out, bracket: func(part string) bool {
			parts = append(parts, part)
			out.WriteString("<" + part + ">") // where the host wrote it
			return true
		}}
		for _, b := range []string{in[:cut], in[cut:]} {
			if n, err := g.Write([]byte(b)); n != len(b) || err != nil {
				t.Fatalf("cut %d: Write = %d, %v", cut, n, err)
			}
		}
		want := "ab<first>x\x1by<last>\x1bc"
		startCut := cut > 2 && cut < 2+len(panes.PasteStart)
		if startCut { // a start marker cut between reads passes as it is, and so does its end
			want = in
		}
		if got := out.String(); got != want {
			t.Errorf("cut %d: master got %q, want %q", cut, got, want)
		}
		if !startCut && strings.Join(parts, " ") != "first last" {
			t.Errorf("cut %d: host asked %v", cut, parts)
		}
	}
}

// When the host does not write a bracket (no host, an old one), the gate
// writes it to the master itself, as attach did before.
func TestPasteGateWritesTheBracketsItselfWithoutAHost(t *testing.T) {
	var out bytes.Buffer
	g := &pasteGate{master: &out, bracket: func(string) bool { return false }}
	in := panes.PasteStart + "text" + panes.PasteEnd + "k"
	if _, err := g.Write([]byte(in)); err != nil {
		t.Fatal(err)
	}
	if out.String() != in {
		t.Errorf("master got %q, want %q", out.String(), in)
	}
}
