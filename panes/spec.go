package panes

// This file holds the bounds of a pane's name and size and their checks,
// which the CLI and the protocol's request validation (supervisor/proto)
// share; whether a name is unique among live panes, and whether the
// command exists, are the host's checks at spawn time.

import (
	"fmt"
	"strconv"
	"strings"

	"clowder/persist"
)

// Limits a spec must keep. The size limits are the only definition of how
// big a pane may be: the CLI's --size, the host's spawn and resize (and so
// every client's resize, the TUI's and attach's) and the protocol's screen
// frames all use them (docs/protocol.md, "Limits"). MaxCells bounds the
// screen's memory (a cell costs about 50 bytes in the host) and one screen
// frame; 1000 columns is wider than any real display, and MaxCells still
// allows 1000x131 or 362x362.
const (
	MaxNameLen = 40
	MinCols    = 2
	MinRows    = 2
	MaxCols    = 1000
	MaxRows    = 1000
	MaxCells   = 1 << 17
)

// DefaultSize is a pane's size until a client shows it (docs/cli.md).
var DefaultSize = persist.Size{Cols: 80, Rows: 24}

// ValidateName checks a pane name: 1 to MaxNameLen characters from
// letters, digits, '-', '_' and '.', not starting with '-' or '.'. Such a
// name is safe as a directory name, a git branch suffix and a CLI
// argument.
func ValidateName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("pane name is empty; give a name like api-fix")
	case len(name) > MaxNameLen:
		// Only its start: the whole of a huge name would not be one line.
		return fmt.Errorf("pane name %q… (%d bytes) is too long: at most %d bytes; shorten it", strings.ToValidUTF8(name[:MaxNameLen], ""), len(name), MaxNameLen)
	case name[0] == '-' || name[0] == '.':
		return fmt.Errorf("pane name %q starts with %q; start it with a letter or digit", name, name[0])
	case strings.Contains(name, ".."), strings.HasSuffix(name, ".lock"):
		return fmt.Errorf("pane name %q has \"..\" or ends in \".lock\", which git refuses in branch names; rename it", name)
	case IsPaneID(name):
		return fmt.Errorf("pane name %q has the form of a pane id, which would shadow or be shadowed by one; choose another name", name)
	}
	for _, r := range name {
		if !nameRune(r) {
			return fmt.Errorf("pane name %q contains %q; use only letters, digits, '-', '_' and '.'", name, r)
		}
	}
	return nil
}

// IsPaneID reports whether s has the form of a pane id: p and a number.
// Lookups try ids before names, so no name may take that form.
func IsPaneID(s string) bool {
	if len(s) < 2 || s[0] != 'p' {
		return false
	}
	for _, r := range s[1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// SafeName turns s (a command's base name) into a valid pane name: every
// character a name may not hold becomes '-', and what is left empty, or
// shaped like a pane id, becomes "run".
func SafeName(s string) string {
	b := []rune(s)
	for i, r := range b {
		if !nameRune(r) {
			b[i] = '-'
		}
	}
	name := strings.Trim(string(b), "-.")
	if len(name) > MaxNameLen {
		name = name[:MaxNameLen]
	}
	if ValidateName(name) != nil {
		return "run"
	}
	return name
}

func nameRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.'
}

// ValidateSize checks a pane size against the bounds.
func ValidateSize(sz persist.Size) error {
	if sz.Cols < MinCols || sz.Cols > MaxCols || sz.Rows < MinRows || sz.Rows > MaxRows || sz.Cols*sz.Rows > MaxCells {
		return fmt.Errorf("size %dx%d is out of bounds; give COLSxROWS with %d-%d columns, %d-%d rows and at most %d cells",
			sz.Cols, sz.Rows, MinCols, MaxCols, MinRows, MaxRows, MaxCells)
	}
	return nil
}

// ClampSize is the size nearest to sz within the bounds: columns and rows
// clamped, then rows cut to keep at most MaxCells.
func ClampSize(sz persist.Size) persist.Size {
	cols := min(max(sz.Cols, MinCols), MaxCols)
	rows := min(max(sz.Rows, MinRows), MaxRows, MaxCells/cols)
	return persist.Size{Cols: cols, Rows: rows}
}

// ParseSize reads COLSxROWS ("120x40") and checks the bounds.
func ParseSize(s string) (persist.Size, error) {
	c, r, ok := strings.Cut(strings.ToLower(s), "x")
	cols, err1 := strconv.Atoi(c)
	rows, err2 := strconv.Atoi(r)
	if !ok || err1 != nil || err2 != nil {
		return persist.Size{}, fmt.Errorf("size %q is not COLSxROWS; write it like 120x40", s)
	}
	sz := persist.Size{Cols: cols, Rows: rows}
	return sz, ValidateSize(sz)
}
