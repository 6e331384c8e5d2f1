package layout

import "fmt"

// Structural operations: split, close, swap, zoom and focus. Each validates
// everything before it changes anything, so an error leaves the tree as it
// was.

// Split divides pane target in two along axis, evenly, and puts the new pane
// id on the given side of it. The new pane takes the focus and any zoom is
// cancelled, as tmux's split-window does. On an empty tree target must be ""
// and id becomes the only pane.
func (t *Tree) Split(target, id string, axis Axis, side Side) error {
	if err := t.checkNew(id, axis, side); err != nil {
		return fmt.Errorf("split %q: %w", target, err)
	}
	if t.root == nil && target == "" {
		*t = *New(id)
		return nil
	}
	p, ok := t.Find(target)
	if !ok {
		return fmt.Errorf("split %q: %w", target, ErrUnknownPane)
	}
	n := t.at(p)
	kids := [2]*node{{pane: n.pane}, {pane: id}}
	if side == Before {
		kids[0], kids[1] = kids[1], kids[0]
	}
	*n = node{axis: axis, ratio: 0.5, kids: kids}
	t.focus, t.zoom = id, ""
	return nil
}

// checkNew validates the arguments of Split other than the target.
func (t *Tree) checkNew(id string, axis Axis, side Side) error {
	switch {
	case id == "":
		return ErrEmptyID
	case t.Has(id):
		return fmt.Errorf("new pane %q: %w", id, ErrDuplicatePane)
	case !axis.valid():
		return fmt.Errorf("invalid axis %v", axis)
	case !side.valid():
		return fmt.Errorf("invalid side %v", side)
	}
	return nil
}

// Close removes pane id; its sibling subtree takes the parent split's place.
// Closing the last pane leaves an empty tree. If id had the focus, the focus
// moves to the pane of the sibling subtree nearest to where id was; if id was
// zoomed, the zoom is cancelled.
func (t *Tree) Close(id string) error {
	p, ok := t.Find(id)
	if !ok {
		return fmt.Errorf("close %q: %w", id, ErrUnknownPane)
	}
	if t.zoom == id {
		t.zoom = ""
	}
	if p == "" {
		*t = Tree{}
		return nil
	}
	parent := t.at(p[:len(p)-1])
	first := p[len(p)-1] == '0'
	sibling := parent.kids[1]
	if !first {
		sibling = parent.kids[0]
	}
	*parent = *sibling
	if t.focus == id {
		t.focus = edgeLeaf(parent, first)
	}
	return nil
}

// edgeLeaf returns the first (or, when first is false, the last) pane of n.
func edgeLeaf(n *node, first bool) string {
	for !n.leaf() {
		if first {
			n = n.kids[0]
		} else {
			n = n.kids[1]
		}
	}
	return n.pane
}

// Swap exchanges the places of panes a and b. Focus and zoom stay with the
// pane ids, so they move with the panes.
func (t *Tree) Swap(a, b string) error {
	pa, okA := t.Find(a)
	pb, okB := t.Find(b)
	switch {
	case !okA:
		return fmt.Errorf("swap %q with %q: %q: %w", a, b, a, ErrUnknownPane)
	case !okB:
		return fmt.Errorf("swap %q with %q: %q: %w", a, b, b, ErrUnknownPane)
	}
	na, nb := t.at(pa), t.at(pb)
	na.pane, nb.pane = nb.pane, na.pane
	return nil
}

// Zoom makes pane id fill the whole area in Rects and gives it the focus.
// Zooming the zoomed pane again keeps it zoomed (use Unzoom to undo).
func (t *Tree) Zoom(id string) error {
	if !t.Has(id) {
		return fmt.Errorf("zoom %q: %w", id, ErrUnknownPane)
	}
	t.zoom, t.focus = id, id
	return nil
}

// Unzoom cancels the zoom, if any.
func (t *Tree) Unzoom() { t.zoom = "" }

// SetFocus focuses pane id. Focusing a pane other than the zoomed one
// cancels the zoom, as tmux's select-pane does.
func (t *Tree) SetFocus(id string) error {
	if !t.Has(id) {
		return fmt.Errorf("focus %q: %w", id, ErrUnknownPane)
	}
	if t.zoom != id {
		t.zoom = ""
	}
	t.focus = id
	return nil
}
