package panes

// This file is agent adapters: what clowder knows about each program it
// runs in a pane. An adapter gives the command, how to resume a saved
// conversation, environment to add, whether the program is installed, its
// attention rules, and how its input wants Shift+Enter and submit.
//
// Built-in adapters: claude, codex, gemini, aider (agents), shell (the
// login shell) and command (any argv, given by the spawn spec). The
// [agents.NAME] tables of config.toml override a built-in field by field
// (persist has already merged them over its defaults) or add new agents,
// which get the generic attention rules.

import (
	"fmt"
	"maps"
	"os/exec"
	"slices"
	"strings"
	"time"

	"clowder/persist"
)

// Adapter names with special meaning.
const (
	AdapterShell   = "shell"   // the user's login shell ($SHELL, else /bin/sh)
	AdapterCommand = "command" // the spec's own argv
)

// SessionPlaceholder is replaced in a Resume template by the session id.
const SessionPlaceholder = "{session}"

// Adapter is one kind of program clowder runs in a pane. Adapters are
// values: callers may copy and modify them.
type Adapter struct {
	Name    string
	Kind    persist.Kind
	Command []string // argv that starts it; empty for AdapterCommand
	// Resume is the argv that resumes a conversation; SessionPlaceholder in
	// it is replaced by the session id. Without a placeholder it resumes
	// whatever the program keeps (aider's per-directory history).
	Resume []string
	// Continue resumes the most recent conversation when no session id was
	// recorded ("claude --continue", "codex resume --last").
	Continue []string
	Env      map[string]string // added to the pane's environment
	Rules    Rules             // attention rules
	// ShiftEnter is sent for Shift+Enter in legacy mode; "" means
	// DefaultShiftEnter (ESC CR).
	ShiftEnter string
	// SubmitGap is the pause between a submission's paste and its Enter
	// (config: [agents.NAME] submit_gap). The built-ins' figures were
	// measured in a 100x30 tmux pane on 2026-11-30, each trial a fresh
	// CLI with a fake API key, a bracketed paste, the gap, then CR, the
	// text counted as submitted when the CLI left its prompt and answered
	// (see claudeSubmitGap, geminiSubmitGap).
	SubmitGap time.Duration
	// FirstSubmitWait is how long after a pane first shows needs-input its
	// first submission must wait: some programs draw their prompt before
	// they take an Enter (claudeFirstSubmitWait). Zero means no wait.
	FirstSubmitWait time.Duration
	// Hooks is how the agent reports its conversation id and its turns
	// (hook.go); the host adds the launch arguments it needs.
	Hooks HookStyle
}

// EncodeOptions are the key-encoding options the adapter's program needs.
func (a *Adapter) EncodeOptions() EncodeOptions {
	return EncodeOptions{ShiftEnter: a.ShiftEnter}
}

// Argv returns a copy of the command that starts the program.
func (a *Adapter) Argv() []string { return slices.Clone(a.Command) }

// ResumeArgv returns the command that resumes a conversation: Resume with
// the session id when one was recorded (or when Resume needs none), else
// Continue. ok is false when the adapter cannot resume.
func (a *Adapter) ResumeArgv(session string) (argv []string, ok bool) {
	needsID := slices.ContainsFunc(a.Resume, func(s string) bool { return strings.Contains(s, SessionPlaceholder) })
	switch {
	case len(a.Resume) > 0 && !needsID:
		return slices.Clone(a.Resume), true
	case len(a.Resume) > 0 && session != "":
		out := make([]string, len(a.Resume))
		for i, s := range a.Resume {
			out[i] = strings.ReplaceAll(s, SessionPlaceholder, session)
		}
		return out, true
	case len(a.Continue) > 0:
		return slices.Clone(a.Continue), true
	}
	return nil, false
}

