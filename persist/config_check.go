package persist

// This file validates a Config: values that decode but cannot work. Every
// error names the key as the user writes it in config.toml.

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

// Limits on [host] values: below the minimum ring a single screenful of a
// busy agent does not fit; above the maximums one pane could take the
// machine's memory.
const (
	minRingBytes       = 64 << 10
	maxRingBytes       = 1 << 30
	maxScrollbackLines = 1_000_000
	// MaxKeepExited leaves room in agents.json (MaxRegistryRecords) for
	// more live panes than a machine has PTYs.
	MaxKeepExited = 10_000
)

// Validate reports every invalid value in c, joined, each naming its key.
// LoadConfig calls it; callers that build a Config by hand may too.
func (c Config) Validate() error {
	errs := []error{c.checkHost(), c.checkTUI(), c.checkAgents(), c.checkKeys(), c.checkProfiles()}
	if c.Supervisor.Cgroup > CgroupRequired {
		errs = append(errs, fmt.Errorf("supervisor.cgroup: invalid mode %d", c.Supervisor.Cgroup))
	}
	if b := c.Worktrees.Base; b != "" && !filepath.IsAbs(b) {
		errs = append(errs, fmt.Errorf("worktrees.base %q must be an absolute path", b))
	}
	return errors.Join(errs...)
}

// checkHost validates [host].
func (c Config) checkHost() error {
	var errs []error
	if r := c.Host.RingBytes; r < minRingBytes || r > maxRingBytes {
		errs = append(errs, fmt.Errorf("host.ring_bytes %d is out of range [%d, %d]", r, minRingBytes, maxRingBytes))
	}
	if n := c.Host.ScrollbackLines; n < 0 || n > maxScrollbackLines {
		errs = append(errs, fmt.Errorf("host.scrollback_lines %d is out of range [0, %d]", n, maxScrollbackLines))
	}
	// At least one: a pane forgotten the moment it exits could not tell
	// `clowder exec` or `wait --exit` how it ended.
	if n := c.Host.KeepExited; n < 1 || n > MaxKeepExited {
		errs = append(errs, fmt.Errorf("host.keep_exited %d is out of range [1, %d]", n, MaxKeepExited))
	}
	return errors.Join(errs...)
}

// checkTUI validates [tui]. The prefix's key syntax is checked where key
// names are parsed (panes); here it must only be present.
func (c Config) checkTUI() error {
	var errs []error
	if c.TUI.Prefix == "" {
		errs = append(errs, errors.New("tui.prefix is empty; set a key such as \"C-Space\""))
	}
	switch c.TUI.Notify {
	case NotifyAll, NotifyTerminal, NotifyOff:
	default:
		errs = append(errs, fmt.Errorf("tui.notify %q: use \"all\", \"terminal\" or \"off\"", c.TUI.Notify))
	}
	if a := c.TUI.DefaultAdapter; a != "" {
		_, profile := c.Profiles[a]
		if _, ok := c.Agents[a]; !ok && !profile {
			errs = append(errs, fmt.Errorf("tui.default_adapter %q is not an adapter; define [agents.%s] or use one of %v", a, a, c.agentNames()))
		}
	}
	return errors.Join(errs...)
}

// checkAgents validates the [agents.NAME] tables.
func (c Config) checkAgents() error {
	var errs []error
	for _, name := range c.agentNames() {
		a := c.Agents[name]
		if len(a.Command) == 0 || a.Command[0] == "" {
			errs = append(errs, fmt.Errorf("agents.%s.command is empty; give the argv that starts it", name))
		}
		if len(a.Resume) > 0 && a.Resume[0] == "" {
			errs = append(errs, fmt.Errorf("agents.%s.resume starts with an empty program", name))
		}
		errs = append(errs, checkSubmitTimes("agents."+name, a.SubmitGap, a.FirstSubmitWait))
	}
	return errors.Join(errs...)
}

// checkKeys validates [keys]: every action needs at least one key, and
// each item is one key.
func (c Config) checkKeys() error {
	actions := make([]string, 0, len(c.Keys))
	for a := range c.Keys {
		actions = append(actions, a)
	}
	sort.Strings(actions)
	// Unknown actions first: a typo'd action (zoom2) that shares a key
	// with the one meant (zoom) is the typo, not a clash.
	if err := unknownActions(actions); err != nil {
		return err
	}
	var errs []error
	for _, action := range actions {
		if err := c.Keys[action].check(); err != nil {
			errs = append(errs, fmt.Errorf("keys.%s %w", action, err))
		}
	}
	return errors.Join(append(errs, c.keyClashes(actions))...)
}

// keyActions are the names [keys] takes: the TUI's actions, as
// tui.Action's String gives them (a tui test keeps the lists equal; persist
// may not import tui).
var keyActions = [...]string{
	"split-right", "split-down", "new-shell", "new-agent", "close", "kill", "respawn",
	"land", "discard", "rename", "send-keys", "focus-left", "focus-down", "focus-up", "focus-right",
	"focus-next", "focus-number", "next-attention", "resize-left", "resize-down",
	"resize-up", "resize-right", "zoom", "swap-next", "swap-prev", "next-preset",
	"copy-mode", "paste", "help", "detach", "kill-all",
}

// KeyActions returns the action names config.toml's [keys] takes, in the
// TUI's order.
func KeyActions() []string { return slices.Clone(keyActions[:]) }

// unknownActions refuses [keys] names that are no action.
func unknownActions(actions []string) error {
	var errs []error
	for _, a := range actions {
		if !slices.Contains(keyActions[:], a) {
			errs = append(errs, fmt.Errorf("keys.%s: unknown action; want one of %s", a, strings.Join(keyActions[:], ", ")))
		}
	}
	return errors.Join(errs...)
}

// keyClashes refuses a key given to two [keys] actions, or to an action
// and the prefix: the TUI would run only one of them, silently. Keys are
// compared as written; the TUI compares the whole keymap, defaults
// included, once the names are parsed (tui.NewKeyMap).
func (c Config) keyClashes(actions []string) error {
	owner := map[string]string{c.TUI.Prefix: "the prefix ([tui] prefix)"}
	var errs []error
	for _, action := range actions {
		for _, k := range c.Keys[action] {
			if other, ok := owner[k]; ok && other != action {
				errs = append(errs, fmt.Errorf("keys.%s: key %q is also %s; give one of them another key", action, k, other))
				continue
			}
			owner[k] = action
		}
	}
	return errors.Join(errs...)
}

// agentNames returns the adapter names, sorted, for stable messages.
func (c Config) agentNames() []string {
	names := make([]string, 0, len(c.Agents))
	for n := range c.Agents {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// The bounds of submit_gap and first_submit_wait: the host pauses a
// submission that long, so a typo ("10h") must not hang it.
const (
	maxSubmitGap       = 10 * time.Second
	maxFirstSubmitWait = 30 * time.Second
)

// checkSubmitTimes checks a table's submit_gap and first_submit_wait.
func checkSubmitTimes(table string, gap, first *Duration) error {
	var errs []error
	if gap != nil && (gap.Std() < 0 || gap.Std() > maxSubmitGap) {
		errs = append(errs, fmt.Errorf("%s.submit_gap %s is out of range [0s, %s]", table, gap.Std(), maxSubmitGap))
	}
	if first != nil && (first.Std() < 0 || first.Std() > maxFirstSubmitWait) {
		errs = append(errs, fmt.Errorf("%s.first_submit_wait %s is out of range [0s, %s]", table, first.Std(), maxFirstSubmitWait))
	}
	return errors.Join(errs...)
}
