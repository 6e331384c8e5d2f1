// The spawn contract. One Spec type with two arms: a PTY run (explicit
// argv, cwd, env, size; the child gets setsid and the PTY as controlling
// terminal, so its process group and session are its own) and a pipe run
// (argv with stdout/stderr pipes; the child gets its own process group).
// Spawner.Start turns a Spec into a live *Run.

package supervisor

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"

	"clowder/persist"
)

// Size is a terminal size in cells.
type Size struct {
	Cols uint16 `json:"cols"`
	Rows uint16 `json:"rows"`
}

// defaultSize is a PTY run's size until a client shows it (docs/cli.md).
var defaultSize = Size{Cols: 80, Rows: 24}

// PTYArm makes a run a PTY run.
type PTYArm struct {
	Size Size // zero means 80x24
	// Output receives every byte read from the PTY master, in order, from a
	// single goroutine; it must not block for long (the host's ring never
	// does). Nil discards.
	Output io.Writer
}

// PipeArm makes a run a pipe run.
type PipeArm struct {
	// Stdin is the child's stdin; nil means /dev/null. The caller keeps
	// ownership and closes it.
	Stdin *os.File
	// Stdout and Stderr receive the child's output streams, each from its
	// own goroutine, in order. Nil discards.
	Stdout, Stderr io.Writer
}

// Spec is what to run. Exactly one of PTY and Pipe is set.
type Spec struct {
	PaneID string   // set as CLOWDER_PANE_ID; names the cgroup leaf
	Argv   []string // explicit command; argv[0] is looked up in PATH of Env
	Dir    string   // working directory; "" means the caller's
	// Env is the client's environment; nil means this process's. Variables
	// that would nest wrongly are dropped (see nestingVars) and TERM,
	// COLORTERM, TERM_PROGRAM, CLOWDER_PANE_ID and CLOWDER_PANE_TOKEN are
	// set.
	Env []string
	// Token is set as CLOWDER_PANE_TOKEN (token.go): an unguessable
	// per-pane value by which a later host finds the pane's processes.
	// "" sets none.
	Token string

	PTY  *PTYArm
	Pipe *PipeArm

	Limits Limits // zero fields come from Options.Limits, then DefaultLimits
	// AllowSecretArgs lets an argv with credentials run; it is then kept
	// only redacted and the run is not resumable.
	AllowSecretArgs bool
	// BeforeFork, if set, runs once the run's containment exists (its
	// cgroup leaf, if any, is made) and before the process starts, so the
	// caller can record where the process will be before it exists.
	BeforeFork func(Containment)
	// OnExit receives the final record exactly once, from the goroutine that
	// finalized the run, before Done is closed. It must not wait on the run.
	OnExit func(Exit)

	// afterExec, for tests, runs once the child has exec'd, before Start
	// checks its context for the last time.
	afterExec func(*Run)
}

// Options configure a Spawner.
type Options struct {
	// CgroupMode is config.toml's mode; the zero value is persist.CgroupOff.
	CgroupMode persist.CgroupMode
	// CgroupParent is a writable cgroup2 directory under which each run gets
	// a leaf; "" means <cgroup2 mount>/<this process's cgroup>/clowder.
	CgroupParent string
	Limits       Limits // defaults for runs; zero fields from DefaultLimits
}

// Spawner starts runs. It holds no goroutines of its own; safe for
// concurrent use.
type Spawner struct {
	opts Options
	seq  atomic.Uint64 // makes cgroup leaf names unique
}

// NewSpawner returns a Spawner. The host should also call StartSubreaper.
func NewSpawner(opts Options) *Spawner {
	opts.Limits = opts.Limits.Or(DefaultLimits())
	return &Spawner{opts: opts}
}

// errEmptyCommand rejects a spec without argv.
var errEmptyCommand = errors.New("empty command")

// validate checks the spec's shape and its argv for credentials.
func (s *Spec) validate() error {
	switch {
	case len(s.Argv) == 0 || s.Argv[0] == "":
		return errEmptyCommand
	case (s.PTY == nil) == (s.Pipe == nil):
		return errors.New("spec needs exactly one of a PTY arm and a pipe arm")
	}
	if err := CheckArgs(s.Argv); err != nil && !s.AllowSecretArgs {
		return err
	}
	return checkDir(s.Dir)
}