// Installed reports whether the program is on PATH, and where. An adapter
// without a command (AdapterCommand) is never "installed".
func (a *Adapter) Installed() (path string, ok bool) {
	if len(a.Command) == 0 {
		return "", false
	}
	p, err := exec.LookPath(a.Command[0])
	return p, err == nil
}

// Adapters is the set of adapters in effect: built-ins with the config's
// overrides. It is read-only after NewAdapters and safe to share.
type Adapters struct {
	byName map[string]Adapter
}

// NewAdapters builds the adapters from config.toml's [agents] tables
// (persist.Config.Agents) and the login shell (the value of $SHELL; "" means
// /bin/sh).
func NewAdapters(agents map[string]persist.AgentConfig, shell string) *Adapters {
	a := &Adapters{byName: builtinAdapters(shell)}
	for name, cfg := range agents {
		a.byName[name] = override(a.byName[name], name, cfg)
	}
	return a
}

// override lays one [agents.NAME] table over an adapter (zero for a new
// agent, which gets the generic rules).
func override(base Adapter, name string, cfg persist.AgentConfig) Adapter {
	if base.Name == "" {
		base = Adapter{Name: name, Kind: persist.KindAgent, Rules: GenericRules()}
	}
	if len(cfg.Command) > 0 {
		base.Command = slices.Clone(cfg.Command)
	}
	if cfg.Resume != nil {
		base.Resume = slices.Clone(cfg.Resume)
	}
	if cfg.Env != nil {
		base.Env = maps.Clone(cfg.Env)
	}
	if cfg.SubmitGap != nil {
		base.SubmitGap = cfg.SubmitGap.Std()
	}
	if cfg.FirstSubmitWait != nil {
		base.FirstSubmitWait = cfg.FirstSubmitWait.Std()
	}
	return base
}

// Get returns the named adapter, or an error listing the known names.
func (a *Adapters) Get(name string) (Adapter, error) {
	ad, ok := a.byName[name]
	if !ok {
		return Adapter{}, fmt.Errorf("unknown adapter %q: want one of %s, or add [agents.%s] with a command to config.toml",
			name, strings.Join(a.Names(), ", "), name)
	}
	ad.Command, ad.Resume, ad.Continue = slices.Clone(ad.Command), slices.Clone(ad.Resume), slices.Clone(ad.Continue)
	ad.Env = maps.Clone(ad.Env)
	return ad, nil
}

// Names lists the adapter names, sorted.
func (a *Adapters) Names() []string {
	return slices.Sorted(maps.Keys(a.byName))
}

// Measured submit gaps (see Adapter.SubmitGap).
const (
	// claudeSubmitGap: Claude Code 2.1.197 loses the Enter that arrives in
	// the same write as the paste (0 ms: 5 of 5 lost; the text stays in
	// its prompt) and takes it 50 ms later (2 of 2) and 200 ms later
	// (2 of 2) once started. 100 ms leaves a margin. Separately, in its
	// first ~2 s after the prompt first shows, it drops an Enter whatever
	// the gap: see claudeFirstSubmitWait.
	claudeSubmitGap = 100 * time.Millisecond
	// claudeFirstSubmitWait: a paste 1 s after Claude Code 2.1.197 first
	// drew its prompt lost its Enter with gaps of 50 ms to 500 ms (7 of 9
	// lost; the text stays in the prompt), while 2 s after (100 ms gap: 3
	// of 3) and 4 s after (4 of 4) it was taken. The host judges
	// needs-input a settle time (1 s) after the prompt, so 1.5 s more.
	claudeFirstSubmitWait = 1500 * time.Millisecond
	// geminiSubmitGap: Gemini CLI 0.61.0 loses the Enter at 0 ms and 100
	// ms (4 of 4 each) and takes it at 300 ms (2 of 2) once started; 1 s
	// after its prompt first shows, 300 ms still lost 2 of 2 and 500 ms
	// took 2 of 2. 500 ms covers both.
	geminiSubmitGap = 500 * time.Millisecond
	// Codex CLI 0.171.0 needs no gap: a paste and CR in one write, 2 s
	// after its composer first showed, were submitted 2 of 2.
)

