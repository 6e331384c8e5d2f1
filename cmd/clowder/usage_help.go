package main

// cobra's own `help` and `completion` commands print help and exit 0 for
// a word they do not know (`clowder help foo`, `clowder completion foo`)
// and for a missing shell (`clowder completion`): a script that typoed
// them would go on as if it had succeeded. Here they are usage errors
// (exit 2) whose one line names the word and the valid choices.

import (
	"strings"

	"github.com/spf13/cobra"
)

// shells are the shells `clowder completion` writes scripts for.
const shells = "bash, zsh, fish or powershell"

// strictHelpAndCompletion adds cobra's help and completion commands to
// root now (Execute would add them) and makes their bad words usage
// errors.
func strictHelpAndCompletion(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		switch c.Name() {
		case "help":
			strictHelp(c)
		case "completion":
			strictCompletion(c)
		}
	}
}

// strictHelp refuses a help topic that names no command.
func strictHelp(help *cobra.Command) {
	show := help.Run
	help.Run = nil
	help.RunE = func(c *cobra.Command, args []string) error {
		if len(args) > 0 {
			if found, _, err := c.Root().Find(args); found == nil || err != nil {
				return usagef("help %s: no such command; give one of %s", clip(args[0]), commandNames(c.Root()))
			}
		}
		show(c, args)
		return nil
	}
}

// strictCompletion refuses a missing or unknown shell.
func strictCompletion(comp *cobra.Command) {
	comp.Args = func(_ *cobra.Command, args []string) error {
		if len(args) > 0 {
			return usagef("completion %s: not a shell clowder writes completions for; give %s", clip(args[0]), shells)
		}
		return nil
	}
	comp.RunE = func(*cobra.Command, []string) error {
		return usagef("completion needs a shell: give %s (clowder completion bash)", shells)
	}
}

// commandNames lists root's commands for an error line ("demo, new, ...").
func commandNames(root *cobra.Command) string {
	var names []string
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() || c.Name() == "help" {
			names = append(names, c.Name())
		}
	}
	return strings.Join(names, ", ")
}
