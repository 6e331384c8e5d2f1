package layout

import "math"

// Geometry: a tree mapped onto an area of cells. All functions in this file
// work on absolute cell coordinates of the area they are given. A split of
// extent E along its axis becomes a | border | b with a + 1 + b == E (only an
// extent of 0 has no room for the border, and then everything is empty), so
// panes and borders tile the area exactly and never overlap.

// Rect is a rectangle of cells: columns X..X+W-1, rows Y..Y+H-1.
type Rect struct{ X, Y, W, H int }

// Contains reports whether cell (x, y) is inside r.
func (r Rect) Contains(x, y int) bool {
	return x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H
}

// Empty reports whether r holds no cell.
func (r Rect) Empty() bool { return r.W <= 0 || r.H <= 0 }

// Size is a width and height in cells.
type Size struct{ W, H int }

// Pane is one pane's rectangle.
type Pane struct {
	ID   string
	Rect Rect
}

// Border is the one-cell line between the two halves of a split: a column
// for a Horizontal split, a row for a Vertical one. It spans the split's
// whole extent across its axis.
type Border struct {
	Split Path // the split this border belongs to, for Tree.Drag
	Axis  Axis // the split's axis
	Rect  Rect
}

// Geometry is a tree laid out on an area: the panes in Leaves order and the
// borders of the splits, parents before children.
type Geometry struct {
	Area    Rect
	Panes   []Pane
	Borders []Border
}

// Rects lays the tree out on area, giving every pane at least minimum cells
// wherever the area has room for that (see MinArea). When it has not, sizes
// shrink deterministically, never below zero: the first panes (left, top)
// keep their minimum and the later ones shrink, down to nothing.
// A zoomed pane gets the whole area and nothing else is shown. The result
// depends only on the tree, area and minimum, never on earlier calls.
func (t *Tree) Rects(area Rect, minimum Size) Geometry {
	area = saneRect(area)
	if t.zoom != "" {
		return Geometry{Area: area, Panes: []Pane{{ID: t.zoom, Rect: area}}}
	}
	return t.SplitRects(area, minimum)
}

// SplitRects is Rects ignoring the zoom: the layout the panes have behind a
// zoomed one. Resize, Drag and Neighbor work on it.
func (t *Tree) SplitRects(area Rect, minimum Size) Geometry {
	g := Geometry{Area: saneRect(area)}
	var place func(n *node, r Rect, p Path)
	place = func(n *node, r Rect, p Path) {
		if n.leaf() {
			g.Panes = append(g.Panes, Pane{ID: n.pane, Rect: r})
			return
		}
		a, border, b := divide(n, r, saneSize(minimum))
		g.Borders = append(g.Borders, Border{Split: p, Axis: n.axis, Rect: border})
		place(n.kids[0], a, p+"0")
		place(n.kids[1], b, p+"1")
	}
	if t.root != nil {
		place(t.root, g.Area, "")
	}
	return g
}

// MinArea returns the smallest area in which Rects gives every pane at
// least minimum cells.
func (t *Tree) MinArea(minimum Size) Size {
	if t.root == nil {
		return Size{}
	}
	minimum = saneSize(minimum)
	return Size{W: extent(t.root, Horizontal, minimum), H: extent(t.root, Vertical, minimum)}
}

// saneRect and saneSize clamp negative sizes to zero.
func saneRect(r Rect) Rect {
	r.W, r.H = max(r.W, 0), max(r.H, 0)
	return r
}

func saneSize(s Size) Size {
	s.W, s.H = max(s.W, 0), max(s.H, 0)
	return s
}

// divide cuts r, the area of split n, into its first child, the border and
// its second child.
func divide(n *node, r Rect, minimum Size) (a, border, b Rect) {
	minA, minB := extent(n.kids[0], n.axis, minimum), extent(n.kids[1], n.axis, minimum)
	if n.axis == Horizontal {
		first, line := firstExtent(r.W, n.ratio, minA, minB)
		a = Rect{r.X, r.Y, first, r.H}
		border = Rect{r.X + first, r.Y, line, r.H}
		b = Rect{r.X + first + line, r.Y, r.W - first - line, r.H}
		return a, border, b
	}
	first, line := firstExtent(r.H, n.ratio, minA, minB)
	a = Rect{r.X, r.Y, r.W, first}
	border = Rect{r.X, r.Y + first, r.W, line}
	b = Rect{r.X, r.Y + first + line, r.W, r.H - first - line}
	return a, border, b
}

// firstExtent splits total cells into the first child's share and the
// border's (1, or 0 when total is 0); the second child gets the rest.
func firstExtent(total int, ratio float64, minA, minB int) (first, line int) {
	if total <= 0 {
		return 0, 0
	}
	avail := total - 1
	if minA+minB > avail {
		// Too small for both minimums: the first child (left or top)
		// keeps what it can of its minimum and the second gets the rest,
		// so the panes that are shown are whole, as in tmux.
		return min(minA, avail), 1
	}
	// Floor, not round: an even chain (ratio 1/n, then 1/(n-1), ...) then
	// gives every pane the floor or ceiling of the average, as tmux does.
	// The epsilon absorbs float error, so a ratio set to first/avail gives
	// back exactly first.
	want := int(math.Floor(ratio*float64(avail) + 1e-9))
	return min(max(want, minA), avail-minB), 1
}

// extent is the fewest cells along axis that subtree n needs for every pane
// to get minimum.
func extent(n *node, axis Axis, minimum Size) int {
	if n.leaf() {
		if axis == Horizontal {
			return minimum.W
		}
		return minimum.H
	}
	a, b := extent(n.kids[0], axis, minimum), extent(n.kids[1], axis, minimum)
	if n.axis == axis {
		return a + 1 + b
	}
	return max(a, b)
}

// Pane returns the rectangle of pane id, and whether it is shown.
func (g Geometry) Pane(id string) (Rect, bool) {
	for _, p := range g.Panes {
		if p.ID == id {
			return p.Rect, true
		}
	}
	return Rect{}, false
}

// PaneAt returns the pane whose rectangle holds cell (x, y), for mouse
// clicks. It reports false on a border or outside the area.
func (g Geometry) PaneAt(x, y int) (string, bool) {
	for _, p := range g.Panes {
		if p.Rect.Contains(x, y) {
			return p.ID, true
		}
	}
	return "", false
}

// BorderAt returns the border holding cell (x, y), for mouse drags. Where
// borders meet, the cell belongs to the outer split's border, which runs
// through the junction.
func (g Geometry) BorderAt(x, y int) (Border, bool) {
	for _, b := range g.Borders {
		if b.Rect.Contains(x, y) {
			return b, true
		}
	}
	return Border{}, false
}
