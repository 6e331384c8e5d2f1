package panes

// This file is how an agent tells clowder which conversation it holds and
// when its turn ends: the arguments the host adds to an agent's command at
// launch (a session id chosen up front, the hooks or notify program that
// run `clowder hook`), the session id a command line already names
// (resuming), and what each hook event means for attention. Hooks come
// before the screen rules: an agent that says it waits needs input at once,
// with no settle time and whatever it redraws.

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// HookStyle is how an agent reports its conversation id and its turns.
type HookStyle uint8

// Hook styles.
const (
	HookNone   HookStyle = iota // the screen rules alone
	HookClaude                  // --session-id at launch; --settings FILE whose hooks run `clowder hook claude`
	HookCodex                   // -c notify=[clowder hook codex]: called with a JSON argument after each turn
	HookGemini                  // --session-id at launch
)

// hookPrograms are the programs whose command lines each style knows.
var hookPrograms = map[HookStyle]string{HookClaude: "claude", HookCodex: "codex", HookGemini: "gemini"}

// HookCommand is what the host gives an agent to report with: the argv of
// `clowder hook` for this host (its binary and socket), and, for Claude
// Code, the settings file the host wrote with ClaudeSettings.
type HookCommand struct {
	Argv         []string
	SettingsFile string
}

// Launch is an agent's command line with clowder's launch arguments added
// after the program name, and the conversation id it starts with ("" when
// it is not known until the agent reports it).
type Launch struct {
	Argv    []string
	Session string
}

// Launch adds the adapter's launch arguments to argv: a fresh session id
// for a new conversation where the agent takes one, and the hook that
// reports later ones. A command line that already names a conversation
// (--resume ID, resume ID, --session-id ID) keeps it and gets no new id.
// Arguments go right after the program name, before the user's own, so a
// prompt or a "--" among them cannot swallow them. A command that is not
// the agent's own program (a wrapper such as "npx ...") is started as
// given: the arguments may mean something else to it.
func (a *Adapter) Launch(argv []string, hook HookCommand) (Launch, error) {
	if len(argv) == 0 || a.Hooks == HookNone || filepath.Base(argv[0]) != hookPrograms[a.Hooks] {
		return Launch{Argv: slices.Clone(argv)}, nil
	}
	session, resuming := a.SessionIn(argv)
	var add []string
	if !resuming && a.Hooks != HookCodex { // Codex takes no id at launch (0.171.0)
		id, err := NewSessionID()
		if err != nil {
			return Launch{}, err
		}
		session, add = id, []string{"--session-id", id}
	}
	add = append(add, a.hookArgs(hook)...)
	out := append(append([]string{argv[0]}, add...), argv[1:]...)
	return Launch{Argv: out, Session: session}, nil
}

// hookArgs are the arguments that install the hook.
func (a *Adapter) hookArgs(hook HookCommand) []string {
	switch {
	case a.Hooks == HookClaude && hook.SettingsFile != "":
		return []string{"--settings", hook.SettingsFile}
	case a.Hooks == HookCodex && len(hook.Argv) > 0:
		return []string{"-c", "notify=" + tomlArray(append(slices.Clone(hook.Argv), "codex"))}
	}
	return nil
}

// SessionIn reports the conversation a command line already names, and
// whether it resumes or names one at all (then the host adds no id of its
// own). "claude --continue" resumes without naming one: session is "".
func (a *Adapter) SessionIn(argv []string) (session string, named bool) {
	args := argv[min(len(argv), 1):]
	switch a.Hooks {
	case HookClaude:
		if id, ok := flagValue(args, "--resume", "-r", "--session-id"); ok {
			return validSession(id), true
		}
		return "", slices.ContainsFunc(args, func(s string) bool { return s == "--continue" || s == "-c" })
	case HookCodex:
		if len(args) > 0 && args[0] == "resume" {
			if len(args) > 1 && !strings.HasPrefix(args[1], "-") {
				return validSession(args[1]), true
			}
			return "", true
		}
	case HookGemini:
		if id, ok := flagValue(args, "--resume", "-r", "--session-id"); ok {
			return validSession(id), true
		}
	}
	return "", false
}

// flagValue finds the first of names in args, as "NAME VALUE" or
// "NAME=VALUE".
func flagValue(args []string, names ...string) (string, bool) {
	for i, s := range args {
		for _, n := range names {
			switch {
			case s == n && i+1 < len(args):
				return args[i+1], true
			case s == n:
				return "", true
			case strings.HasPrefix(s, n+"="):
				return s[len(n)+1:], true
			}
		}
	}
	return "", false
}

