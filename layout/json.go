package layout

import (
	"encoding/json"
	"errors"
	"fmt"
)

// The JSON form, as layout.json stores it:
//
//	{"schema_version": 1, "focus": "p2", "zoom": "",
//	 "root": {"axis": "horizontal", "ratio": 0.5,
//	          "children": [{"pane": "p1"}, {"pane": "p2"}]}}
//
// A node is a leaf ({"pane": id}) or a split (axis, ratio, exactly two
// children). Ratios are written in Go's shortest exact form, so a round trip
// gives back the same float64 bits. Unknown fields are ignored.

// SchemaVersion is the version of the JSON form this package writes and
// the newest it reads.
const SchemaVersion = 1

// MaxDepth bounds how deep splits nest in a layout read from JSON: a
// chain of splits that deep needs more than 1,500 columns or rows of
// minimal panes, which no terminal has, and deeper ones (a damaged or
// hand-made file) cost the TUI memory and time by the square of the depth.
const MaxDepth = 512

type wireTree struct {
	SchemaVersion int       `json:"schema_version"`
	Focus         string    `json:"focus"`
	Zoom          string    `json:"zoom"`
	Root          *wireNode `json:"root"`
}

type wireNode struct {
	Pane     string      `json:"pane,omitempty"`
	Axis     string      `json:"axis,omitempty"`
	Ratio    *float64    `json:"ratio,omitempty"`
	Children []*wireNode `json:"children,omitempty"`
}

// Marshal returns the JSON form of t.
func Marshal(t *Tree) ([]byte, error) { return json.Marshal(t) }

// Unmarshal parses the JSON form. It refuses a newer schema_version and
// malformed trees (duplicate pane ids, a split without two children, a ratio
// outside (0, 1), an unknown axis, a focus or zoom naming no pane, a zoom
// on a pane without the focus) with a
// one-line error; it never panics.
func Unmarshal(data []byte) (*Tree, error) {
	t := &Tree{}
	if err := t.UnmarshalJSON(data); err != nil {
		return nil, err
	}
	return t, nil
}

// MarshalJSON implements json.Marshaler with the JSON form.
func (t *Tree) MarshalJSON() ([]byte, error) {
	w := wireTree{SchemaVersion: SchemaVersion, Focus: t.focus, Zoom: t.zoom, Root: toWire(t.root)}
	return json.Marshal(w)
}

func toWire(n *node) *wireNode {
	switch {
	case n == nil:
		return nil
	case n.leaf():
		return &wireNode{Pane: n.pane}
	}
	ratio := n.ratio
	kids := []*wireNode{toWire(n.kids[0]), toWire(n.kids[1])}
	return &wireNode{Axis: n.axis.String(), Ratio: &ratio, Children: kids}
}

// UnmarshalJSON implements json.Unmarshaler with the checks of Unmarshal.
// On error t is unchanged.
func (t *Tree) UnmarshalJSON(data []byte) error {
	u, err := decode(data)
	if err != nil {
		return fmt.Errorf("decode layout: %w", err)
	}
	*t = *u
	return nil
}

// decode checks the schema version before anything else, so a newer file
// is refused as newer rather than as malformed.
func decode(data []byte) (*Tree, error) {
	var head struct {
		SchemaVersion *int `json:"schema_version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, err
	}
	if err := checkVersion(head.SchemaVersion); err != nil {
		return nil, err
	}
	var w wireTree
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, err
	}
	return fromWire(w)
}

func checkVersion(v *int) error {
	switch {
	case v == nil:
		return errors.New("missing schema_version")
	case *v > SchemaVersion:
		return fmt.Errorf("schema_version %d is newer than this clowder supports (%d); upgrade clowder", *v, SchemaVersion)
	case *v < 1:
		return fmt.Errorf("invalid schema_version %d (want 1 to %d)", *v, SchemaVersion)
	}
	return nil
}

// fromWire builds and checks the tree.
func fromWire(w wireTree) (*Tree, error) {
	seen := map[string]bool{}
	t := &Tree{focus: w.Focus, zoom: w.Zoom}
	if w.Root != nil {
		root, err := fromWireNode(w.Root, "root", seen, 0)
		if err != nil {
			return nil, err
		}
		t.root = root
	}
	if err := checkRef("focus", w.Focus, seen, t.root != nil); err != nil {
		return nil, err
	}
	if err := checkRef("zoom", w.Zoom, seen, false); err != nil {
		return nil, err
	}
	if w.Zoom != "" && w.Zoom != w.Focus {
		// Zoom gives the focus and refocusing unzooms, so no operation
		// can produce this state.
		return nil, fmt.Errorf("zoom names pane %q but focus is pane %q", w.Zoom, w.Focus)
	}
	return t, nil
}

// checkRef checks that field names a pane; "" is allowed unless required.
func checkRef(field, id string, seen map[string]bool, required bool) error {
	switch {
	case id == "" && required:
		return fmt.Errorf("%s is empty but the layout has panes", field)
	case id != "" && !seen[id]:
		return fmt.Errorf("%s names pane %q, which is not in the layout", field, id)
	}
	return nil
}

// fromWireNode builds the node at depth splits under the root.
func fromWireNode(w *wireNode, where string, seen map[string]bool, depth int) (*node, error) {
	if w == nil {
		return nil, fmt.Errorf("%s: null node", where)
	}
	if len(w.Children) == 0 {
		return fromWireLeaf(w, where, seen)
	}
	if depth == MaxDepth {
		return nil, fmt.Errorf("splits nest deeper than %d, more than any terminal can show", MaxDepth)
	}
	return fromWireSplit(w, where, seen, depth)
}

func fromWireLeaf(w *wireNode, where string, seen map[string]bool) (*node, error) {
	switch {
	case w.Pane == "" && w.Axis == "" && w.Ratio == nil:
		return nil, fmt.Errorf("%s: node has neither a pane nor children", where)
	case w.Pane == "":
		return nil, fmt.Errorf("%s: split has no children (want 2)", where)
	case w.Axis != "" || w.Ratio != nil:
		return nil, fmt.Errorf("%s: pane %q also has an axis or ratio", where, w.Pane)
	case seen[w.Pane]:
		return nil, fmt.Errorf("%s: pane %q appears twice", where, w.Pane)
	}
	seen[w.Pane] = true
	return &node{pane: w.Pane}, nil
}

func fromWireSplit(w *wireNode, where string, seen map[string]bool, depth int) (*node, error) {
	if err := checkSplit(w); err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	axis, err := parseAxis(w.Axis)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	n := &node{axis: axis, ratio: *w.Ratio}
	for i, c := range w.Children {
		if n.kids[i], err = fromWireNode(c, fmt.Sprintf("%s.children[%d]", where, i), seen, depth+1); err != nil {
			return nil, err
		}
	}
	return n, nil
}

// checkSplit checks the fields of a split other than its axis name.
func checkSplit(w *wireNode) error {
	switch {
	case w.Pane != "":
		return fmt.Errorf("pane %q also has children", w.Pane)
	case len(w.Children) != 2:
		return fmt.Errorf("split has %d children (want 2)", len(w.Children))
	case w.Ratio == nil:
		return errors.New("split has no ratio")
	case !(*w.Ratio > 0 && *w.Ratio < 1):
		return fmt.Errorf("ratio %v is out of range (want 0 < ratio < 1)", *w.Ratio)
	}
	return nil
}
