package main

import (
	"os"

	"github.com/spf13/cobra"

	"clowder/tui"
)

// newAttach is `clowder attach PANE`: the pane raw in this terminal, like
// dtach, until it exits (attach then says how) or Ctrl-\ detaches (the
// pane keeps running).
func newAttach(a *app) *cobra.Command {
	return &cobra.Command{
		Use:               "attach PANE",
		Short:             "show one pane raw in this terminal until it exits (Ctrl-\\ detaches; the pane keeps running)",
		Args:              exactArgs(1, "PANE"),
		ValidArgsFunction: completePanes(a),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := a.dial(cmd.Context())
			if err != nil {
				return err
			}
			defer c.Close()
			return tui.Attach(cmd.Context(), c, args[0], os.Stdin, os.Stdout)
		},
	}
}
