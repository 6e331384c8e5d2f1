package main

// Shell completion of PANE arguments: ids and names from a running host.
// Completion never starts a host and gives up quickly. `--agent` completes
// the agent adapters and profiles of config.toml, without a host.

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"clowder/panes"
	"clowder/persist"
	"clowder/supervisor/proto"
)

// completeAgents completes --agent with the agent adapters and profiles,
// each described by its command.
func completeAgents(a *app) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		_, cfg, err := a.setup()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		shell, _ := a.lookup("SHELL")
		return agentWords(panes.NewAdaptersFromConfig(cfg, shell)), cobra.ShellCompDirectiveNoFileComp
	}
}

// agentWords are the completions for --agent: every agent adapter or
// profile, described by its command.
func agentWords(ads *panes.Adapters) []string {
	var out []string
	for _, name := range ads.Names() {
		if ad, err := ads.Get(name); err == nil && ad.Kind == persist.KindAgent {
			out = append(out, name+"\t"+commandLine(ad.Command))
		}
	}
	return out
}

// completePanes completes the first argument with pane ids and names.
func completePanes(a *app) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(cmd *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		defer cancel()
		p, err := a.paths()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		c, err := a.dialSocket(ctx, p)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		defer func() { _ = c.Close() }() // best effort: read only
		list, err := c.List(ctx)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return paneWords(list), cobra.ShellCompDirectiveNoFileComp
	}
}

// paneWords are the completions for panes: each id (described by its
// name and command), then each name.
func paneWords(list []proto.PaneInfo) []string {
	var out []string
	for _, p := range list {
		out = append(out, safe(p.ID)+"\t"+dash(p.Name)+" "+safe(p.State)+" "+commandLine(p.Argv))
	}
	for _, p := range list {
		if p.Name != "" {
			out = append(out, safe(p.Name)+"\t"+safe(p.ID))
		}
	}
	return out
}
