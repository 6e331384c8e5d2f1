package tui

import (
	"errors"
	"os"

	"github.com/charmbracelet/x/term"
)

// ErrNoTerminal is NeedTerminal's error.
var ErrNoTerminal = errors.New("the TUI needs a terminal, and stdin or stdout is none: run clowder in a terminal; scripts use its commands (clowder --help)")

// NeedTerminal fails with ErrNoTerminal unless stdin and stdout are a
// terminal, which Run takes. `clowder` checks it before it starts a host
// for the TUI, which would otherwise be left running with nothing
// attached.
func NeedTerminal() error {
	if term.IsTerminal(os.Stdin.Fd()) && term.IsTerminal(os.Stdout.Fd()) {
		return nil
	}
	return ErrNoTerminal
}
