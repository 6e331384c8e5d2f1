package main

// clowder hook: run by an agent's hooks (Claude Code's --settings hooks,
// Codex's notify program), never by hand. It tells the host which
// conversation the agent in this pane holds and which event fired. It must
// never hold up or break the agent: everything it does is bounded by
// hookTimeout, and it exits 0 whatever happens (a line on stderr says
// what failed).

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

// hookTimeout bounds a hook from start to end: reading its payload,
// connecting, and the host's answer. A host answers in milliseconds; the
// margin is for a machine under heavy load, and it stays under the 10 s
// Claude Code is told to give the hook (panes.ClaudeSettings).
const hookTimeout = 8 * time.Second

// maxHookPayload is the most of a payload read; the fields clowder needs
// come first in every agent's JSON, but a prompt may follow.
const maxHookPayload = 1 << 20

// paneIDEnv names the pane a process runs in; the host sets it in every
// pane (supervisor.Spec.PaneID).
const paneIDEnv = "CLOWDER_PANE_ID"

func newHook(a *app) *cobra.Command {
	var socket string
	c := &cobra.Command{
		Use:   "hook AGENT [PAYLOAD]",
		Short: "report an agent's hook event to the host (run by the agent's hooks, not by hand)",
		Long: "Run by the hooks clowder installs in agents it launches: claude (hook JSON on\n" +
			"stdin) and codex (notify JSON as PAYLOAD). Reports the conversation id and the\n" +
			"event of the pane named by $CLOWDER_PANE_ID to the host. Always exits 0.",
		Args:               cobra.ArbitraryArgs,
		FParseErrWhitelist: cobra.FParseErrWhitelist{UnknownFlags: true},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := a.hook(cmd.Context(), socket, args); err != nil {
				fmt.Fprintln(a.stderr, "clowder hook:", errorLine(err)) // never fails the agent's hook
			}
			return nil
		},
	}
	c.Flags().StringVar(&socket, "socket", "", "the host's socket (default: this user's host)")
	return c
}

// hook reads the payload and reports it, all within hookTimeout.
func (a *app) hook(parent context.Context, socket string, args []string) error {
	ctx, cancel := context.WithTimeout(parent, hookTimeout)
	defer cancel()
	pane, ok := a.lookup(paneIDEnv)
	if !ok || pane == "" {
		return fmt.Errorf("$%s is not set: clowder hook runs inside a clowder pane", paneIDEnv)
	}
	if len(args) == 0 {
		return usagef("say whose hook this is: clowder hook claude|codex [PAYLOAD]")
	}
	payload, err := a.hookPayload(ctx, args)
	if err != nil {
		return err
	}
	req, err := hookRequest(args[0], pane, payload)
	if err != nil {
		return err
	}
	if req.Agent == "codex" && !a.codexThreadSaved(req.Session) {
		return nil // a side thread of Codex's (its task title), not the conversation
	}
	return a.sendHook(ctx, socket, req)
}

// codexThreadSaved reports whether Codex keeps a session file for the
// thread, under $CODEX_HOME (default ~/.codex) sessions/YYYY/MM/DD/
// rollout-TIME-ID.jsonl. Codex CLI 0.171.0 also notifies the end of the
// side thread that writes the task's title, with another thread id and no
// session file: that turn is neither the conversation to resume nor the
// end of the user's turn (it ends while the user's turn still runs).
func (a *app) codexThreadSaved(id string) bool {
	if id == "" || strings.ContainsAny(id, `/*?[\`) {
		return false
	}
	home, ok := a.lookup("CODEX_HOME")
	if !ok || home == "" {
		h, _ := a.lookup("HOME")
		home = filepath.Join(h, ".codex")
	}
	m, _ := filepath.Glob(filepath.Join(home, "sessions", "*", "*", "*", "rollout-*-"+id+".jsonl"))
	return len(m) > 0
}

// hookPayload is the last argument when one is given (Codex's notify),
// else stdin (Claude Code's hooks), read for at most the context's time.
func (a *app) hookPayload(ctx context.Context, args []string) ([]byte, error) {
	if len(args) > 1 {
		return []byte(args[len(args)-1]), nil
	}
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() { // ends with stdin's EOF or error; the process exits sooner on the timeout
		b, err := io.ReadAll(io.LimitReader(a.stdin, maxHookPayload))
		done <- result{b, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			return nil, fmt.Errorf("read the hook's JSON on stdin: %w", r.err)
		}
		return r.b, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("no hook JSON on stdin within %s", hookTimeout)
	}
}

// hookPayloadFields are the fields clowder reads from any agent's
// payload: Claude Code's hook JSON and Codex's notify JSON.
type hookPayloadFields struct {
	SessionID        string `json:"session_id"`        // Claude Code
	Event            string `json:"hook_event_name"`   // Claude Code
	Source           string `json:"source"`            // Claude Code's SessionStart
	NotificationType string `json:"notification_type"` // Claude Code's Notification
	Type             string `json:"type"`              // Codex: agent-turn-complete
	ThreadID         string `json:"thread-id"`         // Codex: the session id
}

// hookRequest turns one agent's payload into a hook request.
func hookRequest(agent, pane string, payload []byte) (proto.HookReq, error) {
	var f hookPayloadFields
	if err := json.Unmarshal(payload, &f); err != nil {
		return proto.HookReq{}, fmt.Errorf("the %s hook's payload is not JSON: %w", agent, err)
	}
	req := proto.HookReq{Pane: pane, Agent: agent, Event: f.Event, Session: f.SessionID, Source: f.Source}
	if f.NotificationType != "" {
		req.Source = f.NotificationType
	}
	if req.Event == "" { // Codex's notify
		req.Event, req.Session = f.Type, f.ThreadID
	}
	if req.Event == "" {
		return req, fmt.Errorf("the %s hook's payload names no event (hook_event_name or type)", agent)
	}
	return req, nil
}

// sendHook reports req to the host at socket (default: this user's).
func (a *app) sendHook(ctx context.Context, socket string, req proto.HookReq) error {
	if socket == "" {
		p, err := a.paths()
		if err != nil {
			return err
		}
		socket = p.SocketFile()
	}
	c, err := client.Dial(ctx, socket)
	if err != nil {
		return err
	}
	defer func() { _ = c.Close() }() // best effort: the report is sent
	return c.Hook(ctx, req)
}
