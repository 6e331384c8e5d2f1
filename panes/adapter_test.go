package panes

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"clowder/persist"
	"clowder/vtgrid"
)

func TestBuiltinAdapters(t *testing.T) {
	ads := NewAdapters(nil, "")
	tests := []struct {
		name       string
		kind       persist.Kind
		argv       []string
		resumeID   []string
		resumeLast []string
	}{
		{"claude", persist.KindAgent, []string{"claude"}, []string{"claude", "--resume", "S1"}, []string{"claude", "--continue"}},
		{"codex", persist.KindAgent, []string{"codex"}, []string{"codex", "resume", "S1"}, []string{"codex", "resume", "--last"}},
		{"gemini", persist.KindAgent, []string{"gemini"}, []string{"gemini", "--resume", "S1"}, []string{"gemini", "--resume", "latest"}},
		{"aider", persist.KindAgent, []string{"aider"}, []string{"aider", "--restore-chat-history"}, []string{"aider", "--restore-chat-history"}},
		{"shell", persist.KindShell, []string{"/bin/sh"}, nil, nil},
		{"command", persist.KindRun, nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := ads.Get(tt.name)
			if err != nil {
				t.Fatal(err)
			}
			if a.Kind != tt.kind || !slices.Equal(a.Argv(), tt.argv) {
				t.Errorf("%s: kind %s argv %q", tt.name, a.Kind, a.Argv())
			}
			got, ok := a.ResumeArgv("S1")
			if !slices.Equal(got, tt.resumeID) || ok != (tt.resumeID != nil) {
				t.Errorf("ResumeArgv(S1) = %q, %v; want %q", got, ok, tt.resumeID)
			}
			got, ok = a.ResumeArgv("")
			if !slices.Equal(got, tt.resumeLast) || ok != (tt.resumeLast != nil) {
				t.Errorf("ResumeArgv(\"\") = %q, %v; want %q", got, ok, tt.resumeLast)
			}
		})
	}
}

func TestAdaptersApplyConfigOverrides(t *testing.T) {
	cfg := persist.DefaultConfig()
	cfg.Agents["claude"] = persist.AgentConfig{
		Command: []string{"claude", "--model", "opus"},
		Resume:  []string{"claude", "--model", "opus", "--resume", "{session}"},
		Env:     map[string]string{"CLAUDE_CODE_USE_BEDROCK": "1"},
	}
	cfg.Agents["opencode"] = persist.AgentConfig{Command: []string{"opencode"}}
	ads := NewAdapters(cfg.Agents, "/usr/bin/zsh")

	claude, _ := ads.Get("claude")
	if !slices.Equal(claude.Argv(), []string{"claude", "--model", "opus"}) || claude.Env["CLAUDE_CODE_USE_BEDROCK"] != "1" {
		t.Errorf("claude override not applied: %+v", claude)
	}
	if got, _ := claude.ResumeArgv("abc"); !slices.Equal(got, []string{"claude", "--model", "opus", "--resume", "abc"}) {
		t.Errorf("claude resume = %q", got)
	}
	if claude.Rules.List[0].Name != "claude-dialog" {
		t.Error("override lost claude's attention rules")
	}
	codex, _ := ads.Get("codex")
	if !slices.Equal(codex.Argv(), []string{"codex"}) {
		t.Errorf("codex changed: %q", codex.Argv())
	}
	oc, err := ads.Get("opencode")
	if err != nil || oc.Kind != persist.KindAgent || oc.Rules.List[0].Name != "prompt" {
		t.Errorf("new agent from config: %+v, %v", oc, err)
	}
	if _, ok := oc.ResumeArgv("x"); ok {
		t.Error("an agent with no resume config claims it can resume")
	}
	shell, _ := ads.Get("shell")
	if !slices.Equal(shell.Argv(), []string{"/usr/bin/zsh"}) {
		t.Errorf("shell = %q", shell.Argv())
	}
}

func TestAdaptersGetUnknownListsNames(t *testing.T) {
	_, err := NewAdapters(nil, "").Get("cluade")
	if err == nil || !strings.Contains(err.Error(), "claude, codex, command") || !strings.Contains(err.Error(), "[agents.cluade]") {
		t.Errorf("error = %v", err)
	}
}

func TestAdaptersGetReturnsACopy(t *testing.T) {
	ads := NewAdapters(nil, "")
	a, _ := ads.Get("claude")
	a.Command[0] = "changed"
	b, _ := ads.Get("claude")
	if b.Command[0] != "claude" {
		t.Error("modifying a returned adapter changed the set")
	}
}

func TestAdapterInstalledFindsCommandsOnPath(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "fake-agent")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	a := Adapter{Name: "fake", Command: []string{"fake-agent"}}
	if p, ok := a.Installed(); !ok || p != bin {
		t.Errorf("Installed = %q, %v", p, ok)
	}
	missing := Adapter{Name: "missing", Command: []string{"no-such-agent"}}
	if _, ok := missing.Installed(); ok {
		t.Error("missing command reported installed")
	}
	if _, ok := (&Adapter{Name: AdapterCommand}).Installed(); ok {
		t.Error("adapter with no command reported installed")
	}
}

// TestAdaptersSubmitGap pins issue 11 §3: Claude Code and Gemini CLI lose
// a prompt whose Enter arrives with its paste, so their adapters wait
// between the two; [agents.NAME] submit_gap overrides it, and a submission
// carries it.
func TestAdaptersSubmitGap(t *testing.T) {
	ads := NewAdapters(nil, "")
	for _, name := range []string{"claude", "gemini"} {
		if a, _ := ads.Get(name); a.SubmitGap <= 0 {
			t.Errorf("%s: no submit gap", name)
		}
	}
	if a, _ := ads.Get("claude"); a.FirstSubmitWait <= 0 {
		t.Error("claude: no first-submit wait; its first Enter after the prompt shows is lost")
	}
	gap := persist.Duration(750 * time.Millisecond)
	zero := persist.Duration(0)
	ads = NewAdapters(map[string]persist.AgentConfig{"gemini": {SubmitGap: &gap}, "claude": {SubmitGap: &zero}}, "")
	gemini, _ := ads.Get("gemini")
	if gemini.SubmitGap != 750*time.Millisecond {
		t.Errorf("gemini gap = %v, want the configured 750ms", gemini.SubmitGap)
	}
	if claude, _ := ads.Get("claude"); claude.SubmitGap != 0 {
		t.Errorf("claude gap = %v, want the configured 0", claude.SubmitGap)
	}
	wait := persist.Duration(4 * time.Second)
	ads = NewAdapters(map[string]persist.AgentConfig{"claude": {FirstSubmitWait: &wait}}, "")
	if claude, _ := ads.Get("claude"); claude.FirstSubmitWait != 4*time.Second || claude.SubmitGap <= 0 {
		t.Errorf("claude with first_submit_wait 4s: wait %v, gap %v; want 4s and its own gap", claude.FirstSubmitWait, claude.SubmitGap)
	}
	s, err := Submit("hi", vtgrid.Modes{BracketedPaste: true}, &gemini, PasteOptions{})
	if err != nil || s.Gap != 750*time.Millisecond {
		t.Errorf("Submit gap = %v, %v; want the adapter's 750ms", s.Gap, err)
	}
}
