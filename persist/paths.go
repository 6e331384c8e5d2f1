package persist

// This file resolves where clowder keeps its files (docs/state.md). It reads
// the environment only through the lookup function it is given, and creates
// nothing except in EnsureRuntimeDir and EnsureStateDir.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// Environment variables that override the default locations. Every test
// isolates itself with them.
const (
	EnvRuntimeDir = "CLOWDER_RUNTIME_DIR"
	EnvStateDir   = "CLOWDER_STATE_DIR"
	EnvConfig     = "CLOWDER_CONFIG"
)

// File names inside the runtime and state directories. They are named here
// once so that host, TUI and CLI agree on them.
const (
	AgentsFileName = "agents.json"
	LayoutFileName = "layout.json"
	SocketFileName = "host.sock"
	LockFileName   = "host.lock"
	LogFileName    = "host.log"
)

// LookupEnv has the signature of os.LookupEnv. Paths are resolved through
// one so that tests never touch the real environment.
type LookupEnv func(key string) (string, bool)

// Paths are the resolved locations of clowder's files. The zero value is not
// useful; build one with ResolvePaths.
type Paths struct {
	// RuntimeDir holds the socket, the host lock and the host log.
	RuntimeDir string
	// StateDir holds agents.json and layout.json.
	StateDir string
	// ConfigFile is the config.toml to read (it need not exist).
	ConfigFile string
	// Worktrees is the default base for agent worktrees; the config key
	// worktrees.base overrides it (see Config.WorktreesBase). Empty when
	// neither XDG_DATA_HOME nor HOME is set.
	Worktrees string
}

// ResolvePaths computes Paths from the environment seen through lookup
// (pass os.LookupEnv in production). Overrides given as relative paths are
// made absolute against the current directory; XDG variables that are not
// absolute are ignored, as the XDG base directory spec requires.
func ResolvePaths(lookup LookupEnv) (Paths, error) {
	r := resolver{lookup: lookup}
	p := Paths{
		RuntimeDir: r.pick(EnvRuntimeDir, "XDG_RUNTIME_DIR", "", "clowder"),
		StateDir:   r.pick(EnvStateDir, "XDG_STATE_HOME", ".local/state", "clowder"),
		ConfigFile: r.pick(EnvConfig, "XDG_CONFIG_HOME", ".config", "clowder/config.toml"),
	}
	// The worktrees default may stay empty (no XDG_DATA_HOME and no HOME):
	// config worktrees.base can still supply it, so that is not an error here.
	w := resolver{lookup: lookup}
	p.Worktrees = w.pick("", "XDG_DATA_HOME", ".local/share", "clowder/worktrees")
	if p.RuntimeDir == "" {
		// Literally /tmp, not os.TempDir: docs/state.md names this path, and
		// TMPDIR differs between a user's terminals more often than /tmp does.
		p.RuntimeDir = "/tmp/clowder-" + strconv.Itoa(os.Getuid())
	}
	if r.err != nil {
		return Paths{}, fmt.Errorf("resolve clowder paths: %w", r.err)
	}
	return p, nil
}

// resolver applies the override → XDG → home fallback chain and keeps the
// first error, so ResolvePaths reads as a table.
type resolver struct {
	lookup LookupEnv
	err    error
}

// pick returns the override if set, else $xdg/suffix, else
// $HOME/homeRel/suffix. An empty homeRel means "no home fallback" and
// yields "" when neither variable is set.
func (r *resolver) pick(override, xdg, homeRel, suffix string) string {
	if v, ok := r.env(override); ok {
		abs, err := filepath.Abs(v)
		if err != nil {
			r.fail(fmt.Errorf("%s=%q: %w", override, v, err))
		}
		return abs
	}
	if v, ok := r.env(xdg); ok && filepath.IsAbs(v) {
		return filepath.Join(v, suffix)
	}
	if homeRel == "" {
		return ""
	}
	home, ok := r.env("HOME")
	if !ok || !filepath.IsAbs(home) {
		hint := ""
		if override != "" {
			hint = " or " + override
		}
		r.fail(fmt.Errorf("cannot place %s: neither %s nor HOME is an absolute path; set one of them%s", suffix, xdg, hint))
		return ""
	}
	return filepath.Join(home, homeRel, suffix)
}

