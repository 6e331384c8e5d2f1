package persist

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// assertRefused checks that err is a *RefusedError naming path with every
// want, on one line.
func assertRefused(t *testing.T, err error, path string, want ...string) {
	t.Helper()
	var re *RefusedError
	if !errors.As(err, &re) {
		t.Fatalf("err = %v (%T), want *RefusedError", err, err)
	}
	for _, w := range append(want, path, "left it as it is") {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("message %q lacks %q", err, w)
		}
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("message %q is not one line", err)
	}
}

// hostileCases set up a state file that must not be trusted; each names
// what the message must say.
var hostileCases = []struct {
	name  string
	setup func(t *testing.T, path string)
	want  []string
}{
	{"symlink", func(t *testing.T, path string) {
		real := filepath.Join(t.TempDir(), "elsewhere.json")
		writeFile(t, real, `{"schema_version": 1, "panes": [], "layout": {}}`)
		if err := os.Symlink(real, path); err != nil {
			t.Fatal(err)
		}
	}, []string{"symbolic link", "replace the link"}},
	{"group writable", func(t *testing.T, path string) { writeMode(t, path, 0o660) }, []string{"mode 0660", "chmod 600"}},
	{"world writable", func(t *testing.T, path string) { writeMode(t, path, 0o646) }, []string{"mode 0646", "chmod 600"}},
	{"fifo", func(t *testing.T, path string) {
		if err := syscall.Mkfifo(path, 0o600); err != nil {
			t.Skip("no mkfifo:", err)
		}
	}, []string{"not a regular file"}},
}

// writeMode writes a valid state file with exactly mode perm.
func writeMode(t *testing.T, path string, perm os.FileMode) {
	t.Helper()
	writeFile(t, path, `{"schema_version": 1, "panes": [], "layout": {}}`)
	if err := os.Chmod(path, perm); err != nil {
		t.Fatal(err)
	}
}

func TestHostileStateFileIsRefusedAndLeftAlone(t *testing.T) {
	for _, f := range docFiles() {
		for _, tc := range hostileCases {
			t.Run(f.name+"/"+tc.name, func(t *testing.T) {
				dir := t.TempDir()
				path := filepath.Join(dir, f.name)
				tc.setup(t, path)
				before, _ := os.Lstat(path)
				assertRefused(t, f.load(path), path, tc.want...)
				after, err := os.Lstat(path)
				if err != nil || after.Mode() != before.Mode() || after.ModTime() != before.ModTime() {
					t.Errorf("file changed: %v, %v -> %v", err, before.Mode(), after)
				}
				assertNames(t, dir, f.name)
			})
		}
	}
}

func TestForeignOwnedStateFileIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), AgentsFileName)
	writeMode(t, path, 0o600)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	err = checkStateFile("registry", path, fi, os.Getuid()+1)
	assertRefused(t, err, path, "is owned by uid", "not by you", "remove it")
	if os.Getuid() != 0 {
		return
	}
	// As root, a real file of another user through the public API.
	if err := os.Chown(path, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	_, err = LoadRegistry(path)
	assertRefused(t, err, path, "owned by uid 65534")
}

func TestUnsafeStateDirIsRefused(t *testing.T) {
	for _, perm := range []os.FileMode{0o770, 0o707, 0o1777} {
		dir := filepath.Join(t.TempDir(), "state")
		mkdirMode(t, dir, perm)
		if err := os.Chmod(dir, perm); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, AgentsFileName)
		writeMode(t, path, 0o600)
		_, err := LoadRegistry(path)
		assertRefused(t, err, dir, "state dir", "lets other users", "chmod 700 "+dir)
		err = Paths{StateDir: dir}.EnsureStateDir()
		assertRefused(t, err, dir, "chmod 700 "+dir)
		assertNames(t, dir, AgentsFileName)
	}
	dir := t.TempDir()
	err := checkStateDir(dir, os.Getuid()+1)
	assertRefused(t, err, dir, "is owned by uid", EnvStateDir)
}

// A save never replaces a file a load refuses: the message said clowder
// left it as it is, and a TUI that could not load layout.json must not
// then overwrite it (nor hang on a FIFO reading its schema version).
func TestSaveRefusesWhereLoadRefuses(t *testing.T) {
	for _, f := range docFiles() {
		for _, tc := range hostileCases {
			t.Run(f.name+"/"+tc.name, func(t *testing.T) {
				dir := t.TempDir()
				path := filepath.Join(dir, f.name)
				tc.setup(t, path)
				before, _ := os.Lstat(path)
				assertRefused(t, f.save(path), path, tc.want...)
				after, err := os.Lstat(path)
				if err != nil || !os.SameFile(before, after) || after.Mode() != before.Mode() {
					t.Errorf("file replaced or changed: %v", err)
				}
				assertNames(t, dir, f.name)
			})
		}
	}
}