// sessionPattern is what clowder accepts as a conversation id: the UUIDs
// the agents use, and names (Codex takes a session name too). It never
// starts with "-", so it cannot turn into an option of the resume command.
var sessionPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$`) })

// ValidSession reports whether id can be recorded and put on a resume
// command line.
func ValidSession(id string) bool { return sessionPattern().MatchString(id) }

// validSession is id if it is valid, else "" (unknown).
func validSession(id string) string {
	if ValidSession(id) {
		return id
	}
	return ""
}

// NewSessionID returns a random UUID (version 4), the form Claude Code's
// and Gemini CLI's --session-id take.
func NewSessionID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("make a session id: %w", err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]), nil
}

// claudeHookEvents are the Claude Code events clowder listens to: the
// session id comes with every one, SessionStart says when it changes
// (startup, resume, clear, compact), and the others drive attention
// (HookAttention).
var claudeHookEvents = []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Notification", "Stop", "StopFailure", "PermissionRequest"}

// ClaudeSettings is the settings file (Claude Code's --settings) that
// runs `hookArgv claude` on each event clowder listens to, with a short
// timeout: a hook must never hold the agent up.
func ClaudeSettings(hookArgv []string) []byte {
	command := shellQuote(append(slices.Clone(hookArgv), "claude"))
	type hook struct {
		Type    string `json:"type"`
		Command string `json:"command"`
		Timeout int    `json:"timeout"` // seconds
	}
	type matcher struct {
		Hooks []hook `json:"hooks"`
	}
	hooks := map[string][]matcher{}
	for _, ev := range claudeHookEvents {
		hooks[ev] = []matcher{{Hooks: []hook{{Type: "command", Command: command, Timeout: 10}}}}
	}
	b, _ := json.MarshalIndent(map[string]any{"hooks": hooks}, "", "  ") // maps of strings always encode
	return append(b, '\n')
}

// shellQuote joins argv into one sh command line, each word in single
// quotes.
func shellQuote(argv []string) string {
	out := make([]string, len(argv))
	for i, s := range argv {
		out[i] = "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}

// tomlArray is argv as a TOML array of literal strings (basic strings for
// the rare word holding a single quote).
func tomlArray(argv []string) string {
	out := make([]string, len(argv))
	for i, s := range argv {
		if strings.ContainsAny(s, "'\n\r") {
			b, _ := json.Marshal(s) // a JSON string is a valid TOML basic string
			out[i] = string(b)
			continue
		}
		out[i] = "'" + s + "'"
	}
	return "[" + strings.Join(out, ",") + "]"
}

// hookAttention is what each hook event says about attention: the agent
// waits for the user (its turn ended, or it asks permission), or it works
// (a prompt was submitted, a tool runs). Events not listed say nothing.
var hookAttention = map[string]Attention{
	// Claude Code 2.1.197 (and Gemini CLI's equivalents).
	"Notification": NeedsInput, "Stop": NeedsInput, "StopFailure": NeedsInput, "PermissionRequest": NeedsInput,
	"UserPromptSubmit": Working, "PreToolUse": Working, "PostToolUse": Working,
	"AfterAgent": NeedsInput, "BeforeAgent": Working, "BeforeTool": Working, "AfterTool": Working,
	// Codex CLI 0.171.0's notify types.
	"agent-turn-complete": NeedsInput, "approval-requested": NeedsInput,
}

// HookAttention is the attention state a hook event reports, if any.
// detail is Claude Code's notification_type for a Notification: its
// "auth_success" asks nothing of the user.
func HookAttention(event, detail string) (Attention, bool) {
	if event == "Notification" && detail == "auth_success" {
		return 0, false
	}
	a, ok := hookAttention[event]
	return a, ok
}

// HookFollowsSession reports whether an event's session id is the pane's
// current conversation. SessionEnd is not: on /clear it carries the old
// id, and may reach the host after the new conversation's SessionStart.
func HookFollowsSession(event string) bool { return event != "SessionEnd" }

// ResumeFor is ResumeArgv with a line for the user when no conversation
// id was recorded and the adapter's Continue (the most recent
// conversation in the directory, which may be another pane's) stands in.
// An id that is not one (a hand-edited agents.json: "--dangerous") counts
// as none, so it never becomes an option of the resume command.
func (a *Adapter) ResumeFor(session string) (argv []string, note string, ok bool) {
	if !ValidSession(session) {
		session = ""
	}
	argv, ok = a.ResumeArgv(session)
	if ok && session == "" && len(a.Continue) > 0 && slices.Equal(argv, a.Continue) {
		note = fmt.Sprintf("no conversation id was recorded for this %s pane; resuming the most recent conversation in its directory (%s)",
			a.Name, strings.Join(argv, " "))
	}
	return argv, note, ok
}