// env reports a variable's value when the name is not empty and the value
// is set and not empty.
func (r *resolver) env(name string) (string, bool) {
	if name == "" {
		return "", false
	}
	v, ok := r.lookup(name)
	return v, ok && v != ""
}

// fail records the first error.
func (r *resolver) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// AgentsFile is the path of agents.json.
func (p Paths) AgentsFile() string { return filepath.Join(p.StateDir, AgentsFileName) }

// LayoutFile is the path of layout.json.
func (p Paths) LayoutFile() string { return filepath.Join(p.StateDir, LayoutFileName) }

// SocketFile is the path of the host's unix socket.
func (p Paths) SocketFile() string { return filepath.Join(p.RuntimeDir, SocketFileName) }

// LockFile is the path of the host's single-instance lock.
func (p Paths) LockFile() string { return filepath.Join(p.RuntimeDir, LockFileName) }

// StateLockFile is the lock a host holds on its state dir, so that two
// hosts of different runtime dirs never share one agents.json.
func (p Paths) StateLockFile() string { return filepath.Join(p.StateDir, LockFileName) }

// LogFile is the path of the host's log (its stdout and stderr).
func (p Paths) LogFile() string { return filepath.Join(p.RuntimeDir, LogFileName) }

// EnsureRuntimeDir creates the runtime directory with mode 0700 if it is
// missing, and refuses one that is not a real directory, is owned by another
// user, or grants any group or other permission: the socket inside it is
// the only gate in front of every agent.
func (p Paths) EnsureRuntimeDir() error {
	return ensurePrivateDir(p.RuntimeDir, os.Getuid())
}

// EnsureStateDir creates the state directory (and its parents) with mode
// 0700 if it is missing, and refuses one that is owned by another user or
// writable by group or others (*RefusedError): whoever can replace
// agents.json there chooses what the host runs to resume agents.
func (p Paths) EnsureStateDir() error {
	if err := os.MkdirAll(p.StateDir, 0o700); err != nil {
		return fmt.Errorf("create state dir %s: %w", p.StateDir, err)
	}
	return checkStateDir(p.StateDir, os.Getuid())
}

// ensurePrivateDir is EnsureRuntimeDir with the expected owner injected, so
// the "owned by someone else" case is testable without a second account.
func ensurePrivateDir(dir string, uid int) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return fmt.Errorf("create runtime dir %s: %w", dir, err)
	}
	err := os.Mkdir(dir, 0o700)
	if err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("create runtime dir %s: %w", dir, err)
	}
	return checkPrivateDir(dir, uid)
}

// checkPrivateDir verifies that dir is a directory (not a symlink to one),
// owned by uid, with no group or other permission bits.
func checkPrivateDir(dir string, uid int) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("check runtime dir %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("runtime dir %s is not a directory (%s); remove it or set %s", dir, DescribeType(fi.Mode()), EnvRuntimeDir)
	}
	if owner, ok := fileOwner(fi); ok && owner != uid {
		return fmt.Errorf("runtime dir %s is owned by uid %d, not by you (uid %d); remove it or set %s", dir, owner, uid, EnvRuntimeDir)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("runtime dir %s has mode %#o, which lets other users in; run chmod 700 %s", dir, perm, dir)
	}
	return nil
}

// DescribeType names a file type for an error line ("a fifo"), rather
// than a mode string such as "L---------".
func DescribeType(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symlink, which another user could point elsewhere"
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a fifo"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	default:
		return "type " + m.Type().String()
	}
}
