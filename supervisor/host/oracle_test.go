package host

import (
	"testing"

	"clowder/supervisor"
	"clowder/supervisor/internal/testproc"
)

// newOracle registers the no-orphan check for t (testproc.Oracle), with
// this process a subreaper so orphans stay observable.
func newOracle(t *testing.T) *testproc.Oracle {
	t.Helper()
	if err := supervisor.StartSubreaper(); err != nil {
		t.Fatalf("StartSubreaper: %v", err)
	}
	return testproc.NewOracle(t)
}
