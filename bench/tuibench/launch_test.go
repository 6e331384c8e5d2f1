package tuibench

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLaunchLineUsesTheBenchmarksOwnConfig pins issue 8 §1: the exports
// were applied in reverse order, so a CLOWDER_CONFIG in the user's
// environment won over the benchmark's own and started the user's real
// agent inside the benchmark.
func TestLaunchLineUsesTheBenchmarksOwnConfig(t *testing.T) {
	t.Setenv("CLOWDER_CONFIG", "/home/user/.config/clowder/config.toml")
	t.Setenv("XDG_CONFIG_HOME", "/home/user/.config")
	env := benchEnv("/tmp/clwtui-x")
	out, err := exec.Command("sh", "-c", launchLine("env", env)).Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"CLOWDER_CONFIG=/tmp/clwtui-x/config.toml", "XDG_CONFIG_HOME=/tmp/clwtui-x/xdg/config"} {
		if !strings.Contains(string(out), want+"\n") {
			t.Errorf("the benchmark's clowder runs without %s", want)
		}
	}
	if strings.Contains(string(out), "/home/user") {
		t.Errorf("the benchmark's clowder sees the user's settings:\n%s", out)
	}
}
