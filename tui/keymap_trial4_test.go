package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
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

// TestSendKeysPromptUnknownKeySaysNothingOfCLIFlag: the send-keys prompt
// (prefix S) refused an unknown name with panes' line, whose "use -l" is
// the CLI's flag: the prompt has none.
func TestSendKeysPromptUnknownKeySaysNothingOfCLIFlag(t *testing.T) {
	m, _ := twoPanes(t)
	prefix(t, m)
	typeText(t, m, "S")
	typeText(t, m, "Bogus")
	press(t, m, tea.Key{Code: tea.KeyEnter})
	if !strings.Contains(m.status, `"Bogus"`) || strings.Contains(m.status, "-l") {
		t.Fatalf("send-keys prompt with Bogus: status %q; want the key named, without the CLI's -l", m.status)
	}
}
