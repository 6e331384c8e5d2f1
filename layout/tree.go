package layout

import (
	"errors"
	"strconv"
	"strings"
)

// Tree is a split tree of panes plus the focused and zoomed pane. The zero
// value is an empty tree, ready to use. Methods with a pointer receiver
// mutate the tree in place; a failed operation leaves it unchanged.
type Tree struct {
	root  *node
	focus string // "" only when the tree is empty
	zoom  string // "" when no pane is zoomed
}

// node is a leaf (kids both nil, pane set) or a split (both kids set).
type node struct {
	pane  string
	axis  Axis
	ratio float64
	kids  [2]*node
}

func (n *node) leaf() bool { return n.kids[0] == nil }

// Path names a node by the route from the root: one byte per level, '0' for
// the first child (left or top) and '1' for the second. The root is "".
// Paths are how a Border names its split, for Drag.
type Path string

// Errors that operations wrap; branch on them with errors.Is.
var (
	// ErrUnknownPane means a pane id is not a leaf of the tree.
	ErrUnknownPane = errors.New("no such pane in the layout")
	// ErrDuplicatePane means a new pane id is already a leaf of the tree.
	ErrDuplicatePane = errors.New("pane id already in the layout")
	// ErrEmptyID means a pane id is the empty string.
	ErrEmptyID = errors.New("pane id is empty")
)

// New returns a tree holding the one pane id, focused.
func New(id string) *Tree {
	return &Tree{root: &node{pane: id}, focus: id}
}

// Len returns the number of panes.
func (t *Tree) Len() int { return len(t.Leaves()) }

// Leaves returns the pane ids in order: depth first, first child first, which
// is left to right and top to bottom on the screen.
func (t *Tree) Leaves() []string {
	var ids []string
	walk(t.root, "", func(n *node, _ Path) {
		if n.leaf() {
			ids = append(ids, n.pane)
		}
	})
	return ids
}

// walk visits every node below n in order, parents before children.
func walk(n *node, p Path, visit func(*node, Path)) {
	if n == nil {
		return
	}
	visit(n, p)
	walk(n.kids[0], p+"0", visit)
	walk(n.kids[1], p+"1", visit)
}

// Find returns the path of pane id, and whether it is in the tree.
func (t *Tree) Find(id string) (Path, bool) {
	var at Path
	found := false
	walk(t.root, "", func(n *node, p Path) {
		if n.leaf() && n.pane == id && !found {
			at, found = p, true
		}
	})
	return at, found
}

// Has reports whether pane id is in the tree.
func (t *Tree) Has(id string) bool {
	_, ok := t.Find(id)
	return ok
}

// at returns the node at path p, or nil when there is none.
func (t *Tree) at(p Path) *node {
	n := t.root
	for i := 0; i < len(p) && n != nil; i++ {
		if p[i] != '0' && p[i] != '1' {
			return nil
		}
		n = n.kids[p[i]-'0']
	}
	return n
}

// Focus returns the focused pane id ("" only for an empty tree).
func (t *Tree) Focus() string { return t.focus }

// Zoomed returns the zoomed pane id, or "" when no pane is zoomed.
func (t *Tree) Zoomed() string { return t.zoom }

// Clone returns a deep copy that shares nothing with t.
func (t *Tree) Clone() *Tree {
	return &Tree{root: cloneNode(t.root), focus: t.focus, zoom: t.zoom}
}

func cloneNode(n *node) *node {
	if n == nil {
		return nil
	}
	c := *n
	c.kids = [2]*node{cloneNode(n.kids[0]), cloneNode(n.kids[1])}
	return &c
}

// Equal reports whether t and u have the same shape, panes, axes, exact
// ratios, focus and zoom. Two nil trees are equal.
func (t *Tree) Equal(u *Tree) bool {
	if t == nil || u == nil {
		return t == u
	}
	return t.focus == u.focus && t.zoom == u.zoom && equalNode(t.root, u.root)
}

func equalNode(a, b *node) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.leaf() || b.leaf() {
		return a.leaf() && b.leaf() && a.pane == b.pane
	}
	return a.axis == b.axis && a.ratio == b.ratio &&
		equalNode(a.kids[0], b.kids[0]) && equalNode(a.kids[1], b.kids[1])
}

// String renders the tree for logs and test failures, for example
// (h 0.5 "a" (v 0.5 "b" "c")) focus=b zoom=
func (t *Tree) String() string {
	var b strings.Builder
	writeNode(&b, t.root)
	b.WriteString(" focus=" + t.focus + " zoom=" + t.zoom)
	return b.String()
}

func writeNode(b *strings.Builder, n *node) {
	switch {
	case n == nil:
		b.WriteString("()")
	case n.leaf():
		b.WriteString(strconv.Quote(n.pane))
	default:
		b.WriteString("(" + n.axis.String()[:1] + " ")
		b.WriteString(strconv.FormatFloat(n.ratio, 'g', -1, 64) + " ")
		writeNode(b, n.kids[0])
		b.WriteString(" ")
		writeNode(b, n.kids[1])
		b.WriteString(")")
	}
}
