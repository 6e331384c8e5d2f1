package adapter

import (
	"fmt"
	"io"
	"strings"
)

// Terminal is the part of an emulator the benchmarks use. A Terminal is not
// safe for concurrent use.
type Terminal interface {
	// Write parses p. It consumes all of p, as a PTY reader needs: an
	// adapter whose library may take less keeps the rest for the next call.
	io.Writer
	// Text returns the visible screen as rows joined by "\n", with trailing
	// blanks on each row and trailing blank rows removed.
	Text() string
	// Close releases what the emulator holds (goroutines, pipes). Calling it
	// twice is allowed.
	Close() error
}

// Emulator describes one contender.
type Emulator struct {
	// Name is the short name used in benchmark names and tables; it has no
	// slash, so it is one level of a sub-benchmark name.
	Name string
	// Module is the Go module the emulator comes from.
	Module string
	// Scrollback reports whether the emulator keeps lines that scroll off
	// the top; vt10x does not.
	Scrollback bool
	// New returns a terminal of cols x rows keeping up to scrollback lines
	// (ignored by an emulator without scrollback).
	New func(cols, rows, scrollback int) Terminal
}

// All returns every contender, ours first.
func All() []Emulator {
	return []Emulator{
		{Name: "vtgrid", Module: "clowder", Scrollback: true, New: newVTGrid},
		{Name: "vt10x", Module: "github.com/hinshun/vt10x", Scrollback: false, New: newVT10x},
		{Name: "xvt", Module: "github.com/charmbracelet/x/vt", Scrollback: true, New: newXVT},
	}
}

// ByName returns the contender called name.
func ByName(name string) (Emulator, error) {
	var names []string
	for _, e := range All() {
		if e.Name == name {
			return e, nil
		}
		names = append(names, e.Name)
	}
	return Emulator{}, fmt.Errorf("unknown emulator %q: want one of %s", name, strings.Join(names, ", "))
}

// Feed writes data to t in chunks of at most chunk bytes, as reads from a
// PTY master would deliver it.
func Feed(t Terminal, data []byte, chunk int) error {
	for len(data) > 0 {
		n := min(chunk, len(data))
		if _, err := t.Write(data[:n]); err != nil {
			return fmt.Errorf("feed %d bytes: %w", n, err)
		}
		data = data[n:]
	}
	return nil
}

// trimScreen normalises a screen dump: trailing blanks off every row, then
// trailing empty rows off the end. NUL counts as blank (vt10x fills with it).
func trimScreen(rows []string) string {
	for i, r := range rows {
		rows[i] = strings.TrimRight(r, " \x00")
	}
	for len(rows) > 0 && rows[len(rows)-1] == "" {
		rows = rows[:len(rows)-1]
	}
	return strings.Join(rows, "\n")
}
