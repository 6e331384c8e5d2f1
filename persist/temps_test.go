package persist

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// ageFile sets a file's times to d ago.
func ageFile(t *testing.T, path string, d time.Duration) {
	t.Helper()
	at := time.Now().Add(-d)
	if err := os.Chtimes(path, at, at); err != nil {
		t.Fatal(err)
	}
}

// Regression (issue 7 §4): an atomic write interrupted by a crash or
// SIGHUP left .layout.json.tmp-* (and .bak temps) behind for ever. Loading
// layout.json removes the ones older than a minute, and only those: a
// younger one may be another TUI's write in progress.
func TestLoadLayoutRemovesStaleTempsOnly(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, LayoutFileName)
	if err := SaveLayout(path, []byte(`{"tree":1}`)); err != nil {
		t.Fatal(err)
	}
	stale := []string{".layout.json.tmp-123", ".layout.json.bak.tmp", ".layout.json.bak.tmp-9z"}
	fresh := ".layout.json.tmp-456"
	others := []string{".agents.json.tmp-1", "layout.json.tmp-1", ".layout.json.tmpx"}
	for _, n := range append(append(stale, fresh), others...) {
		writeFile(t, filepath.Join(dir, n), "partial")
		if n != fresh {
			ageFile(t, filepath.Join(dir, n), 2*time.Minute)
		}
	}
	if _, err := LoadLayout(path, nil); err != nil {
		t.Fatal(err)
	}
	assertNames(t, dir, append([]string{LayoutFileName, fresh}, others...)...)
}

func TestRemoveStaleTempsWithoutAgeRemovesAll(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, AgentsFileName)
	for _, n := range []string{".agents.json.tmp-1", ".agents.json.tmp-2", ".agents.json.bak.tmp", AgentsFileName, AgentsFileName + BackupSuffix} {
		writeFile(t, filepath.Join(dir, n), "x")
	}
	removed, err := RemoveStaleTemps(path, 0)
	if err != nil || len(removed) != 3 {
		t.Fatalf("RemoveStaleTemps = %v, %v; want the 3 temps", removed, err)
	}
	assertNames(t, dir, AgentsFileName, AgentsFileName+BackupSuffix)
}

// The backup step's temp has a unique name: two writers of one file (two
// TUIs saving layout.json) no longer share, and remove, one fixed name.
func TestSavesLeaveNoTempsAndUseUniqueBackupTemps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, LayoutFileName)
	blocker := filepath.Join(dir, ".layout.json.bak.tmp")
	writeFile(t, blocker, "another writer's link") // the old fixed name
	for range 3 {
		if err := SaveLayout(path, []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
	}
	if got := readFile(t, blocker); got != "another writer's link" {
		t.Errorf("a save removed or replaced %s: %q", blocker, got)
	}
	assertNames(t, dir, LayoutFileName, LayoutFileName+BackupSuffix, filepath.Base(blocker))
}
