package main

// Usage checks made before anything is done or any host is asked. A value
// the host would refuse as a bad request is the command line's fault, so
// it is a usage error (exit 2, docs/cli.md) whose one line names the
// operand or flag, the value (clipped, so that a 10 KB value stays one
// short line) and what to do.

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"clowder/panes"
	"clowder/supervisor/proto"
)

// maxShown is how many bytes of a bad value an error line quotes.
const maxShown = 40

// clip quotes s for an error line: whole when short, else its first
// maxShown bytes, an ellipsis and its length.
func clip(s string) string {
	if len(s) <= maxShown {
		return safe(strconv.Quote(s))
	}
	return fmt.Sprintf("%s… (%d bytes)", safe(strconv.Quote(head(s))), len(s))
}

// cut is s for an error line unquoted (a command to copy): whole when
// short, else its first maxShown bytes and an ellipsis.
func cut(s string) string {
	if len(s) <= maxShown {
		return safe(s)
	}
	return safe(head(s)) + "…"
}

// head is the first maxShown bytes of s, never splitting a character.
func head(s string) string {
	h := s[:maxShown]
	for !utf8.ValidString(h) {
		h = h[:len(h)-1]
	}
	return h
}

// check is one usage check of a command's operands and flags.
type check func(cmd *cobra.Command, args []string) error

// usage runs args (the operand count), then each check, as a command's
// Args: cobra calls it after parsing the flags and before RunE.
func usage(args cobra.PositionalArgs, checks ...check) cobra.PositionalArgs {
	return func(cmd *cobra.Command, operands []string) error {
		if err := args(cmd, operands); err != nil {
			return err
		}
		for _, c := range checks {
			if err := c(cmd, operands); err != nil {
				return err
			}
		}
		return nil
	}
}

// paneOperand checks the first operand, a PANE, as the host checks a
// pane reference.
func paneOperand(_ *cobra.Command, args []string) error {
	if (&proto.RemoveReq{Pane: args[0]}).Validate() != nil {
		return usagef("PANE %s: give a pane id or name from clowder ls (at most %d printable bytes)", clip(args[0]), proto.MaxPaneRefLen)
	}
	return nil
}

// nonEmpty refuses each named string flag given as "": a script's
// `--name "$NAME"` with NAME unset is a mistake, not a request for the
// default.
func nonEmpty(names ...string) check {
	return func(cmd *cobra.Command, _ []string) error {
		for _, n := range names {
			if f := cmd.Flags().Lookup(n); f != nil && f.Changed && f.Value.String() == "" {
				return usagef("--%s is empty; give a value, or leave the flag out for its default", n)
			}
		}
		return nil
	}
}

// checkName checks a pane name given as what (--name, NAME).
func checkName(what, name string) error {
	if len(name) > panes.MaxNameLen {
		return usagef("%s %s is too long: at most %d bytes; give a shorter name", what, clip(name), panes.MaxNameLen)
	}
	if err := panes.ValidateName(name); err != nil {
		return usagef("%s: %v", what, err)
	}
	return nil
}

// nameFlag checks --name when it is given.
func nameFlag(cmd *cobra.Command, _ []string) error {
	if f := cmd.Flags().Lookup("name"); f != nil && f.Changed {
		return checkName("--name", f.Value.String())
	}
	return nil
}

// commandOperand refuses an empty program name (`-- ""`).
func commandOperand(_ *cobra.Command, args []string) error {
	if len(args) > 0 && args[0] == "" {
		return usagef("the command after -- is empty; give the program to run")
	}
	return nil
}

// requestUsage turns the host's own check of req, run here first, into
// a usage error: the same line the host would send, exit 2.
func requestUsage(req proto.Validator) error {
	err := req.Validate()
	var e *proto.ErrorReply
	if errors.As(err, &e) && e.Code == proto.CodeBadRequest {
		return usageError{errors.New(e.Message)}
	}
	return err
}

// nameOperand checks the second operand, a new pane NAME (rename).
func nameOperand(_ *cobra.Command, args []string) error { return checkName("NAME", args[1]) }

