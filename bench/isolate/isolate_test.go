package isolate

import (
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
