package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"clowder/assets"
	"clowder/vtgrid"
)

// newDemo plays a recorded agent session through vtgrid and prints the
// screen it ends on: what `make run` shows until the TUI exists.
func newDemo() *cobra.Command {
	var plain bool
	var file string
	c := &cobra.Command{
		Use:   "demo [--plain] [--file RECORDING]",
		Short: "replay a recorded program's output through the emulator and print the final screen",
		Args:  usage(cobra.NoArgs, nonEmpty("file")),
		RunE: func(*cobra.Command, []string) error {
			rec, err := demoRecording(file)
			if err != nil {
				return err
			}
			term := vtgrid.New(rec.Cols, rec.Rows, vtgrid.Options{})
			term.Write(rec.Data)
			s := term.Snapshot()
			if plain {
				fmt.Println(s.Text())
				return nil
			}
			fmt.Print(s.ANSI() + "\x1b[0m\r\n")
			return nil
		},
	}
	c.Flags().BoolVar(&plain, "plain", false, "print text without colours")
	c.Flags().StringVar(&file, "file", "", "a raw recording to play instead of the built-in one (at 120x40)")
	return c
}

func demoRecording(file string) (assets.Recording, error) {
	if file == "" {
		return assets.Demo(), nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return assets.Recording{}, fmt.Errorf("read recording: %w", err)
	}
	return assets.Recording{Name: file, Cols: 120, Rows: 40, Data: data}, nil
}
