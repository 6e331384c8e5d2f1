// Command clowder is the terminal multiplexer for AI coding agents. This
// package only wires cobra commands to the packages that do the work and
// chooses exit codes: 0 success, 1 failure (one-line error), 2 usage.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

// usageError marks errors that exit with code 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }

func main() {
	root := newRoot()
	if err := root.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "clowder:", err)
		os.Exit(exitCode(err))
	}
}

func exitCode(err error) int {
	var u usageError
	if errors.As(err, &u) {
		return 2
	}
	return 1
}

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "clowder",
		Short:         "run AI coding agents side by side in one keyboard-driven terminal",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(newDemo())
	return root
}
