package main

// clowder ls and clowder capture: read-only views of panes.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

func newLs(a *app) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "ls [--json]",
		Short: "list panes: id name kind state attention pid pid_start exit cwd command",
		Args:  exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			list, err := listPanes(cmd.Context(), a)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(a, list)
			}
			return printTable(a, list)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print a JSON array of panes (docs/cli.md fields)")
	return c
}

// listPanes lists every pane; with no host running, the panes agents.json
// records, as last saved (cmd_recorded.go).
func listPanes(ctx context.Context, a *app) ([]proto.PaneInfo, error) {
	p, err := a.paths()
	if err != nil {
		return nil, err
	}
	// The list request goes with the hello (supervisor/client/start_early.go);
	// a host that goes away under the list: ask the next one
	// (supervisor/client/retry.go).
	c, list, err := client.DialList(ctx, p.SocketFile(), a.oneShot)
	if c != nil {
		defer func() { _ = c.Close() }() // best effort: read only
	}
	if isNoHost(err) { // none, or it went away under the list and none came back
		return a.recordedList(p)
	}
	if list == nil {
		list = []proto.PaneInfo{}
	}
	return list, err
}

// printTable prints panes as aligned columns, in one write: tabwriter
// writes cell by cell, which on an unbuffered stdout is a syscall each.
func printTable(a *app, list []proto.PaneInfo) error {
	var buf bytes.Buffer
	w := tabwriter.NewWriter(&buf, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tNAME\tKIND\tSTATE\tATTENTION\tPID\tPID_START\tEXIT\tCWD\tCOMMAND")
	for _, p := range list {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\n", safe(p.ID), dash(p.Name), safe(kindColumn(p)),
			safe(p.State), dash(p.Attention), p.Pid, p.PidStart, exitColumn(p), safe(p.Cwd), commandLine(p.Argv))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	_, err := a.stdout.Write(buf.Bytes())
	return err
}

// kindColumn is the pane's kind, "tmux" for a pane adopted from tmux
// (whose containment says "tmux %N on server PID").
func kindColumn(p proto.PaneInfo) string {
	if strings.HasPrefix(p.Containment, "tmux ") {
		return "tmux"
	}
	return p.Kind
}

// safe escapes untrusted text (a pane's cwd, argv, name, title, a path)
// for a human's terminal: every human-readable line goes through it, so no
// control character or escape sequence reaches the screen raw. JSON output
// is escaped by JSON instead.
func safe(s string) string { return client.EscapeControls(s) }

// exitColumn is "-" while running, else the code, signal or reason.
func exitColumn(p proto.PaneInfo) string {
	switch p.ExitReason {
	case "":
		return "-"
	case "completed", "failed":
		return strconv.Itoa(p.ExitCode)
	case "signalled":
		return safe(p.ExitSignal)
	}
	return safe(p.ExitReason)
}

// commandLine joins argv for display, quoting words with spaces or
// controls; the result is safe for a terminal.
func commandLine(argv []string) string {
	words := make([]string, len(argv))
	for i, w := range argv {
		if w == "" || strings.ContainsAny(w, " \t\n'\"\\$") || safe(w) != w {
			w = strconv.Quote(w)
		}
		words[i] = w
	}
	return safe(strings.Join(words, " "))
}

// dash shows an empty field as "-", and escapes it for a terminal.
func dash(s string) string {
	if s == "" {
		return "-"
	}
	return safe(s)
}

func newCapture(a *app) *cobra.Command {
	var req proto.CaptureReq
	c := &cobra.Command{
		Use:               "capture PANE [--ansi] [--scrollback N]",
		Short:             "print the pane's screen as it shows it",
		Args:              usage(exactArgs(1, "one PANE"), paneOperand),
		ValidArgsFunction: completePanes(a),
		RunE: func(cmd *cobra.Command, args []string) error {
			if req.Scrollback < 0 {
				return usagef("--scrollback %d: give a number of lines, 0 or more", req.Scrollback)
			}
			req.Pane = args[0]
			return capturePane(cmd.Context(), a, req)
		},
	}
	c.Flags().BoolVar(&req.ANSI, "ansi", false, "keep colours and styles as SGR escapes")
	c.Flags().IntVar(&req.Scrollback, "scrollback", 0, "also print up to N lines of scrollback above the screen")
	return c
}

// capturePane prints a pane's capture, the request going with the hello
// (supervisor/client/start_early.go).
func capturePane(ctx context.Context, a *app, req proto.CaptureReq) error {
	p, err := a.paths()
	if err != nil {
		return err
	}
	c, r, err := client.DialCapture(ctx, p.SocketFile(), req, a.oneShot)
	if c != nil {
		defer func() { _ = c.Close() }() // best effort: read only
	}
	if isNoHost(err) { // none, or it went away under the capture and none came back
		return noHostError(p) // cmd_recorded.go
	}
	if err != nil {
		return err
	}
	// Written as is: fmt.Fprint copied the text into a buffer of its own
	// first (10,000 lines of scrollback: 470 KB more, about 120 page
	// faults).
	_, err = io.WriteString(a.stdout, r.Text)
	return err
}
