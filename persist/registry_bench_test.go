package persist

import (
	"fmt"
	"path/filepath"
	"testing"
)

// registryOf is sampleRegistry's full record repeated n times, as a host
// with n panes saves it.
func registryOf(n int) *Registry {
	full := sampleRegistry().Panes[0]
	r := &Registry{}
	for i := range n {
		rec := full
		rec.ID, rec.Name, rec.Nonce = fmt.Sprintf("p%d", i+1), fmt.Sprintf("shell-%d", i+1), fmt.Sprintf("nonce-%d", i)
		r.Panes = append(r.Panes, rec)
	}
	return r
}

// BenchmarkRegistrySave100 is one save of agents.json with 100 panes,
// what each of a spawn's two saves costs at 100 panes (issue 12).
func BenchmarkRegistrySave100(b *testing.B) {
	path := filepath.Join(b.TempDir(), AgentsFileName)
	r := registryOf(100)
	for b.Loop() {
		if err := r.Save(path); err != nil {
			b.Fatal(err)
		}
	}
}
