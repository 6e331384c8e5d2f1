package persist

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// writeFile is os.WriteFile that fails the test on error.
func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// readFile returns a file's content, or "<missing>".
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return "<missing>"
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// dirNames lists a directory, sorted.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// assertNames fails unless dir holds exactly want (which proves no temp
// file was left behind).
func assertNames(t *testing.T, dir string, want ...string) {
	t.Helper()
	slices.Sort(want)
	if got := dirNames(t, dir); !slices.Equal(got, want) {
		t.Errorf("dir holds %q, want %q", got, want)
	}
}

// readOnlyDir returns a directory holding files that can no longer be
// written: chmod 0500 for a normal user, a read-only tmpfs for root (whom
// permissions do not stop). It skips where neither works.
func readOnlyDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	if os.Getuid() == 0 {
		dir = mountTmpfs(t, "1m")
	}
	for name, content := range files {
		writeFile(t, filepath.Join(dir, name), content)
	}
	if os.Getuid() == 0 {
		remountReadOnly(t, dir)
		return dir
	}
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(dir, 0o700) }) // so TempDir can remove it
	return dir
}

func TestWriteFileReplacesAndKeepsBackup(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.json")
	if err := WriteFile(path, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	assertNames(t, dir, "f.json") // the first write has nothing to back up
	if err := WriteFile(path, []byte("two"), 0o640); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "two" {
		t.Errorf("file = %q, want two", got)
	}
	if got := readFile(t, path+BackupSuffix); got != "one" {
		t.Errorf("backup = %q, want one", got)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("mode = %v, want 0640", fi.Mode().Perm())
	}
	if err := WriteFile(path, []byte("three"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path+BackupSuffix); got != "two" {
		t.Errorf("backup after third write = %q, want two", got)
	}
	assertNames(t, dir, "f.json", "f.json.bak")
}

// errInjected stands for a failing filesystem step.
var errInjected = errors.New("injected failure")

func TestWriteFileFailureLeavesOldFileIntact(t *testing.T) {
	tests := []struct {
		name    string
		ops     func(path string, ops fileOps) fileOps
		wantErr string
		wantBak string // the .bak after the failed write
	}{
		{
			name: "fsync of the temp file fails",
			ops: func(_ string, o fileOps) fileOps {
				o.sync = func(*os.File) error { return errInjected }
				return o
			},
			wantErr: "fsync temp file", wantBak: "older",
		},
		{
			name: "rename into place fails",
			ops: func(path string, o fileOps) fileOps {
				o.rename = func(from, to string) error {
					if to == path {
						return errInjected
					}
					return os.Rename(from, to)
				}
				return o
			},
			// The backup step ran before the failing rename: .bak now
			// holds the current file, which is still in place too.
			wantErr: "rename temp file into place", wantBak: "old",
		},
		{
			name: "backup rename fails",
			ops: func(path string, o fileOps) fileOps {
				o.rename = func(from, to string) error {
					if to == path+BackupSuffix {
						return errInjected
					}
					return os.Rename(from, to)
				}
				return o
			},
			wantErr: "keep backup", wantBak: "older",
		},
		{
			name: "hard link and copy both fail",
			ops: func(_ string, o fileOps) fileOps {
				o.link = func(string, string) error { return errInjected }
				o.sync = func(f *os.File) error {
					if strings.Contains(filepath.Base(f.Name()), ".bak.tmp-") {
						return errInjected
					}
					return f.Sync()
				}
				return o
			},
			wantErr: "keep backup", wantBak: "older",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "f.json")
			writeFile(t, path, "old")
			writeFile(t, path+BackupSuffix, "older")
			err := writeAtomic(tc.ops(path, systemOps()), path, []byte("new"), 0o600, withBackup)
			if !errors.Is(err, errInjected) || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err = %v, want %q wrapping the injected failure", err, tc.wantErr)
			}
			if got := readFile(t, path); got != "old" {
				t.Errorf("file = %q, want old", got)
			}
			if got := readFile(t, path+BackupSuffix); got != tc.wantBak {
				t.Errorf("backup = %q, want %q", got, tc.wantBak)
			}
			assertNames(t, dir, "f.json", "f.json.bak")
		})
	}
}

func TestWriteFileFallsBackToCopyWhenLinkFails(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.json")
	writeFile(t, path, "old")
	ops := systemOps()
	ops.link = func(string, string) error { return syscall.EPERM }
	if err := writeAtomic(ops, path, []byte("new"), 0o600, withBackup); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path+BackupSuffix); got != "old" {
		t.Errorf("backup = %q, want old", got)
	}
	assertNames(t, dir, "f.json", "f.json.bak")
}

func TestWriteFileDirSyncFailureIsReported(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.json")
	ops := systemOps()
	ops.sync = func(f *os.File) error {
		if f.Name() == dir {
			return errInjected
		}
		return f.Sync()
	}
	err := writeAtomic(ops, path, []byte("new"), 0o600, withBackup)
	if !errors.Is(err, errInjected) || !strings.Contains(err.Error(), "fsync dir "+dir) {
		t.Fatalf("err = %v, want the dir fsync failure naming %s", err, dir)
	}
	assertNames(t, dir, "f.json")
}

func TestWriteFileIntoReadOnlyDirFailsAndLeavesOldFile(t *testing.T) {
	dir := readOnlyDir(t, map[string]string{"f.json": "old"})
	path := filepath.Join(dir, "f.json")
	err := WriteFile(path, []byte("new"), 0o600)
	if err == nil || !strings.Contains(err.Error(), "write "+path) {
		t.Fatalf("err = %v, want a failure naming %s", err, path)
	}
	if got := readFile(t, path); got != "old" {
		t.Errorf("file = %q, want old", got)
	}
	assertNames(t, dir, "f.json")
}

func TestWriteFileOverDirectoryFails(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.json")
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(path, []byte("new"), 0o600)
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("err = %v, want a refusal to replace a directory", err)
	}
	assertNames(t, dir, "f.json")
}
