// This file defines the hook request (docs/protocol.md, "hook"): what an
// agent's hook (`clowder hook`, run by Claude Code's hooks or Codex's
// notify) tells the host about the pane it runs in: its conversation id
// and the event that fired.

package proto

import "clowder/panes"

// MsgHook is the hook request: HookReq → MsgOK.
const MsgHook MsgType = 38

// Limits of a hook request.
const MaxHookEventLen = 64 // bytes of an event name

// HookReq (MsgHook) reports an agent hook's event for a pane. The host
// records Session as the pane's conversation (unless the event is
// SessionEnd, whose id is the one being left) and lets the event drive
// the pane's attention before the screen rules (panes.HookAttention).
type HookReq struct {
	Pane    string `json:"pane"`              // the pane the hook runs in (its CLOWDER_PANE_ID)
	Agent   string `json:"agent,omitempty"`   // whose hook: claude, codex
	Event   string `json:"event"`             // hook_event_name, or Codex's notify type
	Session string `json:"session,omitempty"` // the conversation id the agent reported
	// Source is SessionStart's source (startup, resume, clear, compact), or
	// Notification's notification_type (permission_prompt, idle_prompt...).
	Source string `json:"source,omitempty"`
}

// MsgType implements Message.
func (HookReq) MsgType() MsgType { return MsgHook }

// Validate checks every field of a hook request.
func (r *HookReq) Validate() error {
	switch {
	case r.Pane == "" || len(r.Pane) > MaxPaneRefLen || hasControl(r.Pane):
		return Invalid("pane", "give the pane id (1-%d printable bytes)", MaxPaneRefLen)
	case r.Event == "" || len(r.Event) > MaxHookEventLen || hasControl(r.Event):
		return Invalid("event", "give the hook's event name (1-%d printable bytes)", MaxHookEventLen)
	case len(r.Agent) > MaxHookEventLen || hasControl(r.Agent):
		return Invalid("agent", "at most %d printable bytes", MaxHookEventLen)
	case len(r.Source) > MaxHookEventLen || hasControl(r.Source):
		return Invalid("source", "at most %d printable bytes", MaxHookEventLen)
	case r.Session != "" && !panes.ValidSession(r.Session):
		return Invalid("session", "%q is not a conversation id: letters, digits and . _ : - (at most 128, not starting with -)", r.Session)
	}
	return nil
}
