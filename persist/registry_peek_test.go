package persist

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPeekRegistryTellsANewerSchemaFromACorruptFile: only a corrupt
// agents.json is said to be moved aside by the next host; one from a
// newer clowder is left in place, and its error says so (a trial fault
// gave it the corrupt file's words).
func TestPeekRegistryTellsANewerSchemaFromACorruptFile(t *testing.T) {
	dir := t.TempDir()
	for body, aside := range map[string]bool{`{"schema_version":99,"panes":[]}`: false, `{"schema_ver`: true} {
		path := filepath.Join(dir, AgentsFileName)
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := PeekRegistry(path)
		if err == nil || strings.Contains(err.Error(), "moves it aside") != aside {
			t.Errorf("PeekRegistry of %s: %v; want an error that says it is moved aside: %v", body, err, aside)
		}
	}
}
