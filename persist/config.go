package persist

// This file is config.toml: its shape, its one source of defaults
// (DefaultConfig) and its loading. A missing file means the defaults; a
// present one overrides them key by key. Unknown keys are errors that name
// the key and the file, because a misspelt key silently ignored is a
// setting the user believes is on.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// Config is the content of config.toml.
type Config struct {
	Host       HostConfig       `toml:"host"`
	Supervisor SupervisorConfig `toml:"supervisor"`
	TUI        TUIConfig        `toml:"tui"`
	// Keys maps a TUI action name to its keys (split-right = ["%", "|"]).
	// It overrides entries of the TUI's own keymap, which owns the action
	// names and rejects unknown ones.
	Keys map[string]KeyList `toml:"keys"`
	// Agents are the agent adapters by name ([agents.claude]). A table in
	// the file overrides the named adapter field by field, or adds one.
	Agents    map[string]AgentConfig `toml:"agents"`
	Worktrees WorktreesConfig        `toml:"worktrees"`
	// Profiles are named variants of agent adapters ([profiles.review];
	// profile.go).
	Profiles map[string]ProfileConfig `toml:"profiles"`
}

// HostConfig is the [host] section.
type HostConfig struct {
	RingBytes       int64 `toml:"ring_bytes"`       // raw output ring per pane
	ScrollbackLines int   `toml:"scrollback_lines"` // vtgrid scrollback per pane
	// KeepExited is how many panes whose process is gone (exited or lost)
	// the host and agents.json keep; older ones are forgotten, oldest exit
	// first. Live panes are never forgotten.
	KeepExited int `toml:"keep_exited"`
}

// SupervisorConfig is the [supervisor] section.
type SupervisorConfig struct {
	KillGrace    Duration   `toml:"kill_grace"`    // SIGTERM → SIGKILL grace
	Cgroup       CgroupMode `toml:"cgroup"`        // off, auto, required
	CgroupParent string     `toml:"cgroup_parent"` // "" = the host's own cgroup
	Timeout      Duration   `toml:"timeout"`       // default overall timeout; 0 = none
	IdleTimeout  Duration   `toml:"idle_timeout"`  // default no-output timeout; 0 = none
}

// TUIConfig is the [tui] section.
type TUIConfig struct {
	Prefix         string `toml:"prefix"`          // the prefix key, in tmux key-name syntax
	Theme          string `toml:"theme"`           // a theme name from assets
	DefaultAdapter string `toml:"default_adapter"` // the agent of a first start; "" = a shell
	Notify         Notify `toml:"notify"`          // how a pane that needs input is announced
}

// Notify is [tui] notify: how the TUI announces a pane that begins to
// need input.
type Notify string

// The [tui] notify values.
const (
	NotifyAll      Notify = "all"      // the terminal (bell or OSC 9) and notify-send
	NotifyTerminal Notify = "terminal" // the terminal only
	NotifyOff      Notify = "off"      // nothing; the pane's mark still shows it
)

// AgentConfig is one [agents.NAME] table.
type AgentConfig struct {
	// Command is the argv that starts the agent.
	Command []string `toml:"command"`
	// Resume is the argv template that resumes a conversation; the adapter
	// replaces "{session}" with the session id it recorded. Empty means the
	// agent cannot be resumed.
	Resume []string `toml:"resume"`
	// Env is added to the agent's environment. Only the keys are ever
	// written to agents.json.
	Env map[string]string `toml:"env"`
	// SubmitGap is the pause between a submission's paste and its Enter
	// ("300ms"); nil keeps the adapter's own.
	SubmitGap *Duration `toml:"submit_gap"`
	// FirstSubmitWait is how long a pane must have needed input before
	// its first submission is pasted ("1.5s"); nil keeps the adapter's own.
	FirstSubmitWait *Duration `toml:"first_submit_wait"`
	// OnRestart is what a starting host does with the agent if it was
	// running when the host or the machine went down: "resume" (the
	// default) starts it again with its conversation, "none" leaves it lost.
	OnRestart OnRestart `toml:"on_restart"`
}

// WorktreesConfig is the [worktrees] section.
type WorktreesConfig struct {
	Base string `toml:"base"` // absolute; "" = Paths.Worktrees
}

// DefaultKeepExited is host.keep_exited's default.
const DefaultKeepExited = 100

// DefaultPrefix is the default prefix key.
//
// Why C-Space: C-b (tmux's) is Claude Code's "background task"; C-o, C-g and
// C-r are Claude Code's transcript, editor and history keys; C-a (screen's)
// is readline's beginning-of-line, which shell users press constantly; C-t,
// C-e, C-k, C-u, C-w, C-y, C-l are readline editing keys; C-s and C-q are
// flow control in some terminals. C-Space reaches the application as NUL in
// every common terminal, is bound only to set-mark in readline and emacs
// (rare in a shell), and is one chord for both hands. The known collision
// is macOS's "previous input source" shortcut when several input sources
// are enabled; such users rebind it with [tui] prefix.
const DefaultPrefix = "C-Space"

