package panes

import (
	"strings"
	"testing"
)

// TestValidateNameClipsALongName pins a trial bug: a 10 KB pane name was
// echoed whole in the error (the host sends it back as the reply's one
// line). The error quotes only its start and says the limit.
func TestValidateNameClipsALongName(t *testing.T) {
	err := ValidateName(strings.Repeat("n", 10<<10))
	if err == nil || len(err.Error()) > 200 || !strings.Contains(err.Error(), "at most 40") {
		t.Fatalf("ValidateName(10 KB): %d bytes: %.300v; want one short line with the limit", len(err.Error()), err)
	}
}
