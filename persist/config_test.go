package persist

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// configFile writes text to a config.toml in a temp dir.
func configFile(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	writeFile(t, path, text)
	return path
}

func TestConfigDefaults(t *testing.T) {
	c := DefaultConfig()
	if c.Host.RingBytes != 8<<20 || c.Host.ScrollbackLines != 10000 || c.Host.KeepExited != 100 {
		t.Errorf("host = %+v", c.Host)
	}
	if c.Supervisor.KillGrace.Std() != 3*time.Second || c.Supervisor.Cgroup != CgroupAuto {
		t.Errorf("supervisor = %+v", c.Supervisor)
	}
	if c.Supervisor.Timeout != 0 || c.Supervisor.IdleTimeout != 0 {
		t.Errorf("default timeouts must be none: %+v", c.Supervisor)
	}
	if err := c.Validate(); err != nil {
		t.Errorf("defaults do not validate: %v", err)
	}
	c.Keys["x"] = KeyList{"y"}
	c.Agents["claude"] = AgentConfig{}
	if d := DefaultConfig(); len(d.Keys) != 0 || len(d.Agents["claude"].Command) == 0 {
		t.Error("DefaultConfig shares maps between calls")
	}
}

// TestDefaultPrefixAvoidsAgentAndReadlineKeys pins the reasoning on
// DefaultPrefix: Claude Code's C-b/C-o/C-g/C-r and the readline keys shell
// users rely on must reach the pane untouched.
func TestDefaultPrefixAvoidsAgentAndReadlineKeys(t *testing.T) {
	taken := []string{"C-b", "C-o", "C-g", "C-r", "C-a", "C-e", "C-k", "C-u", "C-w", "C-y", "C-l", "C-d", "C-c", "C-z", "C-p", "C-n"}
	for _, k := range taken {
		if strings.EqualFold(DefaultConfig().TUI.Prefix, k) {
			t.Errorf("default prefix %s collides with a key agents or shells use", k)
		}
	}
}

func TestLoadConfigMissingFileGivesDefaults(t *testing.T) {
	for _, path := range []string{"", filepath.Join(t.TempDir(), "none.toml")} {
		c, err := LoadConfig(path)
		if err != nil || !reflect.DeepEqual(c, DefaultConfig()) {
			t.Errorf("LoadConfig(%q) = %+v, %v; want the defaults", path, c, err)
		}
	}
}

func TestLoadConfigReadsEverySection(t *testing.T) {
	path := configFile(t, `
[host]
ring_bytes = 1048576
scrollback_lines = 500
keep_exited = 7

[supervisor]
kill_grace = "1500ms"
cgroup = "required"
cgroup_parent = "/sys/fs/cgroup/clowder"
timeout = "2h"
idle_timeout = "10m"

[tui]
prefix = "C-q"
theme = "dark"
default_adapter = "mine"
notify = "off"

[keys]
split-right = "%"
zoom = "z"

[agents.mine]
command = ["my-agent", "--fast"]
resume = ["my-agent", "--session", "{session}"]
env = { MY_MODE = "1" }

[worktrees]
base = "/w"
`)
	c, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultConfig()
	want.Host = HostConfig{RingBytes: 1 << 20, ScrollbackLines: 500, KeepExited: 7}
	want.Supervisor = SupervisorConfig{
		KillGrace: Duration(1500 * time.Millisecond), Cgroup: CgroupRequired,
		CgroupParent: "/sys/fs/cgroup/clowder", Timeout: Duration(2 * time.Hour), IdleTimeout: Duration(10 * time.Minute),
	}
	want.TUI = TUIConfig{Prefix: "C-q", Theme: "dark", DefaultAdapter: "mine", Notify: NotifyOff}
	want.Keys = map[string]KeyList{"split-right": {"%"}, "zoom": {"z"}}
	want.Agents["mine"] = AgentConfig{
		Command: []string{"my-agent", "--fast"},
		Resume:  []string{"my-agent", "--session", "{session}"},
		Env:     map[string]string{"MY_MODE": "1"},
	}
	want.Worktrees.Base = "/w"
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got  %+v\nwant %+v", c, want)
	}
	if got := c.WorktreesBase(Paths{Worktrees: "/default"}); got != "/w" {
		t.Errorf("WorktreesBase = %q, want /w", got)
	}
	if got := DefaultConfig().WorktreesBase(Paths{Worktrees: "/default"}); got != "/default" {
		t.Errorf("default WorktreesBase = %q, want /default", got)
	}
}

