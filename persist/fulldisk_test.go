package persist

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fillDisk writes a filler file into dir until the filesystem is full.
func fillDisk(t *testing.T, dir string) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	chunk := make([]byte, 4096)
	for i := 0; ; i++ {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("fill %s: %v, want ENOSPC", dir, err)
			}
			return
		}
		if i > 1<<16 {
			t.Fatalf("fill %s: still not full after 256 MiB; is it really a small tmpfs?", dir)
		}
	}
}

func TestSaveOnFullDiskFailsAndKeepsOldFile(t *testing.T) {
	dir := mountTmpfs(t, "64k")
	path := filepath.Join(dir, AgentsFileName)
	old := sampleRegistry()
	if err := old.Save(path); err != nil {
		t.Fatal(err)
	}
	before := readFile(t, path)
	fillDisk(t, dir)

	bigger := sampleRegistry()
	for i := range 50 {
		rec := bigger.Panes[1]
		rec.ID = "extra-" + string(rune('a'+i%26)) + string(rune('a'+i/26))
		bigger.Put(rec)
	}
	err := bigger.Save(path)
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Save on a full disk = %v, want ENOSPC", err)
	}
	for _, want := range []string{"save registry " + path, "no space left on device"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if got := readFile(t, path); got != before {
		t.Errorf("agents.json changed after the failed save")
	}
	if _, err := LoadRegistry(path); err != nil {
		t.Errorf("the old file no longer loads: %v", err)
	}
	assertNames(t, dir, AgentsFileName, "filler")
}
