package main

// clowder respawn: start an exited, lost or orphaned pane again in place.

import (
	"fmt"

	"github.com/spf13/cobra"

	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

// newRespawn is `clowder respawn PANE`.
func newRespawn(a *app) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "respawn PANE",
		Short: "start an exited, lost or orphaned pane again, in place",
		Long: "Start a pane whose process is gone again under the same id and name, in the same\n" +
			"directory and worktree: an agent resumes its conversation (by its session id, else\n" +
			"the adapter's \"continue\"), a shell starts afresh, a command runs the same argv.\n" +
			"It runs with the environment it was started with; after a host restart, which\n" +
			"loses that, with this command's environment (and says so). An orphan whose\n" +
			"process still runs is refused: end it with clowder kill first.",
		Args:              usage(exactArgs(1, "PANE"), paneOperand),
		ValidArgsFunction: completePanes(a),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withClient(cmd.Context(), true, func(c *client.Client) error {
				r, err := c.Respawn(cmd.Context(), proto.RespawnReq{Pane: args[0], Env: a.environ()})
				if err != nil {
					return err
				}
				for _, n := range r.Notes {
					fmt.Fprintln(a.stderr, "clowder: note:", safe(n))
				}
				if asJSON {
					return writeJSON(a, r)
				}
				return printPane(a, r.Pane, false)
			})
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the pane and the notes as JSON")
	return c
}
