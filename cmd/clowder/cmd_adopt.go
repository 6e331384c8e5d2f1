package main

// clowder adopt tmux: bring a pane that already runs in tmux in as a
// clowder pane.

import (
	"github.com/spf13/cobra"

	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

// newAdopt is `clowder adopt`, whose one subcommand is tmux.
func newAdopt(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:   "adopt",
		Short: "bring a pane that already runs elsewhere (tmux) in as a clowder pane",
	}
	c.AddCommand(newAdoptTmux(a))
	return c
}

// newAdoptTmux is `clowder adopt tmux [-L NAME | -S SOCKET] TARGET [--name N]`.
func newAdoptTmux(a *app) *cobra.Command {
	var label, socket, name string
	var asJSON bool
	c := &cobra.Command{
		Use:   "tmux [-L NAME | -S SOCKET] TARGET",
		Short: "adopt a tmux pane: its output, input and kill go through clowder",
		Long: "Adopt the tmux pane TARGET (%3, work:1.0, any tmux target) of the tmux server\n" +
			"tmux itself would choose: -L NAME, -S SOCKET, else $TMUX's server, else the\n" +
			"default. clowder records its identity (the server's pid and start time, the\n" +
			"session target, the pane id, the pane's process and its start time, its command)\n" +
			"and checks it again before every later action: any change refuses the action\n" +
			"(\"refusing identity-unverified handoff\") and nothing is sent. Its output flows\n" +
			"through tmux's pipe-pane, so capture, log, wait and attention work as for any pane;\n" +
			"input goes through send-keys and paste-buffer; kill ends its process tree. It\n" +
			"prints the new pane's id.",
		Args: usage(exactArgs(1, "TARGET"), nonEmpty("socket-name", "socket-path", "name"), nameFlag, adoptOperands),
		RunE: func(cmd *cobra.Command, args []string) error {
			sock, err := client.TmuxSocket(label, socket, a.getenv)
			if err != nil {
				return usageError{err}
			}
			if err := requestUsage(&proto.AdoptTmuxReq{Socket: sock, Target: args[0], Name: name}); err != nil {
				return err
			}
			return a.withClient(cmd.Context(), true, func(c *client.Client) error {
				r, err := c.AdoptTmux(cmd.Context(), proto.AdoptTmuxReq{Socket: sock, Target: args[0], Name: name})
				if err != nil {
					return err
				}
				return printPane(a, r.Pane, asJSON)
			})
		},
	}
	c.Flags().StringVarP(&label, "socket-name", "L", "", "the tmux server's socket name, as tmux -L")
	c.Flags().StringVarP(&socket, "socket-path", "S", "", "the tmux server's socket path, as tmux -S")
	c.Flags().StringVar(&name, "name", "", "the pane's name (default: its command's)")
	c.Flags().BoolVar(&asJSON, "json", false, "print the new pane as JSON")
	return c
}

// getenv is the value of key in the command's environment, "" if unset.
func (a *app) getenv(key string) string {
	v, _ := a.lookup(key)
	return v
}