// keyOperands checks the KEY operands of send-keys as key names, unless
// -l makes them text.
func keyOperands(cmd *cobra.Command, args []string) error {
	if f := cmd.Flags().Lookup("literal"); f != nil && f.Value.String() == "true" {
		return nil
	}
	for _, k := range args[1:] {
		if _, err := panes.ParseKey(k); err != nil {
			return usagef("KEY %s is not a key name; give one such as Enter, C-c, Up or F1, or send text with -l", clip(k))
		}
	}
	return nil
}

// signalFlag checks --signal as the host would.
func signalFlag(cmd *cobra.Command, _ []string) error {
	f := cmd.Flags().Lookup("signal")
	if f == nil || !f.Changed {
		return nil
	}
	if _, err := proto.ParseSignal(f.Value.String()); err != nil {
		return usagef("--signal %s is not a signal; give a name such as TERM, INT or KILL, or a number from 1 to 64", clip(f.Value.String()))
	}
	return nil
}

// maxSizeLen is more than any valid COLSxROWS takes.
const maxSizeLen = 16

// spawnFlags checks the values of new's --agent and --size that would
// otherwise be echoed whole, however long, by the checks that follow.
func spawnFlags(cmd *cobra.Command, _ []string) error {
	if f := cmd.Flags().Lookup("agent"); f.Changed && len(f.Value.String()) > panes.MaxNameLen {
		return usagef("--agent %s is too long: an adapter or profile name has at most %d bytes", clip(f.Value.String()), panes.MaxNameLen)
	}
	if f := cmd.Flags().Lookup("size"); f.Changed && len(f.Value.String()) > maxSizeLen {
		return usagef("--size %s is not COLSxROWS; write it like 120x40", clip(f.Value.String()))
	}
	return nil
}

// maxSocketName is the longest -L a tmux socket path can take: a unix
// socket's path has at most 108 bytes.
const maxSocketName = 100

// adoptOperands checks adopt tmux's TARGET and -L by length first, so
// that the host's own check, run next, never echoes a huge value.
func adoptOperands(cmd *cobra.Command, args []string) error {
	if len(args[0]) > proto.MaxTmuxTargetLen {
		return usagef("TARGET %s is too long: at most %d bytes; give one such as %%3 or work:1.0", clip(args[0]), proto.MaxTmuxTargetLen)
	}
	if f := cmd.Flags().Lookup("socket-name"); f.Changed && len(f.Value.String()) > maxSocketName {
		return usagef("-L %s is too long for a tmux socket name: at most %d bytes", clip(f.Value.String()), maxSocketName)
	}
	return nil
}

// checkPaste refuses, as a usage error, text the host would refuse to
// paste (a control character that would act as a key), unless raw.
func checkPaste(text string, raw bool) error {
	if raw {
		return nil
	}
	if err := panes.CheckPaste(text); err != nil {
		return usageError{err}
	}
	return nil
}

// maxLine is the longest error line shown whole.
const maxLine = 1000

// shortLine keeps an error line short whatever it quotes (a host's
// message may echo a 10 KB value): past maxLine it keeps the start and
// the end, where what to do is said, and says how much was cut.
func shortLine(s string) string {
	if len(s) <= maxLine {
		return s
	}
	keep := maxLine / 3
	start, end := s[:keep], s[len(s)-keep:]
	for !utf8.ValidString(start) {
		start = start[:len(start)-1]
	}
	for !utf8.ValidString(end) {
		end = end[1:]
	}
	return fmt.Sprintf("%s … (%d bytes cut) … %s", start, len(s)-len(start)-len(end), end)
}

// positive refuses each named duration flag given as 0 where 0 would not
// mean what it says: `wait --idle 0` would wait for the exit instead, and
// `kill --grace 0` would take the default grace.
func positive(names ...string) check {
	return func(cmd *cobra.Command, _ []string) error {
		for _, n := range names {
			if f := cmd.Flags().Lookup(n); f != nil && f.Changed && f.Value.String() == "0s" {
				return usagef("--%s 0s: give a positive duration such as 5s%s", n, zeroHint[n])
			}
		}
		return nil
	}
}

// zeroHint says, per flag, what to do instead of 0.
var zeroHint = map[string]string{"grace": " (to kill at once, --signal KILL)"}
