package main

// clowder host upgrade: exec a new clowder binary in the host's place, so
// every pane keeps running (supervisor/host/upgrade.go).

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"clowder/supervisor/proto"
)

func newHostUpgrade(a *app) *cobra.Command {
	var binary string
	c := &cobra.Command{
		Use:   "upgrade [--binary PATH]",
		Short: "replace the running host with a new clowder binary in place; every pane keeps running",
		Long: "The host hands its panes (processes, terminals, output, screens, timeouts) to the new\n" +
			"binary and execs it under the same pid. Clients connect again by themselves. A binary\n" +
			"that is missing, cannot run or reads another state format is refused, and the host\n" +
			"keeps running as it was.",
		Args: usage(exactArgs(0, "no arguments (the binary is --binary PATH)"), nonEmpty("binary")),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return upgradeHost(cmd.Context(), a, binary)
		},
	}
	c.Flags().StringVar(&binary, "binary", "", "the new clowder binary (default: this clowder's own binary)")
	return c
}

// upgradeHost asks the host to exec binary, then reports which build
// serves on a new connection.
func upgradeHost(ctx context.Context, a *app, binary string) error {
	path, err := upgradeBinary(a, binary)
	if err != nil {
		return err
	}
	p, err := a.paths()
	if err != nil {
		return err
	}
	c, err := a.dialSocket(ctx, p)
	if isNoHost(err) {
		return fmt.Errorf("no host is running; nothing to upgrade (the next client starts the new binary)")
	}
	if err != nil {
		return err
	}
	before, err := c.HostStatus(ctx)
	if err != nil {
		_ = c.Close() // best effort: the status error is the one to report
		return err
	}
	err = c.Upgrade(ctx, path)
	_ = c.Close() // best effort: the old image's connection is over either way
	var e *proto.ErrorReply
	if errors.As(err, &e) && e.Code == proto.CodeUnknownType {
		return fmt.Errorf("the running host (build %s) cannot upgrade in place; `clowder host stop` it when its panes may end, and the next client starts the new binary", safe(before.Build))
	}
	if err != nil {
		return err
	}
	return reportUpgrade(ctx, a, before.Pid, before.Build)
}

// upgradeBinary is --binary as an absolute path, or this binary.
func upgradeBinary(a *app, binary string) (string, error) {
	if binary == "" {
		exe, err := a.exe()
		if err != nil {
			return "", fmt.Errorf("find this clowder binary to upgrade to: %w; give --binary PATH", err)
		}
		binary = exe
	}
	path, err := filepath.Abs(binary)
	if err != nil {
		return "", fmt.Errorf("--binary %s: %w", clip(binary), err)
	}
	// A path the host would refuse (over 4096 bytes) is the command
	// line's fault: a usage error, before any host is asked.
	if err := (&proto.UpgradeReq{Binary: path}).Validate(); err != nil {
		return "", usagef("--binary %s: %v; give a shorter path to the binary", clip(binary), err)
	}
	return path, nil
}

// reportUpgrade connects to the new image and says what changed.
func reportUpgrade(ctx context.Context, a *app, pid int, build string) error {
	p, err := a.paths()
	if err != nil {
		return err
	}
	c, err := a.dialSocket(ctx, p)
	if err != nil {
		return fmt.Errorf("the host went away during the upgrade (see %s): %w", p.LogFile(), err)
	}
	defer func() { _ = c.Close() }() // best effort: read only
	info, err := c.HostStatus(ctx)
	if err != nil {
		return err
	}
	if info.Pid != pid {
		return fmt.Errorf("the host pid %d is gone and pid %d serves instead; see %s", pid, info.Pid, p.LogFile())
	}
	if strings.HasPrefix(info.Upgrade, "refused") {
		return fmt.Errorf("the new binary %s; every pane kept running", info.Upgrade)
	}
	_, err = fmt.Fprintf(a.stdout, "host upgraded in place (pid %d): build %s -> %s, %d panes kept\n", info.Pid, safe(build), safe(info.Build), info.Panes)
	return err
}