// builtinAdapters are the adapters clowder knows without configuration.
func builtinAdapters(shell string) map[string]Adapter {
	if shell == "" {
		shell = "/bin/sh"
	}
	list := []Adapter{
		// claude: checked against Claude Code 2.1.197 (--help, and run with a
		// fresh HOME and a fake API key): --session-id <uuid> starts a
		// conversation under that id, --resume <id> resumes it, and
		// --settings <file> adds hooks without touching the user's settings.
		// Every hook gets JSON on stdin with session_id and hook_event_name
		// (SessionStart also source: startup, resume, clear or compact; a
		// /clear moves to a new session_id). See HookClaude.
		{Name: "claude", Kind: persist.KindAgent, Command: []string{"claude"},
			Resume:   []string{"claude", "--resume", SessionPlaceholder},
			Continue: []string{"claude", "--continue"}, Rules: ClaudeRules(),
			SubmitGap: claudeSubmitGap, FirstSubmitWait: claudeFirstSubmitWait, Hooks: HookClaude},
		// codex: checked against Codex CLI 0.171.0: no id can be given at
		// launch; "codex resume <SESSION_ID>" takes the UUID, and
		// -c notify=[...] runs a program after each turn with one JSON
		// argument ({"type":"agent-turn-complete","thread-id":...}), the
		// thread id being the session id. Its session files
		// (~/.codex/sessions/.../rollout-*.jsonl) are not read: two codex
		// panes in one directory cannot be told apart there. See HookCodex.
		{Name: "codex", Kind: persist.KindAgent, Command: []string{"codex"},
			Resume:   []string{"codex", "resume", SessionPlaceholder},
			Continue: []string{"codex", "resume", "--last"}, Rules: CodexRules(), Hooks: HookCodex},
		// gemini: checked against Gemini CLI 0.61.0 (--help, its docs, and
		// run with a fresh HOME and a fake key): --session-id <uuid> starts
		// a new session under that id (its file is chats/session-TIME-
		// <first 8 hex>.jsonl), and --resume takes "latest", an index or a
		// session UUID. It has hooks (SessionStart, AfterAgent,
		// Notification, with session_id on stdin) but no --settings flag:
		// only settings files. GEMINI_CLI_SYSTEM_DEFAULTS_PATH did run them,
		// but it replaces the system's own defaults file, Gemini refuses it
		// with a security warning on screen when a parent directory is
		// writable by others (clowder's /tmp/clowder-UID fallback), and it
		// shows "Executing Hook: ..." on every event. So clowder installs no
		// hooks: the id is the one given at launch, and a /clear inside
		// Gemini is not followed. See HookGemini.
		{Name: "gemini", Kind: persist.KindAgent, Command: []string{"gemini"},
			Resume:   []string{"gemini", "--resume", SessionPlaceholder},
			Continue: []string{"gemini", "--resume", "latest"}, Rules: GeminiRules(), SubmitGap: geminiSubmitGap, Hooks: HookGemini},
		// aider keeps one chat history per directory, so its resume needs no id.
		{Name: "aider", Kind: persist.KindAgent, Command: []string{"aider"},
			Resume: []string{"aider", "--restore-chat-history"}, Rules: AiderRules()},
		// Shells and plain commands get what a terminal sends for Shift+Enter:
		// CR, which runs the line as the user expects in a shell.
		{Name: AdapterShell, Kind: persist.KindShell, Command: []string{shell}, Rules: ShellRules(), ShiftEnter: "\r"},
		{Name: AdapterCommand, Kind: persist.KindRun, Rules: GenericRules(), ShiftEnter: "\r"},
	}
	m := make(map[string]Adapter, len(list))
	for _, a := range list {
		m[a.Name] = a
	}
	return m
}
