package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestJSONEscapesDELAndC1: a pane title holding U+009B (CSI) or DEL must
// not reach the terminal of a user who prints `ls --json`. Regression:
// encoding/json left both raw.
func TestJSONEscapesDELAndC1(t *testing.T) {
	in := map[string]string{"title": "a\x7fb\u009b31mc\u0080d\u00a0é"}
	var out bytes.Buffer
	if err := writeJSON(&app{stdout: &out}, in); err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{"\x7f", "\u009b", "\u0080"} {
		if strings.Contains(out.String(), raw) {
			t.Errorf("output holds raw %q: %q", raw, out.String())
		}
	}
	var back map[string]string
	if err := json.Unmarshal(out.Bytes(), &back); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out.String())
	}
	if back["title"] != in["title"] {
		t.Fatalf("round trip: %q, want %q", back["title"], in["title"])
	}
}
