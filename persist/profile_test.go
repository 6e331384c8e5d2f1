package persist

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestProfileLoadsFromConfig(t *testing.T) {
	cfg, err := LoadConfig(configFile(t, `
[profiles.review]
agent = "claude"
args = ["--model", "opus", "--add-dir", "{{worktree}}/../{{ project }}"]
env = { REVIEW = "1" }
submit_gap = "250ms"
on_restart = "none"
`))
	if err != nil {
		t.Fatal(err)
	}
	gap, none := Duration(250*time.Millisecond), OnRestartNone
	want := ProfileConfig{Agent: "claude", Args: []string{"--model", "opus", "--add-dir", "{{worktree}}/../{{ project }}"},
		Env: map[string]string{"REVIEW": "1"}, SubmitGap: &gap, OnRestart: &none}
	if got := cfg.Profiles["review"]; !reflect.DeepEqual(got, want) {
		t.Errorf("profile = %+v, want %+v", got, want)
	}
}

func TestProfileErrorsNameTheKey(t *testing.T) {
	tests := []struct{ name, toml, want string }{
		{"unknown token", "[profiles.r]\nagent = \"claude\"\nargs = [\"--x\", \"{{nmae}}\"]\n", `profiles.r.args[1] "{{nmae}}": unknown template {{nmae}}; use {{name}}, {{worktree}}, {{branch}} or {{project}}`},
		{"unknown base", "[profiles.r]\nagent = \"clod\"\n", `profiles.r.agent "clod" is not an adapter`},
		{"no base", "[profiles.r]\nargs = [\"x\"]\n", `profiles.r.agent "" is not an adapter`},
		{"shadows an adapter", "[profiles.codex]\nagent = \"claude\"\n", "profiles.codex has the name of an adapter"},
		{"bad policy", "[profiles.r]\nagent = \"claude\"\non_restart = \"always\"\n", `on_restart policy`},
		{"bad name", "[profiles.\"a b\"]\nagent = \"claude\"\n", "profiles.a b: use only letters"},
		{"unknown key", "[profiles.r]\nagent = \"claude\"\narg = [\"x\"]\n", `"profiles.r.arg"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadConfig(configFile(t, tt.toml))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestProfileCanBeTheDefaultAdapter(t *testing.T) {
	if _, err := LoadConfig(configFile(t, "[tui]\ndefault_adapter = \"r\"\n[profiles.r]\nagent = \"claude\"\n")); err != nil {
		t.Fatal(err)
	}
}

func TestExpandTemplate(t *testing.T) {
	vars := map[string]string{"name": "api", "project": "shop"}
	if got := ExpandTemplate("{{project}}-{{ name }}.log", vars); got != "shop-api.log" {
		t.Errorf("ExpandTemplate = %q", got)
	}
	if toks, err := TemplateTokens("{{name}} {{branch}}"); err != nil || !reflect.DeepEqual(toks, []string{"name", "branch"}) {
		t.Errorf("TemplateTokens = %v, %v", toks, err)
	}
}

// TestReadmeProfileExampleLoads keeps README's profile example true: it
// loads as written and uses every template token.
func TestReadmeProfileExampleLoads(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```toml\n(.*?)```").FindAllSubmatch(readme, -1)
	for _, b := range blocks {
		cfg, err := LoadConfig(configFile(t, string(b[1])))
		if err != nil || len(cfg.Profiles) == 0 {
			continue
		}
		for name, p := range cfg.Profiles {
			all := strings.Join(p.Args, " ")
			for _, tok := range ProfileTokens {
				if !strings.Contains(all, "{{"+tok+"}}") {
					t.Errorf("README's profile %s does not show {{%s}}", name, tok)
				}
			}
		}
		return
	}
	t.Fatal("README.md has no config example with a [profiles.NAME] table that loads")
}

// A profile's restart policy is its own, else its base adapter's.
func TestOnRestartOfAProfileFallsBackOnItsAdapter(t *testing.T) {
	cfg, err := LoadConfig(configFile(t, `
[agents.claude]
command = ["claude"]
on_restart = "none"
[profiles.own]
agent = "claude"
on_restart = "resume"
[profiles.inherit]
agent = "claude"
`))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]OnRestart{"own": OnRestartResume, "inherit": OnRestartNone, "claude": OnRestartNone, "codex": OnRestartResume} {
		if got := cfg.OnRestartOf(name); got != want {
			t.Errorf("OnRestartOf(%s) = %v, want %v", name, got, want)
		}
	}
}
