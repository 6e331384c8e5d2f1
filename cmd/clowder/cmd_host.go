package main

// clowder host: start, inspect and stop the host process.

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"clowder/persist"
	"clowder/supervisor"
	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

func newHost(a *app) *cobra.Command {
	var foreground, stateFormat bool
	c := &cobra.Command{
		Use:   "host [--foreground] | host status | host stop [--force] | host upgrade [--binary PATH]",
		Short: "run the host (started on demand by every client), show its status or stop it",
		Long: "Without a subcommand, start the host in the background if none runs and print its\n" +
			"pid. With --foreground, be the host: serve until SIGINT/SIGTERM, host stop, or (when\n" +
			"started on demand) a while with no panes and no clients. Its log goes to stderr.",
		Args: exactArgs(0, "no arguments (or the subcommand status, stop or upgrade)"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if stateFormat {
				return printStateFormat(a)
			}
			if foreground {
				return runHost(cmd.Context(), a)
			}
			return startHost(cmd.Context(), a)
		},
	}
	c.Flags().BoolVar(&foreground, "foreground", false, "serve in this process instead of starting a background host")
	c.Flags().BoolVar(&stateFormat, "state-format", false, "print the upgrade state format this binary reads, and exit (host upgrade checks it)")
	_ = c.Flags().MarkHidden("state-format") // for host upgrade, not for people
	c.AddCommand(newHostStatus(a), newHostStop(a), newHostUpgrade(a))
	return c
}

// startHost makes sure a host runs and says which.
func startHost(ctx context.Context, a *app) error {
	p, err := a.paths()
	if err != nil {
		return err
	}
	verb := "already running"
	c, err := a.dialSocket(ctx, p)
	if isNoHost(err) {
		verb = "started"
		c, err = a.connect(ctx)
	}
	if err != nil {
		return err
	}
	defer func() { _ = c.Close() }() // best effort: read only
	info, err := c.HostStatus(ctx)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(a.stdout, "host %s (pid %d, socket %s)\n", verb, info.Pid, safe(info.Socket))
	return err
}

func newHostStatus(a *app) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "status [--json]",
		Short: "show the running host: pid, build, protocol, uptime, panes, clients",
		Args:  exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withClient(cmd.Context(), false, func(c *client.Client) error {
				info, err := c.HostStatus(cmd.Context())
				if err != nil {
					return err
				}
				if asJSON {
					return writeJSON(a, info)
				}
				return printHostInfo(a, info)
			})
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the status as JSON")
	return c
}

// printHostInfo prints the status as "key: value" lines.
func printHostInfo(a *app, info proto.HostInfoReply) error {
	started := time.UnixMilli(info.StartedMS)
	lines := [][2]string{
		{"pid", fmt.Sprint(info.Pid)},
		{"build", info.Build},
		{"protocol", info.Protocol.String()},
		{"started", fmt.Sprintf("%s (up %s)", started.Format(time.RFC3339), time.Since(started).Round(time.Second))},
		{"panes", fmt.Sprint(info.Panes)},
		{"clients", fmt.Sprint(info.Clients)},
		{"socket", info.Socket},
		{"containment", info.Containment},
		{"registry", info.Registry},
		{"orphans", strings.Join(info.Orphans, "; ")},           // panes a dead host left, with their live pids
		{"stale cgroups", strings.Join(info.StaleCgroups, " ")}, // a dead host's leaves still holding processes of no pane
		{"escrow", escrowLine(info.Escrow)},
		{"upgraded", info.Upgrade}, // the last upgrade in place: from which build, or why it was refused
	}
	for _, l := range lines {
		if l[1] == "" {
			continue
		}
		if _, err := fmt.Fprintf(a.stdout, "%-12s %s\n", l[0]+":", safe(l[1])); err != nil {
			return err
		}
	}
	return nil
}

// escrowLine lists which client holds a copy of which pane's terminal
// ("p1 by clowder (pid 4242), p2 by clowder (pid 4242)"), "" for none.
func escrowLine(holders []proto.EscrowHolder) string {
	parts := make([]string, len(holders))
	for i, e := range holders {
		parts[i] = e.String()
	}
	return strings.Join(parts, ", ")
}

func newHostStop(a *app) *cobra.Command {
	var force bool
	c := &cobra.Command{
		Use:   "stop [--force]",
		Short: "stop the host and wait until it is gone; refuses while panes run unless --force kills them",
		Args:  exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return stopHost(cmd.Context(), a, force)
		},
	}
	c.Flags().BoolVar(&force, "force", false, "kill every pane's process tree first")
	return c
}

// stopHost stops the host and waits for its process to end. No host
// running is success: the goal state already holds.
func stopHost(ctx context.Context, a *app, force bool) error {
	p, err := a.paths()
	if err != nil {
		return err
	}
	c, err := a.dialSocket(ctx, p)
	if isNoHost(err) {
		return awaitStopping(ctx, a, p)
	}
	if err != nil {
		return err
	}
	defer func() { _ = c.Close() }() // best effort: the host is going away
	info, err := c.HostStatus(ctx)
	if isNoHost(err) { // it stopped meanwhile (client.ErrHostStopped)
		return awaitStopping(ctx, a, p)
	}
	if err != nil {
		return err
	}
	id, idErr := supervisor.ReadIdentity(info.Pid)
	if err := c.HostStop(ctx, force); isNoHost(err) {
		return awaitStopping(ctx, a, p)
	} else if err != nil {
		return err
	}
	if idErr != nil {
		return nil // not a process we can see (another pid namespace): trust the reply
	}
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return supervisor.WaitGone(wctx, id)
}

// awaitStopping is stopHost where no host answers: a host that still
// holds the lock is stopping (it removed its socket first, and answers
// no one), and the stop is done when it lets go of the lock.
func awaitStopping(ctx context.Context, a *app, p persist.Paths) error {
	h, held := persist.LockHolder(p.LockFile())
	if !held {
		fmt.Fprintln(a.stderr, "clowder: no host is running")
		return nil
	}
	fmt.Fprintf(a.stderr, "clowder: the host%s is stopping; waiting for it to exit\n", h.PIDNote())
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for delay := 5 * time.Millisecond; ; delay = min(2*delay, 100*time.Millisecond) {
		if _, held := persist.LockHolder(p.LockFile()); !held {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the host%s still holds %s after 30s of stopping; its log is %s", h.PIDNote(), p.LockFile(), p.LogFile())
		case <-time.After(delay):
		}
	}
}
