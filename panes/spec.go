package panes

// This file is the spawn spec: what a client sends the host to start a
// pane, and its validation. Validation is of the spec alone (shape,
// bounds, names); whether a name is unique among live panes, and whether
// the command exists, are the host's checks at spawn time.

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"clowder/persist"
)

// Limits a spec must keep. The size limits are the only definition of how
// big a pane may be: the CLI's --size, the host's spawn and resize (and so
// every client's resize, the TUI's and attach's) and the protocol's screen
// frames all use them (docs/protocol.md, "Limits"). MaxCells bounds the
// screen's memory (a cell costs about 50 bytes in the host) and one screen
// frame; 1000 columns is wider than any real display, and MaxCells still
// allows 1000x131 or 362x362.
const (
	MaxNameLen = 40
	MinCols    = 2
	MinRows    = 2
	MaxCols    = 1000
	MaxRows    = 1000
	MaxCells   = 1 << 17
)

// DefaultSize is a pane's size until a client shows it (docs/cli.md).
var DefaultSize = persist.Size{Cols: 80, Rows: 24}

// Spec is a request to spawn a pane.
type Spec struct {
	Name    string       // "" lets the host choose one
	Kind    persist.Kind // agent, shell or run
	Adapter string       // for agents: the adapter name; "" for shells and runs
	// Argv overrides the adapter's command; for KindRun it is the command.
	Argv []string
	Cwd  string            // absolute; the client resolves its own cwd
	Env  map[string]string // added to the environment
	Size persist.Size      // zero means DefaultSize
	// Worktree, when not nil, runs the pane in a new git worktree of the
	// repository containing Cwd (needs a Name: it names the branch).
	Worktree *WorktreeSpec
	Timeouts persist.Timeouts // watchdogs; zero means none
}

// WorktreeSpec asks for a worktree.
type WorktreeSpec struct {
	Base string // commit-ish to branch from; "" means HEAD
}

// Validate checks the spec and returns the first problem as a one-line
// error that says what to do.
func (s Spec) Validate() error {
	checks := []func() error{s.validateName, s.validateKind, s.validateCwd, s.validateEnv, s.validateSize, s.validateTimeouts}
	for _, check := range checks {
		if err := check(); err != nil {
			return fmt.Errorf("invalid pane spec: %w", err)
		}
	}
	return nil
}

func (s Spec) validateName() error {
	if s.Name == "" {
		if s.Worktree != nil {
			return fmt.Errorf("a worktree needs a pane name (it names the branch); pass --name")
		}
		return nil
	}
	return ValidateName(s.Name)
}

func (s Spec) validateKind() error {
	switch s.Kind {
	case persist.KindAgent:
		if s.Adapter == "" {
			return fmt.Errorf("an agent pane needs an adapter; pass --agent NAME")
		}
	case persist.KindShell:
	case persist.KindRun:
		if len(s.Argv) == 0 || s.Argv[0] == "" {
			return fmt.Errorf("a run pane needs a command; pass it after -- (clowder new -- CMD ARGS)")
		}
	default:
		return fmt.Errorf("kind %s is not agent, shell or run", s.Kind)
	}
	for i, a := range s.Argv {
		if strings.IndexByte(a, 0) >= 0 {
			return fmt.Errorf("argument %d of the command contains a NUL byte; remove it", i)
		}
	}
	return nil
}

func (s Spec) validateCwd() error {
	if s.Cwd != "" && !filepath.IsAbs(s.Cwd) {
		return fmt.Errorf("cwd %q is not an absolute path; give an absolute directory", s.Cwd)
	}
	return nil
}

func (s Spec) validateEnv() error {
	for k, v := range s.Env {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return fmt.Errorf("environment name %q is invalid; use NAME=value with a NAME without '='", k)
		}
		if strings.IndexByte(v, 0) >= 0 {
			return fmt.Errorf("environment variable %s contains a NUL byte; remove it", k)
		}
	}
	return nil
}

