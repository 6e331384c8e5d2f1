package main

// clowder send-keys, paste and submit: input to a pane.

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

func newSendKeys(a *app) *cobra.Command {
	var literal bool
	c := &cobra.Command{
		Use:   "send-keys PANE [-l] KEY...",
		Short: "send keys by tmux name (Enter, Escape, Tab, C-c, M-x, Up, F1, or one character); -l sends text",
		Long: "Send keys to a pane. Each KEY is a tmux key name (Enter, Escape, Tab, BSpace, C-c,\n" +
			"M-x, S-Left, Up, PageDown, F1..F12) or a single character, encoded for the pane's\n" +
			"current modes; an unknown name is an error. With -l the KEYs are literal text, sent\n" +
			"as typed and joined without separators. Put -- before a KEY that starts with '-'.",
		Args:              usage(minArgs(2, "a PANE and at least one KEY"), paneOperand, keyOperands),
		ValidArgsFunction: completePanes(a),
		RunE: func(cmd *cobra.Command, args []string) error {
			req := proto.InputReq{Pane: args[0]}
			if literal {
				req.Data = []byte(strings.Join(args[1:], ""))
			} else {
				req.Keys = args[1:]
			}
			return a.withClient(cmd.Context(), false, func(c *client.Client) error {
				return c.Input(cmd.Context(), req)
			})
		},
	}
	c.Flags().BoolVarP(&literal, "literal", "l", false, "send every KEY as literal text, not key names")
	return c
}

func newPaste(a *app) *cobra.Command {
	var raw bool
	c := &cobra.Command{
		Use:   "paste PANE [TEXT | -] [--raw]",
		Short: "paste text (bracketed when the pane enabled mode 2004); - or no TEXT reads stdin",
		Long: "Paste TEXT into a pane, bracketed when the pane enabled bracketed paste (2004).\n" +
			"Control characters other than tab and newline are refused; --raw sends the text\n" +
			"as typed input instead (unbracketed, control characters allowed).",
		Args:              usage(rangeArgs(1, 2, "a PANE and an optional TEXT"), paneOperand),
		ValidArgsFunction: completePanes(a),
		RunE: func(cmd *cobra.Command, args []string) error {
			text, err := textArg(a, args[1:])
			if err != nil {
				return err
			}
			if err := checkPaste(text, raw); err != nil {
				return err
			}
			return a.withClient(cmd.Context(), false, func(c *client.Client) error {
				if raw {
					return c.Input(cmd.Context(), proto.InputReq{Pane: args[0], Data: []byte(text)})
				}
				return c.Paste(cmd.Context(), proto.PasteReq{Pane: args[0], Text: text})
			})
		},
	}
	c.Flags().BoolVar(&raw, "raw", false, "send the bytes as typed input: unbracketed, control characters allowed")
	return c
}

func newSubmit(a *app) *cobra.Command {
	var wait bool
	var timeout time.Duration
	c := &cobra.Command{
		Use:   "submit PANE TEXT [--wait [--timeout D]]",
		Short: "paste TEXT, then press Enter (- reads TEXT from stdin); --wait checks it was taken",
		Long: "Paste TEXT into a pane, then press Enter, with the pane's adapter's pause between the\n" +
			"two (submit_gap). The first submission to an agent waits until its prompt is ready\n" +
			"(Claude Code drops an Enter in its first seconds). With --wait, submit returns once\n" +
			"the program shows it took the text (a busy screen, or its prompt cleared) and exits\n" +
			"1 with a message when the text is still in its prompt or no sign came within\n" +
			"--timeout (default 30s).",
		Args:              usage(exactArgs(2, "a PANE and a TEXT"), paneOperand),
		ValidArgsFunction: completePanes(a),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := submitTimeout(cmd, wait, timeout); err != nil {
				return err // before stdin is read: nothing is lost
			}
			text, err := textArg(a, args[1:])
			if err != nil {
				return err
			}
			if err := checkPaste(text, false); err != nil {
				return err
			}
			req := proto.PasteReq{Pane: args[0], Text: text, Submit: true}
			if wait {
				req.WaitMS, _ = millis("timeout", timeout) // positive: never fails
			}
			return a.withClient(cmd.Context(), false, func(c *client.Client) error {
				return c.Paste(cmd.Context(), req)
			})
		},
	}
	c.Flags().BoolVar(&wait, "wait", false, "return once the program took the text; fail if it did not")
	c.Flags().DurationVar(&timeout, "timeout", 30*time.Second, "with --wait: how long to wait for a sign")
	return c
}

// submitTimeout refuses a --timeout that is not positive, given or (with
// --wait) taken by default. The line blames --wait only when it was given:
// `submit P T --timeout 0` alone used to say "--wait needs a positive
// timeout" of a flag the user never typed (a trial bug).
func submitTimeout(cmd *cobra.Command, wait bool, timeout time.Duration) error {
	switch {
	case timeout > 0 || !(wait || cmd.Flags().Changed("timeout")):
		return nil
	case wait:
		return usagef("--timeout %s: --wait needs a positive timeout, like 30s", timeout)
	}
	return usagef("--timeout %s: give a positive duration, like 30s (it bounds --wait)", timeout)
}

// textArg is the TEXT operand, or stdin when it is "-" or absent.
func textArg(a *app, rest []string) (string, error) {
	if len(rest) == 1 && rest[0] != "-" {
		return rest[0], nil
	}
	data, err := io.ReadAll(a.stdin)
	if err != nil {
		return "", fmt.Errorf("read the text from stdin: %w", err)
	}
	return string(data), nil
}
