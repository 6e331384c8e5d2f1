package main

// This file wires `clowder` with no subcommand to the TUI: it connects to
// the host (starting one if none runs) and hands the TUI its config, paths
// and environment.

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"clowder/panes"
	"clowder/tui"
)

// runTUI returns the root command's RunE: the TUI in this terminal.
func runTUI(a *app) func(cmd *cobra.Command, args []string) error {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 {
			return usagef("unknown command %q; see clowder --help", args[0])
		}
		p, cfg, err := a.setup()
		if err != nil {
			return err
		}
		// The whole keymap (defaults and [keys]) is checked with the
		// config, before a host is started for a TUI that would refuse it.
		if _, err := tui.NewKeyMap(cfg.TUI.Prefix, cfg.Keys); err != nil {
			return fmt.Errorf("config %s: %w", p.ConfigFile, err)
		}
		if err := tui.NeedTerminal(); err != nil {
			return err
		}
		cwd, err := a.getwd()
		if err != nil {
			return fmt.Errorf("find the current directory: %w", err)
		}
		ctx := cmd.Context()
		if ctx == nil {
			ctx = context.Background()
		}
		c, err := a.connect(ctx)
		if err != nil {
			return err
		}
		shell, _ := a.lookup("SHELL")
		// A lost connection is dialled again, starting a host if none runs,
		// and the panes' masters handed back to it (tui/escrow.go).
		h := tui.NewReconnectingHost(c, a.connect)
		return tui.Run(ctx, tui.Options{Host: h, Config: cfg, Paths: p,
			Adapters: panes.NewAdaptersFromConfig(cfg, shell), Cwd: cwd, Env: a.environ()})
	}
}
