package persist

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadConfigRefusesADanglingLink pins a trial-4 fault: a config.toml
// that is a symlink to a file that is gone (dotfiles moved) was taken for
// no config at all, so every setting silently went back to its default.
func TestLoadConfigRefusesADanglingLink(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	if err := os.Symlink(filepath.Join(dir, "dotfiles", "clowder.toml"), path); err != nil {
		t.Fatal(err)
	}
	_, err := LoadConfig(path)
	if err == nil || !strings.Contains(err.Error(), "dotfiles/clowder.toml") || !strings.Contains(err.Error(), "link") {
		t.Fatalf("LoadConfig of a dangling link: %v; want an error naming the link's missing target", err)
	}
	if _, err := LoadConfig(filepath.Join(dir, "none.toml")); err != nil {
		t.Errorf("a missing config is the defaults, got %v", err)
	}
}
