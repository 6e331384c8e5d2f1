package host

import (
	"testing"
	"time"

	"clowder/persist"
)

// A pane spawned with a profile as its adapter gets the profile's submit
// gap and its base adapter's rules from the host (issue 11 §6), not the
// generic adapter of an unknown name.
func TestHostResolvesAProfileAsItsAdapter(t *testing.T) {
	cfg := persist.DefaultConfig()
	gap := persist.Duration(750 * time.Millisecond)
	cfg.Profiles = map[string]persist.ProfileConfig{"review": {Agent: "gemini", SubmitGap: &gap}}
	h, err := New(Options{Paths: persist.Paths{RuntimeDir: t.TempDir(), StateDir: t.TempDir()}, Config: cfg, Build: "test", IdleExit: -1})
	if err != nil {
		t.Fatal(err)
	}
	ad := h.adapterFor(persist.PaneRecord{Adapter: "review", Kind: persist.KindAgent})
	base := h.adapterFor(persist.PaneRecord{Adapter: "gemini", Kind: persist.KindAgent})
	if ad.Name != "review" || ad.SubmitGap != 750*time.Millisecond || len(ad.Rules.List) != len(base.Rules.List) {
		t.Errorf("adapter for review = %s gap %v with %d rules; want review, 750ms and gemini's %d rules",
			ad.Name, ad.SubmitGap, len(ad.Rules.List), len(base.Rules.List))
	}
}