// checkDir names a missing working directory: the kernel's chdir failure
// would otherwise read as the command not existing.
func checkDir(dir string) error {
	if dir == "" {
		return nil
	}
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("working directory %s does not exist; create it or give another --cwd", dir)
	case err != nil:
		return fmt.Errorf("working directory %s: %w", dir, err)
	case !st.IsDir():
		return fmt.Errorf("working directory %s is not a directory; give a directory as --cwd", dir)
	}
	return nil
}

// nestingVars are dropped from a child's environment: they describe the
// terminal or agent session the client runs in, not the pane.
var nestingVars = []string{
	"CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "TMUX", "TMUX_PANE", "STY",
	"ZELLIJ", "ZELLIJ_SESSION_NAME", "ZELLIJ_PANE_ID", "CLOWDER_PANE_ID", PaneTokenEnv,
	"TERM", "COLORTERM", "COLUMNS", "LINES", "TERM_PROGRAM", "TERM_PROGRAM_VERSION",
}

// paneTermProgram is the pane's TERM_PROGRAM. Claude Code (2.1.x) turns on
// the kitty keyboard protocol and modifyOtherKeys (CSI < u, CSI > 1 u,
// CSI > 4;2 m) only when TERM_PROGRAM, TERM or TMUX names a terminal on its
// fixed list (iTerm.app, kitty, WezTerm, ghostty, tmux, windows-terminal,
// WarpTerminal); no query answer changes that. A pane's keys are encoded by
// clowder, which implements both, as tmux does, and tmux sets
// TERM_PROGRAM=tmux in its panes; the client's own TERM_PROGRAM describes
// the outer terminal, not the pane. TMUX stays unset: nothing may take the
// pane for a tmux server it can send commands to.
const paneTermProgram = "tmux"

// childEnv builds the child's environment from base.
func childEnv(base []string, paneID, token string) []string {
	out := make([]string, 0, len(base)+5)
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if !nesting(name) {
			out = append(out, kv)
		}
	}
	out = append(out, "TERM=xterm-256color", "COLORTERM=truecolor", "TERM_PROGRAM="+paneTermProgram, "CLOWDER_PANE_ID="+paneID)
	if token != "" {
		out = append(out, PaneTokenEnv+"="+token)
	}
	return out
}

func nesting(name string) bool {
	for _, v := range nestingVars {
		if name == v {
			return true
		}
	}
	return false
}

// leafName is a cgroup leaf name for paneID, unique in this process.
func (sp *Spawner) leafName(paneID string) string {
	return leafNameFor(paneID, os.Getpid(), sp.seq.Add(1))
}

// containment creates the run's cgroup leaf as the mode asks.
func (sp *Spawner) containment(paneID string) (*cgroupLeaf, Containment, error) {
	c := Containment{Kind: ContainProcessGroup, Subreaper: subreaper()}
	if sp.opts.CgroupMode == persist.CgroupOff {
		return nil, c, nil
	}
	leaf, err := sp.newLeaf(paneID)
	if err == nil {
		c.Kind, c.Cgroup = ContainCgroup, leaf.path
		return leaf, c, nil
	}
	if sp.opts.CgroupMode == persist.CgroupRequired {
		return nil, c, fmt.Errorf("cgroup mode is required but there is no writable cgroup2 (%w); use cgroup mode auto or off, or set a writable cgroup parent", err)
	}
	c.Fallback = "no writable cgroup2: " + err.Error()
	return nil, c, nil
}

// newLeaf makes the run's leaf with the cgroup facts kept from earlier
// spawns, and once more with facts read afresh should that fail where a
// leaf was made before (a cgroup2 mount moved, a parent removed).
func (sp *Spawner) newLeaf(paneID string) (*cgroupLeaf, error) {
	name := sp.leafName(paneID)
	worked := cgroupParentReady()
	leaf, err := sp.leafIn(name)
	if err != nil && worked {
		forgetCgroupFacts()
		leaf, err = sp.leafIn(name)
	}
	return leaf, err
}

// leafIn makes the leaf name under the parent.
func (sp *Spawner) leafIn(name string) (*cgroupLeaf, error) {
	parent, err := cgroupParentDir(sp.opts.CgroupParent)
	if err != nil {
		return nil, err
	}
	return newCgroupLeaf(parent, name)
}
