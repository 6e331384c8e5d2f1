package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"clowder/assets"
	"clowder/persist"
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
	data, err := readRecording(file)
	if err != nil {
		return assets.Recording{}, fmt.Errorf("read recording %s: %w", file, err)
	}
	return assets.Recording{Name: file, Cols: 120, Rows: 40, Data: data}, nil
}

// maxRecording bounds a --file recording: the built-in one is 50 KB, a
// long session's raw output a few MB.
const maxRecording = 64 << 20

// readRecording reads a recording that must be a regular file of at most
// maxRecording bytes: a fifo would hang demo and /dev/zero would fill
// the memory (a trial bug).
func readRecording(file string) ([]byte, error) {
	data, err := persist.ReadRegularFile(file, maxRecording)
	var notRegular *persist.NotRegularError
	var tooLarge *persist.TooLargeError
	switch {
	case errors.As(err, &notRegular):
		return nil, errors.New("not a regular file; give a file of raw terminal output")
	case errors.As(err, &tooLarge):
		return nil, fmt.Errorf("%d bytes, over the %d a recording can have; give a shorter one", tooLarge.Size, maxRecording)
	}
	return data, err
}
