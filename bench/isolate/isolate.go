// Package isolate gives every clowder a benchmark starts a world of its
// own: none of the user's CLOWDER_* or XDG_* variables, and clowder's
// paths and the XDG base dirs under the benchmark's temporary directory.
// Without it a user's config.toml started their real agent inside a
// benchmark, and a user's host could have been measured or killed.
package isolate

import (
	"os"
	"strings"
)

// Env is base without CLOWDER_* and XDG_* variables, plus clowder's
// runtime dir, state dir and config file, and the XDG dirs, under dir.
// extra follows, so it may override anything (SHELL, PS1, ...).
func Env(base []string, dir string, extra ...string) []string {
	out := make([]string, 0, len(base)+len(extra)+8)
	for _, kv := range base {
		if !strings.HasPrefix(kv, "CLOWDER_") && !strings.HasPrefix(kv, "XDG_") {
			out = append(out, kv)
		}
	}
	out = append(out, "CLOWDER_RUNTIME_DIR="+dir+"/run", "CLOWDER_STATE_DIR="+dir+"/state",
		"CLOWDER_CONFIG="+dir+"/config.toml", "XDG_RUNTIME_DIR="+dir+"/xdg/run",
		"XDG_STATE_HOME="+dir+"/xdg/state", "XDG_CONFIG_HOME="+dir+"/xdg/config",
		"XDG_DATA_HOME="+dir+"/xdg/data", "XDG_CACHE_HOME="+dir+"/xdg/cache")
	return append(out, extra...)
}

// Lookup is the value of key in env as a process given env would see it
// (the last assignment wins), and whether it is set.
func Lookup(env []string, key string) (string, bool) {
	v, ok := "", false
	for _, kv := range env {
		if k, val, _ := strings.Cut(kv, "="); k == key {
			v, ok = val, true
		}
	}
	return v, ok
}

// WithoutTMUX is env without TMUX and TMUX_PANE, so that a tmux started
// with it does not refuse to nest inside the tmux the bench may run in.
func WithoutTMUX(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if !strings.HasPrefix(kv, "TMUX=") && !strings.HasPrefix(kv, "TMUX_PANE=") {
			out = append(out, kv)
		}
	}
	return out
}

// TmuxEnv is the environment for a private tmux server: without TMUX, and
// with TMUX_TMPDIR a new directory, so that its socket (which tmux leaves
// behind after kill-server) goes when done removes the directory.
func TmuxEnv() (env []string, done func(), err error) {
	dir, err := os.MkdirTemp("", "clwtmux")
	if err != nil {
		return nil, nil, err
	}
	return append(WithoutTMUX(os.Environ()), "TMUX_TMPDIR="+dir), func() { _ = os.RemoveAll(dir) }, nil
}
