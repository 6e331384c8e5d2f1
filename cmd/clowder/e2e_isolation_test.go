//go:build linux

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestE2EIgnoresTheUsersClowderEnvironment pins issue 8 §1: a test must
// never pick up the user's CLOWDER_* variables, XDG dirs or config (in
// bench/tuibench a user's config started their real claude). Here the
// test process itself carries a broken config and foreign dirs, and
// neither the commands nor the host nor the panes see any of them.
func TestE2EIgnoresTheUsersClowderEnvironment(t *testing.T) {
	hostile := t.TempDir()
	broken := filepath.Join(hostile, "config.toml")
	if err := os.WriteFile(broken, []byte("this is = = not toml\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{
		"CLOWDER_CONFIG": broken, "CLOWDER_STATE_DIR": hostile + "/state", "CLOWDER_PANE_ID": "p-user",
		"CLOWDER_SOMETHING_NEW": "user", "XDG_CONFIG_HOME": hostile, "XDG_STATE_HOME": hostile,
		"XDG_DATA_HOME": hostile, "XDG_RUNTIME_DIR": hostile,
	} {
		t.Setenv(k, v)
	}
	e := newE2E(t)
	id := strings.TrimSpace(e.must("new", "--name", "iso", "--", "sleep", "30"))
	hostPid := strings.TrimSpace(e.must("host", "status", "--json"))
	i := strings.Index(hostPid, `"pid": `)
	pid, _ := strconv.Atoi(strings.TrimRight(strings.Fields(hostPid[i+7:])[0], ","))
	p := e.pane(id)
	for _, proc := range []int{pid, p.Pid} {
		env, err := os.ReadFile("/proc/" + strconv.Itoa(proc) + "/environ")
		if err != nil {
			t.Fatal(err)
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if bytes.Contains(kv, []byte(hostile)) || bytes.HasPrefix(kv, []byte("CLOWDER_SOMETHING_NEW=")) ||
				bytes.Equal(kv, []byte("CLOWDER_PANE_ID=p-user")) {
				t.Errorf("process %d inherited the user's %s", proc, kv)
			}
		}
	}
	if ents, _ := os.ReadDir(hostile); len(ents) != 1 {
		t.Errorf("the user's dirs were written to: %v", ents)
	}
}
