package panes

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"clowder/persist"
)

func TestBuiltinAdaptersAreAllThere(t *testing.T) {
	ads := NewAdapters(nil, "/bin/sh")
	for name, kind := range map[string]persist.Kind{"claude": persist.KindAgent, "codex": persist.KindAgent,
		"gemini": persist.KindAgent, "aider": persist.KindAgent, AdapterShell: persist.KindShell} {
		ad, err := ads.Get(name)
		if err != nil || ad.Kind != kind || len(ad.Command) == 0 {
			t.Errorf("adapter %s = %+v, %v; want a %s with a command", name, ad, err, kind)
		}
	}
}

func TestProfileAdapterLaysArgsEnvAndGapOverItsBase(t *testing.T) {
	cfg := persist.DefaultConfig()
	gap := persist.Duration(250 * time.Millisecond)
	cfg.Profiles = map[string]persist.ProfileConfig{
		"review": {Agent: "claude", Args: []string{"--model", "opus"}, Env: map[string]string{"R": "1"}, SubmitGap: &gap},
		"codex":  {Agent: "claude"}, // shadows an adapter: left out
	}
	ads := NewAdaptersFromConfig(cfg, "/bin/sh")
	ad, err := ads.Get("review")
	if err != nil {
		t.Fatal(err)
	}
	base, _ := ads.Get("claude")
	if !slices.Equal(ad.Command, []string{"claude", "--model", "opus"}) || ad.Env["R"] != "1" || ad.SubmitGap != 250*time.Millisecond {
		t.Errorf("review = %+v", ad)
	}
	if argv, _ := ad.ResumeArgv("s1"); !slices.Equal(argv, []string{"claude", "--resume", "s1", "--model", "opus"}) {
		t.Errorf("resume argv %v keeps no profile args", argv)
	}
	if ad.Kind != persist.KindAgent || ad.FirstSubmitWait != base.FirstSubmitWait || len(ad.Rules.List) != len(base.Rules.List) {
		t.Errorf("review does not keep claude's kind, rules and waits")
	}
	if codex, _ := ads.Get("codex"); codex.Command[0] != "codex" {
		t.Errorf("a profile replaced the adapter codex: %+v", codex)
	}
	if !slices.Equal(base.Command, []string{"claude"}) {
		t.Errorf("the base adapter changed: %v", base.Command)
	}
}

func TestTemplatesExpand(t *testing.T) {
	full := Templates{Name: "api", Worktree: "/wt/api", Branch: "clowder/api", Project: "shop"}
	got, err := full.Expand([]string{"--dir", "{{worktree}}", "{{project}}:{{ branch }}:{{name}}"})
	if err != nil || !slices.Equal(got, []string{"--dir", "/wt/api", "shop:clowder/api:api"}) {
		t.Errorf("Expand = %v, %v", got, err)
	}
	tests := []struct {
		name string
		t    Templates
		arg  string
		want string
	}{
		{"unknown token", full, "{{pane}}", "unknown template {{pane}}"},
		{"no name", Templates{Project: "p"}, "{{name}}", "{{name}} has no value: give the pane a name (--name)"},
		{"no worktree", Templates{Name: "a", Project: "p"}, "{{branch}}", "{{branch}} has no value: start it in a worktree (--worktree)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := tt.t.Expand([]string{tt.arg}); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestProjectName(t *testing.T) {
	gitEnv(t)
	repo := newRepo(t)
	wt := &persist.Worktree{Repo: "/src/shop"}
	if got := ProjectName(context.Background(), "/elsewhere", wt); got != "shop" {
		t.Errorf("with a worktree: %q", got)
	}
	if got := ProjectName(context.Background(), repo, nil); got != "app" {
		t.Errorf("in a repository: %q", got)
	}
	if got := ProjectName(context.Background(), t.TempDir()+"/plain", nil); got != "plain" {
		t.Errorf("outside a repository: %q", got)
	}
}

func TestCheckInstalledNamesTheCommand(t *testing.T) {
	err := CheckInstalled(Adapter{Name: "ghost", Command: []string{"/nonexistent/ghost-agent"}})
	if err == nil || !strings.Contains(err.Error(), `"/nonexistent/ghost-agent"`) || !strings.Contains(err.Error(), "ghost") {
		t.Errorf("err = %v", err)
	}
	if err := CheckInstalled(Adapter{Name: "sh", Command: []string{"sh"}}); err != nil {
		t.Errorf("sh: %v", err)
	}
}