func (s Spec) validateSize() error {
	if s.Size == (persist.Size{}) {
		return nil
	}
	return ValidateSize(s.Size)
}

func (s Spec) validateTimeouts() error {
	if s.Timeouts.Overall < 0 || s.Timeouts.Idle < 0 {
		return fmt.Errorf("timeouts must not be negative; give a duration like 10m or 0 for none")
	}
	return nil
}

// SizeOrDefault is the spec's size, or DefaultSize when it has none.
func (s Spec) SizeOrDefault() persist.Size {
	if s.Size == (persist.Size{}) {
		return DefaultSize
	}
	return s.Size
}

// ValidateName checks a pane name: 1 to MaxNameLen characters from
// letters, digits, '-', '_' and '.', not starting with '-' or '.'. Such a
// name is safe as a directory name, a git branch suffix and a CLI
// argument.
func ValidateName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("pane name is empty; give a name like api-fix")
	case len(name) > MaxNameLen:
		return fmt.Errorf("pane name %q is longer than %d characters; shorten it", name, MaxNameLen)
	case name[0] == '-' || name[0] == '.':
		return fmt.Errorf("pane name %q starts with %q; start it with a letter or digit", name, name[0])
	case strings.Contains(name, ".."), strings.HasSuffix(name, ".lock"):
		return fmt.Errorf("pane name %q has \"..\" or ends in \".lock\", which git refuses in branch names; rename it", name)
	}
	for _, r := range name {
		if !nameRune(r) {
			return fmt.Errorf("pane name %q contains %q; use only letters, digits, '-', '_' and '.'", name, r)
		}
	}
	return nil
}

func nameRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.'
}

// ValidateSize checks a pane size against the bounds.
func ValidateSize(sz persist.Size) error {
	if sz.Cols < MinCols || sz.Cols > MaxCols || sz.Rows < MinRows || sz.Rows > MaxRows || sz.Cols*sz.Rows > MaxCells {
		return fmt.Errorf("size %dx%d is out of bounds; give COLSxROWS with %d-%d columns, %d-%d rows and at most %d cells",
			sz.Cols, sz.Rows, MinCols, MaxCols, MinRows, MaxRows, MaxCells)
	}
	return nil
}

// ClampSize is the size nearest to sz within the bounds: columns and rows
// clamped, then rows cut to keep at most MaxCells.
func ClampSize(sz persist.Size) persist.Size {
	cols := min(max(sz.Cols, MinCols), MaxCols)
	rows := min(max(sz.Rows, MinRows), MaxRows, MaxCells/cols)
	return persist.Size{Cols: cols, Rows: rows}
}

// ParseSize reads COLSxROWS ("120x40") and checks the bounds.
func ParseSize(s string) (persist.Size, error) {
	c, r, ok := strings.Cut(strings.ToLower(s), "x")
	cols, err1 := strconv.Atoi(c)
	rows, err2 := strconv.Atoi(r)
	if !ok || err1 != nil || err2 != nil {
		return persist.Size{}, fmt.Errorf("size %q is not COLSxROWS; write it like 120x40", s)
	}
	sz := persist.Size{Cols: cols, Rows: rows}
	return sz, ValidateSize(sz)
}

// Command resolves the argv to start: the spec's Argv when given, else the
// adapter's command (the adapter being Spec.Adapter for agents, the shell
// for shells, the plain command for runs). It returns the adapter too.
func (s Spec) Command(ads *Adapters) ([]string, Adapter, error) {
	name := s.Adapter
	switch s.Kind {
	case persist.KindShell:
		name = AdapterShell
	case persist.KindRun:
		name = AdapterCommand
	}
	a, err := ads.Get(name)
	if err != nil {
		return nil, Adapter{}, err
	}
	argv := s.Argv
	if len(argv) == 0 {
		argv = a.Command
	}
	if len(argv) == 0 {
		return nil, Adapter{}, fmt.Errorf("adapter %s has no command; set [agents.%s] command in config.toml", name, name)
	}
	return append([]string(nil), argv...), a, nil
}
