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
func run(args []string, a *app) int {
	root := newRoot(a)
	root.SetArgs(args)
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
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

// newRoot builds the command tree.
func newRoot(a *app) *cobra.Command {
	root := &cobra.Command{
		Use:           "clowder",
		Short:         "run AI coding agents side by side in one keyboard-driven terminal",
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.RunE = runTUI(a)
	root.AddCommand(newDemo(), newNew(a), newLs(a), newCapture(a), newLog(a), newPoll(a),
		newSendKeys(a), newPaste(a), newSubmit(a), newWait(a), newKill(a), newRm(a), newRename(a), newRespawn(a),
		newLand(a), newDiscard(a), newExec(a), newHost(a), newAttach(a), newHook(a), newAdopt(a))
	return root
}
