package layout

import "fmt"

// The String methods below are written out by hand in the shape stringer
// generates; they are also the names used in the JSON form, so a rename is a
// schema change.

// Axis is the direction a split divides its area in.
type Axis uint8

const (
	// Horizontal puts the two children side by side (left, right) with a
	// vertical border line between them: tmux's "split-window -h".
	Horizontal Axis = iota
	// Vertical stacks the two children (top, bottom) with a horizontal
	// border line between them: tmux's "split-window -v".
	Vertical
)

// String returns "horizontal" or "vertical".
func (a Axis) String() string {
	switch a {
	case Horizontal:
		return "horizontal"
	case Vertical:
		return "vertical"
	}
	return fmt.Sprintf("Axis(%d)", uint8(a))
}

func (a Axis) valid() bool { return a == Horizontal || a == Vertical }

// parseAxis is the inverse of Axis.String.
func parseAxis(s string) (Axis, error) {
	for _, a := range []Axis{Horizontal, Vertical} {
		if a.String() == s {
			return a, nil
		}
	}
	return 0, fmt.Errorf("unknown axis %q (want horizontal or vertical)", s)
}

// Side says where a split puts the new pane relative to the one it splits.
type Side uint8

const (
	// After puts the new pane to the right of (or below) the old one.
	After Side = iota
	// Before puts the new pane to the left of (or above) the old one.
	Before
)

// String returns "after" or "before".
func (s Side) String() string {
	switch s {
	case After:
		return "after"
	case Before:
		return "before"
	}
	return fmt.Sprintf("Side(%d)", uint8(s))
}

func (s Side) valid() bool { return s == After || s == Before }

// Direction is one of the four screen directions, for focus moves and
// keyboard resizes.
type Direction uint8

const (
	// Left is towards smaller x.
	Left Direction = iota
	// Right is towards larger x.
	Right
	// Up is towards smaller y.
	Up
	// Down is towards larger y.
	Down
)

// String returns "left", "right", "up" or "down".
func (d Direction) String() string {
	switch d {
	case Left:
		return "left"
	case Right:
		return "right"
	case Up:
		return "up"
	case Down:
		return "down"
	}
	return fmt.Sprintf("Direction(%d)", uint8(d))
}

func (d Direction) valid() bool { return d <= Down }

// axis is the split axis whose border a move in d crosses.
func (d Direction) axis() Axis {
	if d == Left || d == Right {
		return Horizontal
	}
	return Vertical
}

// forward reports whether d points towards larger coordinates.
func (d Direction) forward() bool { return d == Right || d == Down }
