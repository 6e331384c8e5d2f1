package main

import (
	"os"

	"github.com/spf13/cobra"

	"clowder/supervisor/client"
	"clowder/tui"
)

// newAttach is `clowder attach PANE`: the pane raw in this terminal, like
// dtach, until it exits (attach then says how) or Ctrl-\ detaches (the
// pane keeps running). It outlives a host crash or upgrade: it keeps the
// pane's terminal, connects again and hands it back.
func newAttach(a *app) *cobra.Command {
	return &cobra.Command{
		Use:               "attach PANE",
		Short:             "show one pane raw in this terminal until it exits (Ctrl-\\ detaches; the pane keeps running)",
		Args:              usage(exactArgs(1, "PANE"), paneOperand),
		ValidArgsFunction: completePanes(a),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := a.dial(cmd.Context())
			if err != nil {
				return err
			}
			// A lost connection is dialled again, starting a host if none
			// runs, and the pane's master handed back (tui/attach_escrow.go).
			r := client.NewRedialer(c, a.connect)
			defer r.Close()
			return tui.Attach(cmd.Context(), r, args[0], os.Stdin, os.Stdout)
		},
	}
}
