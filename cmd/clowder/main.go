// Command clowder is the terminal multiplexer for AI coding agents. This
// package only wires cobra commands to the packages that do the work and
// chooses exit codes: 0 success, 1 failure (one-line error), 2 usage.
// Commands that end the way a child did (exec) choose their own code
// through exitError.
package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"clowder/supervisor/proto"
)

// version is the build, stamped by `make build` with -ldflags
// "-X main.version=$(git describe --always --dirty)"; "dev" when unstamped
// (go test, go run). --version and host status report it.
var version = "dev"

func main() {
	os.Exit(run(os.Args[1:], newOSApp()))
}

// run executes one command line and returns the process exit code.
func run(args []string, a *app) int { return execute(newRootFor(a, args), args, a) }

// execute runs args on the tree under root.
func execute(root *cobra.Command, args []string, a *app) int {
	root.SetArgs(args)
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	strictHelpAndCompletion(root) // usage.go
	err := root.Execute()
	if err == nil {
		return 0
	}
	code := exitCode(err)
	if msg := errorLine(err); msg != "" {
		fmt.Fprintln(a.stderr, "clowder:", msg)
	}
	return code
}

// usageError marks errors that exit with code 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }

// usagef makes a usage error.
func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// exitError ends a command with a chosen code and, if set, a message.
type exitError struct {
	code int
	msg  string
}

func (e exitError) Error() string { return e.msg }

// exitCode picks the exit code for err.
func exitCode(err error) int {
	var u usageError
	var x exitError
	switch {
	case errors.As(err, &x):
		return x.code
	case errors.As(err, &u), isCobraUsage(err):
		return 2
	}
	return 1
}

// isCobraUsage recognises the usage errors cobra makes itself, which are
// plain errors: an unknown command.
func isCobraUsage(err error) bool {
	return strings.HasPrefix(err.Error(), "unknown command ")
}

// errorLine is the one line a user sees: a host error's own message, never
// a stack of wrapped prefixes around it, with any control character in
// what it quotes (a pane name, a command, a title) escaped.
func errorLine(err error) string {
	var e *proto.ErrorReply
	msg := err.Error()
	if errors.As(err, &e) {
		msg = e.Message
	}
	return shortLine(safe(strings.Join(strings.Fields(strings.ReplaceAll(msg, "\n", "; ")), " ")))
}

// newRoot builds the whole command tree.
func newRoot(a *app) *cobra.Command {
	root := bareRoot(a)
	for _, c := range subcommands {
		root.AddCommand(c.make(a))
	}
	return root
}

// newRootFor builds the tree a command line needs: when its first word
// names a subcommand, the root and that subcommand alone (with its own
// subcommands), since nothing else of the tree is seen; otherwise (no
// subcommand, a flag first, help, completion, a typo to suggest for) the
// whole tree. Building all 21 commands with their flags, and cobra's
// completion command, was a tenth of an `ls`'s CPU
// (bench/profiles/cli.md).
func newRootFor(a *app, args []string) *cobra.Command {
	if len(args) == 0 {
		return newRoot(a)
	}
	for _, c := range subcommands {
		if c.name == args[0] {
			root := bareRoot(a)
			root.AddCommand(c.make(a))
			// The completion command is for the whole tree, which
			// `clowder completion` builds.
			root.CompletionOptions.DisableDefaultCmd = true
			return root
		}
	}
	return newRoot(a)
}

// bareRoot is the root command without its subcommands.
func bareRoot(a *app) *cobra.Command {
	root := &cobra.Command{
		Use:           "clowder",
		Short:         "run AI coding agents side by side in one keyboard-driven terminal",
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.RunE = runTUI(a)
	return root
}

// subcommands are the root's subcommands by name, in the order help lists
// them; TestCLISubcommandsAreNamedAsTheyAreBuilt keeps the names right.
var subcommands = []struct {
	name string
	make func(*app) *cobra.Command
}{
	{"demo", func(*app) *cobra.Command { return newDemo() }}, {"new", newNew}, {"ls", newLs},
	{"capture", newCapture}, {"log", newLog}, {"poll", newPoll}, {"send-keys", newSendKeys},
	{"paste", newPaste}, {"submit", newSubmit}, {"wait", newWait}, {"kill", newKill}, {"rm", newRm},
	{"rename", newRename}, {"respawn", newRespawn}, {"land", newLand}, {"discard", newDiscard},
	{"exec", newExec}, {"host", newHost}, {"attach", newAttach}, {"hook", newHook}, {"adopt", newAdopt},
}
