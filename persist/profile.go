package persist

// This file is config.toml's [profiles.NAME] tables: a named variant of
// an agent adapter, with extra arguments (which may hold templates), extra
// environment, its own submit gap and restart policy. `clowder new --agent
// NAME` and the TUI's new-agent prompt take a profile name wherever they
// take an adapter's. Here they are only shaped and checked; panes turns
// them into adapters and expands the templates at spawn time.

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// ProfileConfig is one [profiles.NAME] table.
type ProfileConfig struct {
	// Agent is the base adapter: an [agents] name (claude, codex, ...).
	Agent string `toml:"agent"`
	// Args are appended to the base adapter's command (and to its resume
	// and continue commands). They may hold the ProfileTokens, written
	// {{name}}; an unknown token is an error.
	Args []string `toml:"args"`
	// Env is added over the base adapter's environment. Only the keys are
	// ever written to agents.json.
	Env map[string]string `toml:"env"`
	// SubmitGap is the pause between a submission's paste and its Enter;
	// nil keeps the base adapter's.
	SubmitGap *Duration `toml:"submit_gap"`
	// FirstSubmitWait is as [agents.NAME] first_submit_wait; nil keeps the
	// base adapter's.
	FirstSubmitWait *Duration `toml:"first_submit_wait"`
	// OnRestart is what a starting host does with the agent after a
	// reboot, as [agents.NAME] on_restart; nil keeps the base adapter's.
	OnRestart *OnRestart `toml:"on_restart"`
}

// OnRestartOf is the restart policy of the named adapter or profile: a
// profile's own, else its base adapter's, else OnRestartResume.
func (c Config) OnRestartOf(adapter string) OnRestart {
	if p, ok := c.Profiles[adapter]; ok {
		if p.OnRestart != nil {
			return *p.OnRestart
		}
		adapter = p.Agent
	}
	return c.Agents[adapter].OnRestart
}

// ProfileTokens are the templates a profile's args may hold, without
// their braces: the pane's name, its worktree's path and branch, and the
// project (the repository's directory name, else the working directory's).
var ProfileTokens = []string{"name", "worktree", "branch", "project"}

// templateRE matches one {{token}} (spaces inside the braces allowed).
var templateRE = regexp.MustCompile(`\{\{\s*([^{}]*?)\s*\}\}`)

// TemplateTokens returns the tokens of s's {{...}} templates, in order,
// and an error naming the first unknown one.
func TemplateTokens(s string) ([]string, error) {
	var out []string
	for _, m := range templateRE.FindAllStringSubmatch(s, -1) {
		if !knownToken(m[1]) {
			return out, fmt.Errorf("unknown template %s; use %s", m[0], tokenList())
		}
		out = append(out, m[1])
	}
	return out, nil
}

// ExpandTemplate replaces s's {{token}} templates with vars[token].
func ExpandTemplate(s string, vars map[string]string) string {
	return templateRE.ReplaceAllStringFunc(s, func(m string) string {
		return vars[templateRE.FindStringSubmatch(m)[1]]
	})
}

func knownToken(t string) bool {
	for _, k := range ProfileTokens {
		if k == t {
			return true
		}
	}
	return false
}

// tokenList is "{{name}}, {{worktree}}, {{branch}} or {{project}}".
func tokenList() string {
	words := make([]string, len(ProfileTokens))
	for i, t := range ProfileTokens {
		words[i] = "{{" + t + "}}"
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// profileNameRE is what a profile name may be: it is a pane's adapter name
// on the wire, so the rule is a pane name's.
var profileNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// checkProfiles validates the [profiles.NAME] tables.
func (c Config) checkProfiles() error {
	names := make([]string, 0, len(c.Profiles))
	for n := range c.Profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	var errs []error
	for _, name := range names {
		errs = append(errs, c.checkProfile(name, c.Profiles[name]))
	}
	return errors.Join(errs...)
}

// checkProfile validates one profile.
func (c Config) checkProfile(name string, p ProfileConfig) error {
	var errs []error
	if !profileNameRE.MatchString(name) {
		errs = append(errs, fmt.Errorf("profiles.%s: use only letters, digits, '-', '_' and '.' in a profile name", name))
	}
	if _, ok := c.Agents[name]; ok {
		errs = append(errs, fmt.Errorf("profiles.%s has the name of an adapter ([agents.%s]); rename the profile", name, name))
	}
	if _, ok := c.Agents[p.Agent]; !ok {
		errs = append(errs, fmt.Errorf("profiles.%s.agent %q is not an adapter; use one of %v", name, p.Agent, c.agentNames()))
	}
	errs = append(errs, checkSubmitTimes("profiles."+name, p.SubmitGap, p.FirstSubmitWait))
	for i, a := range p.Args {
		if _, err := TemplateTokens(a); err != nil {
			errs = append(errs, fmt.Errorf("profiles.%s.args[%d] %q: %w", name, i, a, err))
		}
	}
	return errors.Join(errs...)
}
