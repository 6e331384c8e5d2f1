package layout

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// Test helpers: tree builders and the invariants every test case checks.

// leaf, h and v build trees for table tests: h(0.5, leaf("a"), leaf("b"))
// is a side-by-side split.
func leaf(id string) *node { return &node{pane: id} }

func h(ratio float64, a, b *node) *node {
	return &node{axis: Horizontal, ratio: ratio, kids: [2]*node{a, b}}
}

func v(ratio float64, a, b *node) *node {
	return &node{axis: Vertical, ratio: ratio, kids: [2]*node{a, b}}
}

// tree wraps root with the focus on its first pane.
func tree(root *node) *Tree {
	return &Tree{root: root, focus: edgeLeaf(root, true)}
}

// checkTree fails the test unless t is well formed: ids unique and
// non-empty, splits with two children, ratios in (0, 1), valid axes, and
// focus and zoom naming panes (zoom only on the focused pane).
func checkTree(t testing.TB, tr *Tree) {
	t.Helper()
	if err := treeProblem(tr); err != nil {
		t.Fatalf("broken tree %v: %v", tr, err)
	}
}

func treeProblem(tr *Tree) error {
	seen := map[string]bool{}
	var bad error
	walk(tr.root, "", func(n *node, p Path) {
		if err := nodeProblem(n, seen); err != nil && bad == nil {
			bad = fmt.Errorf("at %q: %w", p, err)
		}
	})
	switch {
	case bad != nil:
		return bad
	case (tr.root == nil) != (tr.focus == ""):
		return fmt.Errorf("focus %q on a tree with root %v", tr.focus, tr.root != nil)
	case tr.focus != "" && !seen[tr.focus]:
		return fmt.Errorf("focus %q is not a pane", tr.focus)
	case tr.zoom != "" && tr.zoom != tr.focus:
		return fmt.Errorf("zoom %q is not the focus %q", tr.zoom, tr.focus)
	}
	return nil
}

func nodeProblem(n *node, seen map[string]bool) error {
	if n.leaf() {
		if n.pane == "" || seen[n.pane] || n.kids[1] != nil {
			return fmt.Errorf("bad leaf %q (seen %v)", n.pane, seen[n.pane])
		}
		seen[n.pane] = true
		return nil
	}
	if n.kids[1] == nil || !n.axis.valid() || !(n.ratio > 0 && n.ratio < 1) || n.pane != "" {
		return fmt.Errorf("bad split %+v", *n)
	}
	return nil
}

// checkGeometry fails the test unless Rects(area, minimum) tiles the area
// exactly with no overlap, lists every pane once in order (or the zoomed
// one alone), gives every pane its minimum when the area allows, agrees
// with the hit tests on every cell, and is the same when computed again.
func checkGeometry(t testing.TB, tr *Tree, area Rect, minimum Size) Geometry {
	t.Helper()
	g := tr.Rects(area, minimum)
	if err := geometryProblem(tr, g, area, minimum); err != nil {
		t.Fatalf("tree %v on %+v min %+v: %v\ngeometry %+v", tr, area, minimum, err, g)
	}
	if again := tr.Rects(area, minimum); !reflect.DeepEqual(g, again) {
		t.Fatalf("tree %v on %+v: Rects not stable:\n%+v\n%+v", tr, area, g, again)
	}
	if tr.zoom != "" {
		behind := tr.Clone()
		behind.Unzoom()
		checkGeometry(t, behind, area, minimum)
	}
	return g
}

func geometryProblem(tr *Tree, g Geometry, area Rect, minimum Size) error {
	if err := membershipProblem(tr, g, saneRect(area)); err != nil {
		return err
	}
	if tr.root == nil {
		return nil // an empty tree shows nothing; membership checked that
	}
	if err := tilingProblem(g); err != nil {
		return err
	}
	return minimumProblem(tr, g, minimum)
}

