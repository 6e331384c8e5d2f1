package tui

import (
	"strings"
	"testing"
)

// TestUnknownPrefixKeySaysNothingOfSendKeysFlag pins a trial-4 fault: a
// `[tui] prefix = "Bogus"` in config.toml was refused with panes' own
// line, which ends with send-keys' advice "to send text as typed, use
// -l" (as the TUI's send-keys prompt did): no -l exists there.
func TestUnknownPrefixKeySaysNothingOfSendKeysFlag(t *testing.T) {
	_, err := NewKeyMap("Bogus", nil)
	if err == nil || !strings.Contains(err.Error(), `"Bogus"`) || strings.Contains(err.Error(), "-l") {
		t.Fatalf("NewKeyMap with prefix Bogus: %v; want an error naming it, without send-keys' -l", err)
	}
}
