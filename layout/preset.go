package layout

import (
	"fmt"
	"math"
)

// Named layouts, as tmux's select-layout: each rebuilds the tree over the
// current panes in Leaves order, keeping their ids and the focus.

// Preset is one of tmux's named layouts.
type Preset uint8

const (
	// EvenHorizontal puts all panes side by side, evenly.
	EvenHorizontal Preset = iota
	// EvenVertical stacks all panes, evenly.
	EvenVertical
	// MainVertical gives the first pane the left half and stacks the rest
	// evenly on the right.
	MainVertical
	// MainHorizontal gives the first pane the top half and puts the rest
	// side by side evenly below.
	MainHorizontal
	// Tiled arranges the panes in a grid of ceil(sqrt(n)) columns, row by
	// row; a short last row is shared evenly by its panes.
	Tiled
)

// presets lists every Preset, for parsing and tests.
var presets = []Preset{EvenHorizontal, EvenVertical, MainVertical, MainHorizontal, Tiled}

// mainRatio is the share of the main pane in MainVertical and
// MainHorizontal. tmux uses a fixed 80 columns; a ratio keeps the tree
// independent of the area.
const mainRatio = 0.5

// String returns tmux's name for the layout, such as "even-horizontal".
func (p Preset) String() string {
	switch p {
	case EvenHorizontal:
		return "even-horizontal"
	case EvenVertical:
		return "even-vertical"
	case MainVertical:
		return "main-vertical"
	case MainHorizontal:
		return "main-horizontal"
	case Tiled:
		return "tiled"
	}
	return fmt.Sprintf("Preset(%d)", uint8(p))
}

// Apply rebuilds the tree as preset p over the current panes in Leaves
// order. The focus is kept and any zoom is cancelled, as tmux's
// select-layout does. An empty tree stays empty.
func (t *Tree) Apply(p Preset) error {
	ids := t.Leaves()
	if len(ids) == 0 {
		return nil
	}
	var root *node
	switch p {
	case EvenHorizontal:
		root = chain(ids, Horizontal)
	case EvenVertical:
		root = chain(ids, Vertical)
	case MainVertical:
		root = withMain(ids, Horizontal)
	case MainHorizontal:
		root = withMain(ids, Vertical)
	case Tiled:
		root = tiled(ids)
	default:
		return fmt.Errorf("apply layout: invalid preset %v", p)
	}
	t.root, t.zoom = root, ""
	return nil
}

// chain lays ids out evenly along axis.
func chain(ids []string, axis Axis) *node {
	leaves := make([]*node, len(ids))
	for i, id := range ids {
		leaves[i] = &node{pane: id}
	}
	return chainNodes(leaves, axis)
}

// withMain gives ids[0] mainRatio along axis and chains the rest evenly
// across it.
func withMain(ids []string, axis Axis) *node {
	if len(ids) == 1 {
		return &node{pane: ids[0]}
	}
	rest := chain(ids[1:], cross(axis))
	return &node{axis: axis, ratio: mainRatio, kids: [2]*node{{pane: ids[0]}, rest}}
}

// tiled stacks evenly rows of up to ceil(sqrt(n)) panes each, each row
// shared evenly by its panes.
func tiled(ids []string) *node {
	cols := int(math.Ceil(math.Sqrt(float64(len(ids)))))
	var rows []*node
	for len(ids) > 0 {
		n := min(cols, len(ids))
		rows = append(rows, chain(ids[:n], Horizontal))
		ids = ids[n:]
	}
	return chainNodes(rows, Vertical)
}

// chainNodes lays subtrees out evenly along axis: the first takes 1/n, the
// rest share the remainder the same way.
func chainNodes(kids []*node, axis Axis) *node {
	if len(kids) == 1 {
		return kids[0]
	}
	ratio := 1 / float64(len(kids))
	return &node{axis: axis, ratio: ratio, kids: [2]*node{kids[0], chainNodes(kids[1:], axis)}}
}
