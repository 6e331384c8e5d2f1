//go:build linux || darwin

package persist

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLockRefusesWhatIsNotItsOwnRegularFile pins a trial bug: Lock
// followed a symlink planted as host.lock, truncating the file it named
// (or, dangling, creating it) to write its pid there. A link, a fifo or
// a file others may write is refused with a *RefusedError, and nothing
// is created or written.
func TestLockRefusesWhatIsNotItsOwnRegularFile(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("precious"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := map[string]func(path string) error{
		"symlink":          func(p string) error { return os.Symlink(victim, p) },
		"dangling symlink": func(p string) error { return os.Symlink(filepath.Join(dir, "made-through"), p) },
		"group-writable": func(p string) error {
			if err := os.WriteFile(p, nil, 0o600); err != nil {
				return err
			}
			return os.Chmod(p, 0o660)
		},
	}
	for name, plant := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".lock")
			if err := plant(path); err != nil {
				t.Fatal(err)
			}
			l, err := Lock(path)
			var refused *RefusedError
			if !errors.As(err, &refused) || !strings.Contains(err.Error(), path) {
				l.Close()
				t.Fatalf("Lock(%s): %v; want a *RefusedError naming it", name, err)
			}
		})
	}
	if data, _ := os.ReadFile(victim); string(data) != "precious" {
		t.Errorf("the linked file was written: %q", data)
	}
	if _, err := os.Lstat(filepath.Join(dir, "made-through")); err == nil {
		t.Error("a dangling link's target was created")
	}
}
