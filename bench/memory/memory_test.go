package memory

import (
	"bytes"
	"testing"

	"clowder/bench/adapter"
)

func TestLinesAreFullWidthAndDistinct(t *testing.T) {
	b := Lines(200, 3)
	rows := bytes.Split(bytes.TrimSuffix(b, []byte("\r\n")), []byte("\r\n"))
	if len(rows) != 3 {
		t.Fatalf("%d lines, want 3", len(rows))
	}
	for i, r := range rows {
		if len(r) != 200 || bytes.IndexByte(r, ' ') >= 0 {
			t.Errorf("line %d is %d bytes with a blank at %d", i, len(r), bytes.IndexByte(r, ' '))
		}
	}
	if bytes.Equal(rows[0], rows[1]) {
		t.Error("lines 0 and 1 are the same")
	}
}

func TestMeasureSeesTheScrollbackGrow(t *testing.T) {
	for _, e := range adapter.All() {
		if !e.Scrollback {
			continue
		}
		small, err := Measure(e, Config{Terminals: 2, Cols: 80, Rows: 10, Lines: 10})
		if err != nil {
			t.Fatal(err)
		}
		big, err := Measure(e, Config{Terminals: 2, Cols: 80, Rows: 10, Lines: 1000})
		if err != nil {
			t.Fatal(err)
		}
		if big.PerTerminal <= small.PerTerminal {
			t.Errorf("%s: 1000 lines of history hold %d B, 10 lines %d B", e.Name, big.PerTerminal, small.PerTerminal)
		}
	}
}
