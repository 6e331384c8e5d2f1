package assets

import _ "embed"

// Recording is a program's raw terminal output captured at a known size.
type Recording struct {
	Name       string
	Cols, Rows int
	Data       []byte
}

//go:embed demo/demo.bin
var demo []byte

// Demo is the recording `clowder demo` plays: a short session of a real
// program recorded on a PTY (see vtgrid/testdata/rec/README.md).
func Demo() Recording {
	return Recording{Name: "demo", Cols: 120, Rows: 40, Data: demo}
}
