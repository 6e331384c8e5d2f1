package isolate

import (
	"os"
	"strings"
	"testing"
)

func TestEnvDropsTheUsersClowderAndXDGVariables(t *testing.T) {
	user := []string{"PATH=/bin", "CLOWDER_CONFIG=/home/u/.config/clowder/config.toml",
		"CLOWDER_PANE_ID=p1", "XDG_CONFIG_HOME=/home/u/.config", "HOME=/home/u"}
	env := Env(user, "/tmp/b", "SHELL=/bin/sh")
	for _, kv := range env {
		if strings.Contains(kv, "/home/u/") || kv == "CLOWDER_PANE_ID=p1" {
			t.Errorf("the user's %s was kept", kv)
		}
	}
	for key, want := range map[string]string{"CLOWDER_CONFIG": "/tmp/b/config.toml", "CLOWDER_RUNTIME_DIR": "/tmp/b/run",
		"XDG_DATA_HOME": "/tmp/b/xdg/data", "PATH": "/bin", "SHELL": "/bin/sh"} {
		if got, _ := Lookup(env, key); got != want {
			t.Errorf("%s = %q, want %q", key, got, want)
		}
	}
}

// TestTmuxEnvPutsTheSocketWhereDoneRemovesIt: tmux leaves its socket
// behind after kill-server, and the bench's private servers left
// thousands in /tmp/tmux-UID; TmuxEnv's directory holds them and goes.
func TestTmuxEnvPutsTheSocketWhereDoneRemovesIt(t *testing.T) {
	env, done, err := TmuxEnv()
	if err != nil {
		t.Fatal(err)
	}
	dir, ok := Lookup(env, "TMUX_TMPDIR")
	if _, tmux := Lookup(env, "TMUX"); !ok || tmux {
		t.Fatalf("env has TMUX_TMPDIR %v, TMUX %v; want the first only", ok, tmux)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Fatalf("TMUX_TMPDIR %s: %v", dir, err)
	}
	done()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("after done, %s: %v; want it gone", dir, err)
	}
}