// DefaultConfig returns the defaults every part of clowder uses. It returns
// a fresh value each time, so callers may modify it.
func DefaultConfig() Config {
	return Config{
		Host: HostConfig{RingBytes: 8 << 20, ScrollbackLines: 10000, KeepExited: DefaultKeepExited},
		Supervisor: SupervisorConfig{
			KillGrace: Duration(3 * time.Second),
			Cgroup:    CgroupAuto,
		},
		TUI:    TUIConfig{Prefix: DefaultPrefix, Theme: "default", DefaultAdapter: "claude", Notify: NotifyAll},
		Keys:   map[string]KeyList{},
		Agents: defaultAgents(),
	}
}

// defaultAgents are the adapters clowder knows out of the box.
func defaultAgents() map[string]AgentConfig {
	return map[string]AgentConfig{
		"claude": {Command: []string{"claude"}, Resume: []string{"claude", "--resume", "{session}"}},
		"codex":  {Command: []string{"codex"}, Resume: []string{"codex", "resume", "{session}"}},
		"gemini": {Command: []string{"gemini"}, Resume: []string{"gemini", "--resume", "{session}"}},
		// aider keeps one chat history per directory, not session ids.
		"aider": {Command: []string{"aider"}, Resume: []string{"aider", "--restore-chat-history"}},
	}
}

// LoadConfig reads config.toml at path over DefaultConfig. A missing file
// (or an empty path) gives the defaults and no error. Syntax errors, wrong
// types, unknown keys and invalid values are errors that name the file.
func LoadConfig(path string) (Config, error) {
	if path == "" {
		return DefaultConfig(), nil
	}
	data, err := readConfig(path)
	if errors.Is(err, fs.ErrNotExist) {
		if target, lerr := os.Readlink(path); lerr == nil { // a link to nothing is a config gone, not none
			return Config{}, fmt.Errorf("load config %s: it is a symbolic link to %s, which does not exist; fix the link, or remove it to run with the defaults", path, target)
		}
		return DefaultConfig(), nil
	}
	if err != nil {
		return Config{}, fmt.Errorf("load config %s: %w", path, err)
	}
	cfg, err := decodeConfig(string(data))
	if err != nil {
		return Config{}, fmt.Errorf("config %s: %w", path, err)
	}
	return cfg, nil
}

// maxConfigBytes bounds config.toml: a real one is a few KB.
const maxConfigBytes = 1 << 20

// readConfig reads config.toml, which may be a symlink (dotfiles) but
// must end at a regular file of at most maxConfigBytes.
func readConfig(path string) ([]byte, error) {
	data, err := ReadRegularFile(path, maxConfigBytes)
	var notRegular *NotRegularError
	var tooLarge *TooLargeError
	switch {
	case errors.As(err, &notRegular):
		return nil, fmt.Errorf("%w; point %s at a config.toml file", err, EnvConfig)
	case errors.As(err, &tooLarge):
		return nil, fmt.Errorf("%d bytes, over the 1 MiB (%d bytes) a config can have: a config.toml is a few KB, so check that this is the file you mean (%s names another), or cut it down",
			tooLarge.Size, maxConfigBytes, EnvConfig)
	}
	return data, err
}

// decodeConfig decodes TOML text over the defaults and validates it.
func decodeConfig(text string) (Config, error) {
	cfg := DefaultConfig()
	// Agents decode into a fresh map: toml replaces a map entry whole, and
	// mergeAgents puts the fields the file did not set back.
	cfg.Agents = nil
	md, err := toml.Decode(text, &cfg)
	if err != nil {
		return Config{}, err
	}
	if err := unknownKeys(md.Undecoded()); err != nil {
		return Config{}, err
	}
	cfg.Agents = mergeAgents(defaultAgents(), cfg.Agents, md)
	if err := cfg.Validate(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// unknownKeys turns toml's undecoded keys into one error naming them all.
func unknownKeys(keys []toml.Key) error {
	if len(keys) == 0 {
		return nil
	}
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = fmt.Sprintf("%q", k.String())
	}
	word := "key"
	if len(keys) > 1 {
		word = "keys"
	}
	return fmt.Errorf("unknown %s %s; check the spelling against clowder's documented settings",
		word, strings.Join(names, ", "))
}

// mergeAgents lays the file's agent tables over the defaults, field by
// field, using md to tell a field the file set from one it left out.
func mergeAgents(defaults, file map[string]AgentConfig, md toml.MetaData) map[string]AgentConfig {
	for name, a := range file {
		base := defaults[name]
		if md.IsDefined("agents", name, "command") {
			base.Command = a.Command
		}
		if md.IsDefined("agents", name, "resume") {
			base.Resume = a.Resume
		}
		if md.IsDefined("agents", name, "env") {
			base.Env = a.Env
		}
		if md.IsDefined("agents", name, "submit_gap") {
			base.SubmitGap = a.SubmitGap
		}
		if md.IsDefined("agents", name, "first_submit_wait") {
			base.FirstSubmitWait = a.FirstSubmitWait
		}
		if md.IsDefined("agents", name, "on_restart") {
			base.OnRestart = a.OnRestart
		}
		defaults[name] = base
	}
	return defaults
}

// WorktreesBase is where agent worktrees go: worktrees.base if set, else
// the default from p.
func (c Config) WorktreesBase(p Paths) string {
	if c.Worktrees.Base != "" {
		return c.Worktrees.Base
	}
	return p.Worktrees
}
