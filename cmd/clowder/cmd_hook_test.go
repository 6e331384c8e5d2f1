package main

import (
	"os"
	"path/filepath"
	"testing"

	"clowder/supervisor/proto"
)

func TestHookRequestReadsEachAgentsPayload(t *testing.T) {
	tests := []struct {
		name, agent, payload string
		want                 proto.HookReq
	}{
		{"claude clear", "claude", `{"session_id":"s2","hook_event_name":"SessionStart","source":"clear","cwd":"/p"}`,
			proto.HookReq{Pane: "p1", Agent: "claude", Event: "SessionStart", Session: "s2", Source: "clear"}},
		// Claude Code 2.1.197 with a failing API ends a turn with StopFailure.
		{"claude stop failure", "claude", `{"session_id":"s2","hook_event_name":"StopFailure","error":"authentication_failed"}`,
			proto.HookReq{Pane: "p1", Agent: "claude", Event: "StopFailure", Session: "s2"}},
		{"claude notification", "claude", `{"session_id":"s2","hook_event_name":"Notification","notification_type":"permission_prompt"}`,
			proto.HookReq{Pane: "p1", Agent: "claude", Event: "Notification", Session: "s2", Source: "permission_prompt"}},
		// As Codex CLI 0.171.0 sent it to its notify program.
		{"codex turn", "codex", `{"type":"agent-turn-complete","thread-id":"01a22e97-dcb5","turn-id":"t","cwd":"/p","client":"codex-tui","input-messages":["hi"],"last-assistant-message":"hello"}`,
			proto.HookReq{Pane: "p1", Agent: "codex", Event: "agent-turn-complete", Session: "01a22e97-dcb5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := hookRequest(tt.agent, "p1", []byte(tt.payload))
			if err != nil || got != tt.want {
				t.Errorf("hookRequest = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
	if _, err := hookRequest("claude", "p1", []byte(`{"session_id":"s"}`)); err == nil {
		t.Error("a payload without an event was taken")
	}
}

func TestCodexThreadSavedLooksForItsSessionFile(t *testing.T) {
	a, _, _ := unitApp(t)
	home, _ := a.lookup("HOME")
	dir := filepath.Join(home, ".codex", "sessions", "2026", "11", "30")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "rollout-2026-11-30T22-33-54-main-1.jsonl"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]bool{"main-1": true, "title-2": false, "": false, "*": false} {
		if got := a.codexThreadSaved(id); got != want {
			t.Errorf("codexThreadSaved(%q) = %v, want %v", id, got, want)
		}
	}
}
