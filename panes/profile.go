package panes

// This file turns config.toml's profiles (persist.ProfileConfig) into
// adapters, expands their {{templates}} for one pane, and says when an
// adapter's program is not installed. A profile is its base adapter with
// the profile's args after the command (and after the resume and continue
// commands, so a resumed agent keeps them), its env over the base's, and
// its submit gap if it sets one; attention rules and keys are the base's.
// Templates stay in the argv until the spawn, when the pane's name and
// worktree are known (Templates.Expand).

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"clowder/persist"
)

// NewAdaptersFromConfig is NewAdapters over cfg's [agents] tables, plus
// an adapter for each of cfg's profiles, named after the profile. A
// profile that persist.Config.Validate would reject (no such base, the
// name of an adapter) is left out.
func NewAdaptersFromConfig(cfg persist.Config, shell string) *Adapters {
	a := NewAdapters(cfg.Agents, shell)
	for name, p := range cfg.Profiles {
		base, ok := a.byName[p.Agent]
		if _, taken := a.byName[name]; !ok || taken {
			continue
		}
		a.byName[name] = profileAdapter(name, base, p)
	}
	return a
}

// profileAdapter lays profile p over its base adapter.
func profileAdapter(name string, base Adapter, p persist.ProfileConfig) Adapter {
	ad := base
	ad.Name = name
	ad.Command = withArgs(base.Command, p.Args)
	ad.Resume = withArgs(base.Resume, p.Args)
	ad.Continue = withArgs(base.Continue, p.Args)
	if len(base.Env)+len(p.Env) > 0 {
		ad.Env = maps.Clone(base.Env)
		if ad.Env == nil {
			ad.Env = map[string]string{}
		}
		maps.Copy(ad.Env, p.Env)
	}
	if p.SubmitGap != nil {
		ad.SubmitGap = p.SubmitGap.Std()
	}
	if p.FirstSubmitWait != nil {
		ad.FirstSubmitWait = p.FirstSubmitWait.Std()
	}
	return ad
}

// withArgs is argv followed by args, or nil for an empty argv (an adapter
// without that command has none with the profile either).
func withArgs(argv, args []string) []string {
	if len(argv) == 0 {
		return nil
	}
	return append(slices.Clone(argv), args...)
}

// Templates are the values of a profile's {{tokens}} for one pane
// (persist.ProfileTokens); "" means the pane has none.
type Templates struct {
	Name     string // the pane's name
	Worktree string // its worktree's path
	Branch   string // its worktree's branch
	Project  string // ProjectName
}

// Expand replaces the templates in argv. An unknown token, or one whose
// value the pane does not have, is an error that names it.
func (t Templates) Expand(argv []string) ([]string, error) {
	vars := map[string]string{"name": t.Name, "worktree": t.Worktree, "branch": t.Branch, "project": t.Project}
	out := make([]string, len(argv))
	for i, arg := range argv {
		tokens, err := persist.TemplateTokens(arg)
		if err != nil {
			return nil, fmt.Errorf("argument %q: %w", arg, err)
		}
		for _, tok := range tokens {
			if vars[tok] == "" {
				return nil, fmt.Errorf("argument %q: {{%s}} has no value: %s", arg, tok, missingHint(tok))
			}
		}
		out[i] = persist.ExpandTemplate(arg, vars)
	}
	return out, nil
}

// HasTemplates reports whether any word of argv holds a {{template}}, so
// that a spawn without any needs no Expand (nor ProjectName's git).
func HasTemplates(argv []string) bool {
	return slices.ContainsFunc(argv, func(s string) bool { return strings.Contains(s, "{{") })
}

// missingHint says how to give a pane the value of token.
func missingHint(token string) string {
	if token == "name" {
		return "give the pane a name (--name)"
	}
	return "start it in a worktree (--worktree)"
}

// ProjectName is the {{project}} of a pane: the directory name of wt's
// repository, else of the repository dir is in, else of dir.
func ProjectName(ctx context.Context, dir string, wt *persist.Worktree) string {
	if wt != nil {
		return filepath.Base(wt.Repo)
	}
	if repo, err := mainRepo(ctx, dir); err == nil {
		return filepath.Base(repo)
	}
	return filepath.Base(dir)
}

// CheckInstalled returns an error naming the command it looked for when
// the adapter's program is not on PATH (nil when it is, or when the
// adapter has no command of its own).
func CheckInstalled(ad Adapter) error {
	if len(ad.Command) == 0 {
		return nil
	}
	if _, ok := ad.Installed(); ok {
		return nil
	}
	return fmt.Errorf("adapter %s is not installed: looked for %q on $PATH; install it, or set its command in config.toml ([agents.NAME] command)",
		ad.Name, ad.Command[0])
}
