// Pane tokens (docs/processes.md, "Orphans"). Every pane's processes carry
// an unguessable per-pane token in their environment (CLOWDER_PANE_TOKEN),
// inherited by everything they start, even a setsid grandchild that leaves
// the pane's group and session and outlives its leader. A host that finds
// the tree of a dead host without a cgroup leaf, or without a leader (the
// host died between the start and the record of its pid), finds its
// processes by that token in one scan of /proc. The token is not a
// credential (any process of the user can read it), but it is kept out of
// logs.

package supervisor

import "crypto/rand"

// PaneTokenEnv names the pane's token in its processes' environment.
const PaneTokenEnv = "CLOWDER_PANE_TOKEN"

// NewPaneToken returns a fresh unguessable token (130 random bits).
func NewPaneToken() string { return rand.Text() }

// TokenScan is one scan of the process table for pane tokens: the live
// processes of this user, other than this one, that carry a token. The
// zero value found nothing.
type TokenScan struct {
	byToken map[string][]Identity
}

// Carriers lists the processes found carrying token that started at or
// after since (in the clock of Identity.Start): those the pane's run may
// have started. An empty token has none.
func (s *TokenScan) Carriers(token string, since uint64) []Identity {
	if s == nil || token == "" {
		return nil
	}
	var out []Identity
	for _, id := range s.byToken[token] {
		if id.Start >= since {
			out = append(out, id)
		}
	}
	return out
}

// add records that id carries token.
func (s *TokenScan) add(token string, id Identity) {
	if s.byToken == nil {
		s.byToken = map[string][]Identity{}
	}
	s.byToken[token] = append(s.byToken[token], id)
}
