package persist

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPeekRegistryOfAnOversizedFileSaysWhatHappensToIt pins a trial-4
// fault: with no host, `clowder ls` of an agents.json over 32 MiB said
// only "the file is 38.1 MiB, more than the limit of 32 MiB", not what to
// do, though the next host moves it aside as it does a corrupt one.
func TestPeekRegistryOfAnOversizedFileSaysWhatHappensToIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), AgentsFileName)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(registryKind.maxBytes + 1); err != nil { // sparse: no 32 MiB written
		t.Fatal(err)
	}
	_ = f.Close()
	_, err = PeekRegistry(path)
	if err == nil || !strings.Contains(err.Error(), "more than the limit") || !strings.Contains(err.Error(), "moves it aside") {
		t.Errorf("PeekRegistry of an oversized file: %v; want the limit and that the next host moves it aside", err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != registryKind.maxBytes+1 {
		t.Errorf("the file was changed: %v %v", fi, err)
	}
}
