package layout

import "fmt"

// Resizing and moving between panes. These work on the split geometry
// (SplitRects) of the area the caller shows, because a resize is asked for
// in cells but stored as a ratio.

// Ratios that operations set stay inside [ratioMin, 1-ratioMin], so a split
// never records a child as nothing. 1e-4 still places a border exactly on
// any cell of an area up to 5,000 cells across.
const ratioMin = 1e-4

// Resize moves the border on the dir side of pane id by n cells towards dir
// (n < 0 moves it back), so the pane grows by n cells. When the pane touches
// the area's edge on that side, the border on its other side moves towards
// dir instead and the pane shrinks, as tmux's resize-pane does. The split
// moved is the nearest ancestor on dir's axis. Sizes stop at minimum; a pane
// with no split on that axis, or an area too small to honour the minimums,
// is left as it is. Only the panes touching the moved border change size.
func (t *Tree) Resize(id string, dir Direction, n int, area Rect, minimum Size) error {
	p, ok := t.Find(id)
	if !ok {
		return fmt.Errorf("resize %q: %w", id, ErrUnknownPane)
	}
	if !dir.valid() {
		return fmt.Errorf("resize %q: invalid direction %v", id, dir)
	}
	split, ok := t.borderSplit(p, dir)
	if !ok {
		return nil
	}
	first, total := t.firstOf(split, area, minimum)
	n = min(max(n, -total), total) // no overflow, whatever n is
	if !dir.forward() {
		n = -n
	}
	t.moveBorder(split, first+n, area, minimum)
	return nil
}

// borderSplit finds the split whose border Resize moves for the pane at p:
// the nearest ancestor on dir's axis with the pane on the side facing away
// from dir, else the nearest ancestor on that axis at all.
func (t *Tree) borderSplit(p Path, dir Direction) (Path, bool) {
	want := byte('0')
	if !dir.forward() {
		want = '1'
	}
	fallback, found := Path(""), false
	for i := len(p) - 1; i >= 0; i-- {
		if t.at(p[:i]).axis != dir.axis() {
			continue
		}
		if p[i] == want {
			return p[:i], true
		}
		if !found {
			fallback, found = p[:i], true
		}
	}
	return fallback, found
}

// Drag moves the border of the split at path to cell position pos (a column
// for a Horizontal split, a row for a Vertical one), for a mouse drag on a
// Border from Geometry.BorderAt. Positions past the minimums stop there.
// Only the panes touching the border change size, as in tmux.
func (t *Tree) Drag(split Path, pos int, area Rect, minimum Size) error {
	n := t.at(split)
	if n == nil || n.leaf() {
		return fmt.Errorf("drag border %q: no split at that path", split)
	}
	r := t.frame(split, area, minimum)
	lo, size := span(r, n.axis)
	pos = min(max(pos, lo), lo+size) // no overflow, whatever pos is
	t.moveBorder(split, pos-lo, area, minimum)
	return nil
}

// frame returns the rectangle of the node at p when the tree is laid out
// on area. p must name a node.
func (t *Tree) frame(p Path, area Rect, minimum Size) Rect {
	n, r, m := t.root, saneRect(area), saneSize(minimum)
	for i := range len(p) {
		a, _, b := divide(n, r, m)
		r = a
		if p[i] == '1' {
			r = b
		}
		n = n.kids[p[i]-'0']
	}
	return r
}

// firstOf returns the cells the first child of split p gets on area, and
// the split's extent along its axis.
func (t *Tree) firstOf(p Path, area Rect, minimum Size) (first, total int) {
	n, r := t.at(p), t.frame(p, area, minimum)
	a, _, _ := divide(n, r, saneSize(minimum))
	_, first = span(a, n.axis)
	_, total = span(r, n.axis)
	return first, total
}

// moveBorder gives the first child of split p first cells on area (as far
// as the minimums allow) and keeps the size of every pane that does not
// touch the border. Without the second step a ratio change would rescale
// whole subtrees, and a keyboard resize of 4 cells could grow the focused
// pane by 2.
func (t *Tree) moveBorder(p Path, first int, area Rect, minimum Size) {
	kept := t.farSizes(p, area, minimum)
	t.setFirst(p, first, area, minimum)
	for _, k := range kept {
		_, total := t.firstOf(k.split, area, minimum)
		first := k.size
		if k.child == 1 {
			first = total - 1 - k.size
		}
		t.setFirst(k.split, first, area, minimum)
	}
}

// kept is the size along the axis of one child of a split, to restore
// after a border moved.
type kept struct {
	split Path
	child int
	size  int
}

// farSizes lists, parents first, the splits inside split p on p's axis
// whose one child touches p's border, with the size of their other child.
func (t *Tree) farSizes(p Path, area Rect, minimum Size) []kept {
	axis := t.at(p).axis
	var ks []kept
	var visit func(q Path, touch int)
	visit = func(q Path, touch int) {
		n := t.at(q)
		switch {
		case n.leaf():
		case n.axis != axis:
			visit(q+"0", touch)
			visit(q+"1", touch)
		default:
			first, total := t.firstOf(q, area, minimum)
			k := kept{split: q, child: 1 - touch, size: first}
			if k.child == 1 {
				k.size = max(total-1-first, 0)
			}
			ks = append(ks, k)
			visit(q+Path("01"[touch]), touch)
		}
	}
	visit(p+"0", 1)
	visit(p+"1", 0)
	return ks
}

// setFirst sets split p's ratio so that its first child gets first cells on
// area, or as near as the minimums allow. It does nothing when the split has
// no room for both minimums.
func (t *Tree) setFirst(p Path, first int, area Rect, minimum Size) {
	n, m := t.at(p), saneSize(minimum)
	_, total := t.firstOf(p, area, minimum)
	avail := total - 1
	minA, minB := extent(n.kids[0], n.axis, m), extent(n.kids[1], n.axis, m)
	if avail <= 0 || minA+minB > avail {
		return
	}
	first = min(max(first, minA), avail-minB)
	n.ratio = min(max(float64(first)/float64(avail), ratioMin), 1-ratioMin)
}

// span returns where r starts and how long it is along axis.
func span(r Rect, axis Axis) (lo, size int) {
	if axis == Horizontal {
		return r.X, r.W
	}
	return r.Y, r.H
}