func TestLoadConfigPartialAgentKeepsDefaultFields(t *testing.T) {
	c, err := LoadConfig(configFile(t, "[agents.claude.env]\nCLAUDE_X = \"1\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	def := DefaultConfig().Agents["claude"]
	got := c.Agents["claude"]
	if !reflect.DeepEqual(got.Command, def.Command) || !reflect.DeepEqual(got.Resume, def.Resume) || got.Env["CLAUDE_X"] != "1" {
		t.Errorf("claude = %+v; want the default command and resume plus the env", got)
	}
	if len(c.Agents) != len(DefaultConfig().Agents) {
		t.Errorf("agents = %v; the other defaults must stay", c.Agents)
	}
}

func TestLoadConfigPartialSectionKeepsOtherDefaults(t *testing.T) {
	c, err := LoadConfig(configFile(t, "[host]\nscrollback_lines = 42\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultConfig()
	want.Host.ScrollbackLines = 42
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got %+v, want defaults with scrollback_lines 42", c)
	}
}

func TestLoadConfigErrorsNameFileAndKey(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"unknown top-level key", "colour = \"red\"\n", []string{`unknown key "colour"`}},
		{"unknown section", "[hots]\nring_bytes = 1\n", []string{`"hots.ring_bytes"`}},
		{"misspelt key in a section", "[host]\nring_byte = 1048576\n", []string{`unknown key "host.ring_byte"`}},
		{"unknown key in an agent", "[agents.claude]\ncmd = [\"c\"]\n", []string{`"agents.claude.cmd"`}},
		{"several unknown keys", "a = 1\nb = 2\n", []string{`unknown keys "a", "b"`}},
		{"syntax error", "[host\n", []string{"toml: line "}},
		{"wrong type", "[host]\nring_bytes = \"big\"\n", []string{"ring_bytes"}},
		{"duration as a bare number", "[supervisor]\nkill_grace = 3\n", []string{"kill_grace", `like "3s"`}},
		{"negative duration", "[supervisor]\ntimeout = \"-1s\"\n", []string{"timeout", "negative"}},
		{"unknown cgroup mode", "[supervisor]\ncgroup = \"maybe\"\n", []string{`unknown cgroup mode "maybe"`, `"required"`}},
		{"ring too small", "[host]\nring_bytes = 10\n", []string{"host.ring_bytes 10 is out of range"}},
		{"negative scrollback", "[host]\nscrollback_lines = -1\n", []string{"host.scrollback_lines -1"}},
		{"keep no exited panes", "[host]\nkeep_exited = 0\n", []string{"host.keep_exited 0 is out of range [1, 10000]"}},
		{"keep too many exited panes", "[host]\nkeep_exited = 1000000\n", []string{"host.keep_exited 1000000"}},
		{"empty prefix", "[tui]\nprefix = \"\"\n", []string{"tui.prefix is empty"}},
		{"default adapter undefined", "[tui]\ndefault_adapter = \"nope\"\n", []string{`tui.default_adapter "nope"`, "[agents.nope]"}},
		{"new agent without command", "[agents.x]\nresume = [\"x\"]\n", []string{"agents.x.command is empty"}},
		{"empty key binding", "[keys]\nzoom = \"\"\n", []string{"keys.zoom is empty"}},
		{"relative worktrees base", "[worktrees]\nbase = \"wt\"\n", []string{`worktrees.base "wt" must be an absolute path`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := configFile(t, tc.text)
			_, err := LoadConfig(path)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range append(tc.want, path) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// TestLoadConfigAgentSubmitGap: [agents.NAME] submit_gap sets the pause
// between a submission's paste and its Enter (issue 11 §3); left out, it
// stays nil so the adapter keeps its measured default.
func TestLoadConfigAgentSubmitGap(t *testing.T) {
	c, err := LoadConfig(configFile(t, "[agents.gemini]\nsubmit_gap = \"300ms\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if g := c.Agents["gemini"].SubmitGap; g == nil || g.Std() != 300*time.Millisecond {
		t.Errorf("gemini submit_gap = %v, want 300ms", g)
	}
	if g := c.Agents["claude"].SubmitGap; g != nil {
		t.Errorf("claude submit_gap = %v, want nil (not set)", g)
	}
	if _, err := LoadConfig(configFile(t, "[agents.gemini]\nsubmit_gap = \"soon\"\n")); err == nil || !strings.Contains(err.Error(), "soon") {
		t.Errorf("bad submit_gap: err = %v, want one naming the value", err)
	}
}

// TestLoadConfigSubmitTimesAndNotify: first_submit_wait (an agent's and
// a profile's) and [tui] notify load, and out-of-range pauses are errors
// naming the key: the host sleeps a submit_gap, so "10h" hung every
// submission to that agent for ten hours.
func TestLoadConfigSubmitTimesAndNotify(t *testing.T) {
	c, err := LoadConfig(configFile(t, "[tui]\nnotify = \"terminal\"\n[agents.claude]\nfirst_submit_wait = \"3s\"\n[profiles.r]\nagent = \"claude\"\nfirst_submit_wait = \"0s\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if w := c.Agents["claude"].FirstSubmitWait; w == nil || w.Std() != 3*time.Second {
		t.Errorf("claude first_submit_wait = %v, want 3s", w)
	}
	if w := c.Profiles["r"].FirstSubmitWait; w == nil || w.Std() != 0 {
		t.Errorf("profile first_submit_wait = %v, want 0s", w)
	}
	if c.TUI.Notify != NotifyTerminal {
		t.Errorf("tui.notify = %q, want terminal", c.TUI.Notify)
	}
	if d, _ := LoadConfig(configFile(t, "")); d.TUI.Notify != NotifyAll {
		t.Errorf("default tui.notify = %q, want all", d.TUI.Notify)
	}
	for body, key := range map[string]string{
		"[agents.claude]\nsubmit_gap = \"10h\"\n":                  "agents.claude.submit_gap",
		"[agents.claude]\nfirst_submit_wait = \"-1s\"\n":           "agents.claude.first_submit_wait",
		"[profiles.r]\nagent = \"claude\"\nsubmit_gap = \"11s\"\n": "profiles.r.submit_gap",
		"[tui]\nnotify = \"loud\"\n":                               "tui.notify",
	} {
		if _, err := LoadConfig(configFile(t, body)); err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%q: err = %v, want one naming %s", body, err, key)
		}
	}
}

// TestLoadConfigAgentOnRestart: [agents.NAME] on_restart chooses what a
// starting host does with the agent after a reboot (issue 11 §2): resume
// by default, "none" leaves it lost, anything else is an error naming
// the value, and the table's other fields keep their defaults.
func TestLoadConfigAgentOnRestart(t *testing.T) {
	c, err := LoadConfig(configFile(t, "[agents.codex]\non_restart = \"none\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Agents["codex"].OnRestart; got != OnRestartNone {
		t.Errorf("codex on_restart = %v, want none", got)
	}
	if got := c.Agents["codex"].Command; len(got) != 1 || got[0] != "codex" {
		t.Errorf("codex command = %v, want the default kept", got)
	}
	if got := c.Agents["claude"].OnRestart; got != OnRestartResume {
		t.Errorf("claude on_restart = %v, want resume (the default)", got)
	}
	if _, err := LoadConfig(configFile(t, "[agents.codex]\non_restart = \"always\"\n")); err == nil || !strings.Contains(err.Error(), "always") {
		t.Errorf("bad on_restart: err = %v, want one naming the value", err)
	}
}
