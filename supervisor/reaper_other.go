//go:build !linux

// No subreaper outside Linux: escaped orphans go to init, which reaps them.

package supervisor

// StartSubreaper is a no-op on this OS: escaped orphans are re-parented to
// init (launchd), which reaps them, and the kill ladder can reach only the
// process group. Idempotent.
func StartSubreaper() error { return nil }

func subreaper() bool { return false }
