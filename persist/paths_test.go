package persist

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// envOf is a LookupEnv over a map, so tests never read the real environment.
func envOf(m map[string]string) LookupEnv {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestResolvePaths(t *testing.T) {
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	tmpRuntime := "/tmp/clowder-" + strconv.Itoa(os.Getuid())
	tests := []struct {
		name string
		env  map[string]string
		want Paths
	}{
		{
			name: "home only",
			env:  map[string]string{"HOME": "/home/u"},
			want: Paths{tmpRuntime, "/home/u/.local/state/clowder", "/home/u/.config/clowder/config.toml", "/home/u/.local/share/clowder/worktrees"},
		},
		{
			name: "XDG variables",
			env: map[string]string{"HOME": "/home/u", "XDG_RUNTIME_DIR": "/run/user/1000", "XDG_STATE_HOME": "/x/state",
				"XDG_CONFIG_HOME": "/x/config", "XDG_DATA_HOME": "/x/data"},
			want: Paths{"/run/user/1000/clowder", "/x/state/clowder", "/x/config/clowder/config.toml", "/x/data/clowder/worktrees"},
		},
		{
			name: "clowder overrides win over XDG",
			env: map[string]string{"HOME": "/home/u", "XDG_RUNTIME_DIR": "/run/user/1000", "XDG_STATE_HOME": "/x/state",
				EnvRuntimeDir: "/t/run", EnvStateDir: "/t/state", EnvConfig: "/t/c.toml"},
			want: Paths{"/t/run", "/t/state", "/t/c.toml", "/home/u/.local/share/clowder/worktrees"},
		},
		{
			name: "relative XDG values are ignored",
			env:  map[string]string{"HOME": "/home/u", "XDG_RUNTIME_DIR": "run", "XDG_STATE_HOME": "state"},
			want: Paths{tmpRuntime, "/home/u/.local/state/clowder", "/home/u/.config/clowder/config.toml", "/home/u/.local/share/clowder/worktrees"},
		},
		{
			name: "relative overrides are made absolute",
			env:  map[string]string{"HOME": "/home/u", EnvStateDir: "st"},
			want: Paths{tmpRuntime, filepath.Join(cwd, "st"), "/home/u/.config/clowder/config.toml", "/home/u/.local/share/clowder/worktrees"},
		},
		{
			name: "empty values count as unset",
			env:  map[string]string{"HOME": "/home/u", EnvRuntimeDir: "", "XDG_RUNTIME_DIR": ""},
			want: Paths{tmpRuntime, "/home/u/.local/state/clowder", "/home/u/.config/clowder/config.toml", "/home/u/.local/share/clowder/worktrees"},
		},
		{
			name: "no HOME with every override leaves worktrees empty",
			env:  map[string]string{EnvRuntimeDir: "/t/run", EnvStateDir: "/t/state", EnvConfig: "/t/c.toml"},
			want: Paths{"/t/run", "/t/state", "/t/c.toml", ""},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ResolvePaths(envOf(tc.env))
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestResolvePathsWithoutHomeNamesWhatToSet(t *testing.T) {
	_, err := ResolvePaths(envOf(map[string]string{EnvRuntimeDir: "/t/run"}))
	if err == nil || !strings.Contains(err.Error(), "XDG_STATE_HOME") || !strings.Contains(err.Error(), EnvStateDir) {
		t.Fatalf("err = %v, want one naming XDG_STATE_HOME and %s", err, EnvStateDir)
	}
}

func TestPathsFileNames(t *testing.T) {
	p := Paths{RuntimeDir: "/r", StateDir: "/s"}
	got := []string{p.AgentsFile(), p.LayoutFile(), p.SocketFile(), p.LockFile(), p.LogFile()}
	want := []string{"/s/agents.json", "/s/layout.json", "/r/host.sock", "/r/host.lock", "/r/host.log"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestEnsureRuntimeDirCreatesPrivateDir(t *testing.T) {
	p := Paths{RuntimeDir: filepath.Join(t.TempDir(), "a", "clowder")}
	for i := range 2 { // the second call finds it and accepts it
		if err := p.EnsureRuntimeDir(); err != nil {
			t.Fatalf("call %d: %v", i+1, err)
		}
	}
	fi, err := os.Stat(p.RuntimeDir)
	if err != nil {
		t.Fatal(err)
	}
	if !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Errorf("runtime dir mode %v, want a 0700 directory", fi.Mode())
	}
}

func TestEnsureRuntimeDirRefusesUnsafeDirs(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T, dir string)
		uid     int
		wantErr string
	}{
		{"group readable", func(t *testing.T, d string) { mkdirMode(t, d, 0o750) }, os.Getuid(), "chmod 700"},
		{"world writable", func(t *testing.T, d string) { mkdirMode(t, d, 0o777) }, os.Getuid(), "has mode 0777"},
		{"a file", func(t *testing.T, d string) { writeFile(t, d, "") }, os.Getuid(), "not a directory"},
		{"a symlink to a dir", func(t *testing.T, d string) {
			real := d + ".real"
			mkdirMode(t, real, 0o700)
			if err := os.Symlink(real, d); err != nil {
				t.Fatal(err)
			}
		}, os.Getuid(), "not a directory"},
		{"owned by someone else", func(t *testing.T, d string) { mkdirMode(t, d, 0o700) }, os.Getuid() + 1, "is owned by uid"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "clowder")
			tc.setup(t, dir)
			err := ensurePrivateDir(dir, tc.uid)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), dir) {
				t.Fatalf("err = %v, want one naming %s with %q", err, dir, tc.wantErr)
			}
		})
	}
}

// mkdirMode makes a directory with exactly mode perm (umask aside).
func mkdirMode(t *testing.T, dir string, perm os.FileMode) {
	t.Helper()
	if err := os.Mkdir(dir, perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, perm); err != nil {
		t.Fatal(err)
	}
}

func TestEnsureStateDirCreatesParents(t *testing.T) {
	p := Paths{StateDir: filepath.Join(t.TempDir(), "x", "y", "clowder")}
	if err := p.EnsureStateDir(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(p.StateDir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("state dir: %v, %v; want a 0700 directory", fi, err)
	}
}