// membershipProblem checks which panes and borders are listed.
func membershipProblem(tr *Tree, g Geometry, area Rect) error {
	ids := make([]string, len(g.Panes))
	for i, p := range g.Panes {
		ids[i] = p.ID
	}
	switch {
	case g.Area != area:
		return fmt.Errorf("area %+v, want %+v", g.Area, area)
	case tr.zoom != "":
		if len(g.Panes) != 1 || g.Panes[0] != (Pane{tr.zoom, area}) || len(g.Borders) != 0 {
			return fmt.Errorf("zoomed %q should fill the area alone", tr.zoom)
		}
	case !slices.Equal(ids, tr.Leaves()):
		return fmt.Errorf("panes %v, want leaves %v", ids, tr.Leaves())
	case len(g.Borders) != max(len(ids)-1, 0):
		return fmt.Errorf("%d borders for %d panes", len(g.Borders), len(ids))
	}
	return nil
}

// tilingProblem paints every rectangle onto the area and checks each cell
// is painted exactly once and that the hit tests find its owner.
func tilingProblem(g Geometry) error {
	a := g.Area
	owner := make([]int, a.W*a.H) // 0 none, i+1 pane i, -(i+1) border i
	paint := func(r Rect, who int) error {
		if r.W < 0 || r.H < 0 || (!r.Empty() && !inside(r, a)) {
			return fmt.Errorf("rect %+v negative or outside %+v", r, a)
		}
		for y := r.Y; y < r.Y+r.H; y++ {
			for x := r.X; x < r.X+r.W; x++ {
				o := &owner[(y-a.Y)*a.W+x-a.X]
				if *o != 0 {
					return fmt.Errorf("cell %d,%d painted twice", x, y)
				}
				*o = who
			}
		}
		return nil
	}
	for i, p := range g.Panes {
		if err := paint(p.Rect, i+1); err != nil {
			return fmt.Errorf("pane %q: %w", p.ID, err)
		}
	}
	for i, b := range g.Borders {
		if err := checkBorderShape(b); err != nil {
			return err
		}
		if err := paint(b.Rect, -(i + 1)); err != nil {
			return fmt.Errorf("border %q: %w", b.Split, err)
		}
	}
	return hitProblem(g, owner)
}

func inside(r, a Rect) bool {
	return r.X >= a.X && r.Y >= a.Y && r.X+r.W <= a.X+a.W && r.Y+r.H <= a.Y+a.H
}

// checkBorderShape checks a border is one cell thick across its axis.
func checkBorderShape(b Border) error {
	_, thick := span(b.Rect, b.Axis)
	if thick > 1 {
		return fmt.Errorf("border %q is %d cells thick", b.Split, thick)
	}
	return nil
}

// hitProblem checks every cell was painted and PaneAt/BorderAt find it.
func hitProblem(g Geometry, owner []int) error {
	a := g.Area
	for i, o := range owner {
		x, y := a.X+i%a.W, a.Y+i/a.W
		id, onPane := g.PaneAt(x, y)
		b, onBorder := g.BorderAt(x, y)
		switch {
		case o == 0:
			return fmt.Errorf("cell %d,%d not covered", x, y)
		case o > 0 && (!onPane || id != g.Panes[o-1].ID || onBorder):
			return fmt.Errorf("cell %d,%d: PaneAt %q %v, BorderAt %v", x, y, id, onPane, onBorder)
		case o < 0 && (onPane || !onBorder || b != g.Borders[-o-1]):
			return fmt.Errorf("cell %d,%d: BorderAt %+v %v, PaneAt %v", x, y, b, onBorder, onPane)
		}
	}
	return nil
}

// minimumProblem checks every pane got minimum when the area allows it.
func minimumProblem(tr *Tree, g Geometry, minimum Size) error {
	need, m := tr.MinArea(minimum), saneSize(minimum)
	if tr.zoom != "" || g.Area.W < need.W || g.Area.H < need.H {
		return nil
	}
	for _, p := range g.Panes {
		if p.Rect.W < m.W || p.Rect.H < m.H {
			return fmt.Errorf("pane %q is %dx%d, under the minimum %dx%d", p.ID, p.Rect.W, p.Rect.H, m.W, m.H)
		}
	}
	return nil
}
