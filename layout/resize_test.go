package layout

import (
	"errors"
	"reflect"
	"testing"
)

func TestResize(t *testing.T) {
	pair := func() *Tree { return tree(h(0.5, leaf("a"), leaf("b"))) }
	three := func() *Tree { return tree(h(0.5, leaf("a"), h(0.5, leaf("b"), leaf("c")))) }
	mixed := func() *Tree { return tree(h(0.5, v(0.5, leaf("a"), leaf("b")), leaf("c"))) }
	area := Rect{0, 0, 81, 21} // even splits give 40 | 1 | 40 and 10 / 1 / 10
	tests := []struct {
		name  string
		start *Tree
		id    string
		dir   Direction
		n     int
		check string // the pane whose rect is compared
		want  Rect
	}{
		{"grow right moves the right border", pair(), "a", Right, 5, "a", Rect{0, 0, 45, 21}},
		{"negative n shrinks", pair(), "a", Right, -5, "a", Rect{0, 0, 35, 21}},
		{"grow left moves the left border", pair(), "b", Left, 5, "b", Rect{36, 0, 45, 21}},
		{"right on the rightmost pane moves its left border right", pair(), "b", Right, 5, "b", Rect{46, 0, 35, 21}},
		{"left on the leftmost pane moves its right border left", pair(), "a", Left, 5, "a", Rect{0, 0, 35, 21}},
		{"stops at the minimum", pair(), "a", Right, 1000, "b", Rect{79, 0, 2, 21}},
		{"no split on that axis leaves it", pair(), "a", Down, 3, "a", Rect{0, 0, 40, 21}},
		{"nearest ancestor with a border on that side: inner", three(), "b", Right, 4, "b", Rect{41, 0, 23, 21}},
		{"nearest ancestor with a border on that side: outer", three(), "b", Left, 4, "b", Rect{37, 0, 23, 21}},
		{"across axes the horizontal ancestor moves", mixed(), "b", Right, 2, "b", Rect{0, 11, 42, 10}},
		{"vertical grow down", mixed(), "a", Down, 3, "a", Rect{0, 0, 40, 13}},
		{"vertical grow up on the bottom pane", mixed(), "b", Up, 3, "b", Rect{0, 8, 40, 13}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := tc.start
			mustOK(t, tr.Resize(tc.id, tc.dir, tc.n, area, small))
			g := checkGeometry(t, tr, area, small)
			if got, _ := g.Pane(tc.check); got != tc.want {
				t.Errorf("%s = %v, want %v (tree %v)", tc.check, got, tc.want, tr)
			}
			checkTree(t, tr)
		})
	}
}

func TestResizeMovesExactlyOneCellPerStep(t *testing.T) {
	for _, width := range []int{7, 80, 81, 203, 1000} {
		tr := tree(h(0.5, leaf("a"), leaf("b")))
		area := Rect{0, 0, width, 3}
		start, _ := tr.Rects(area, small).Pane("a")
		for step := 1; start.W+step <= width-1-small.W; step++ {
			mustOK(t, tr.Resize("a", Right, 1, area, small))
			if got, _ := tr.Rects(area, small).Pane("a"); got.W != start.W+step {
				t.Fatalf("width %d step %d: a is %d wide, want %d", width, step, got.W, start.W+step)
			}
		}
	}
}

func TestResizeAndDragSurviveHugeArguments(t *testing.T) {
	const huge = int(^uint(0) >> 1)
	tr := tree(h(0.5, leaf("a"), leaf("b")))
	area := Rect{0, 0, 81, 5}
	for _, step := range []struct {
		name  string
		apply func() error
		wantA int
	}{
		{"grow by MaxInt", func() error { return tr.Resize("a", Right, huge, area, small) }, 78},
		{"grow by MinInt", func() error { return tr.Resize("a", Right, -huge-1, area, small) }, 2},
		{"left by MinInt", func() error { return tr.Resize("a", Left, -huge-1, area, small) }, 78},
		{"drag to MinInt", func() error { return tr.Drag("", -huge-1, area, small) }, 2},
		{"drag to MaxInt", func() error { return tr.Drag("", huge, area, small) }, 78},
	} {
		mustOK(t, step.apply())
		if a, _ := tr.Rects(area, small).Pane("a"); a.W != step.wantA {
			t.Errorf("%s: a is %d wide, want %d", step.name, a.W, step.wantA)
		}
	}
}

func TestResizeErrorsAndTinyAreas(t *testing.T) {
	tr := tree(h(0.5, leaf("a"), leaf("b")))
	if err := tr.Resize("x", Right, 1, screen, small); !errors.Is(err, ErrUnknownPane) {
		t.Errorf("unknown pane: err = %v", err)
	}
	if err := tr.Resize("a", Direction(9), 1, screen, small); err == nil {
		t.Errorf("invalid direction accepted")
	}
	before := tr.Clone()
	for _, area := range []Rect{{0, 0, 0, 0}, {0, 0, 1, 1}, {0, 0, 4, 1}} {
		mustOK(t, tr.Resize("a", Right, 3, area, small))
		if !tr.Equal(before) {
			t.Errorf("resize in %v, too small for the minimums, changed %v", area, tr)
		}
	}
}

func TestDrag(t *testing.T) {
	area := Rect{10, 5, 41, 21}
	tests := []struct {
		name  string
		split Path
		pos   int
		check string
		want  Rect
	}{
		{"outer border to a column", "", 30, "a", Rect{10, 5, 20, 21}},
		{"outer border past the left stops at the minimum", "", -50, "a", Rect{10, 5, 2, 21}},
		{"outer border past the right stops at the minimum", "", 500, "c", Rect{49, 16, 2, 10}},
		{"inner border to a row", "1", 9, "b", Rect{31, 5, 20, 4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := tree(h(0.5, leaf("a"), v(0.5, leaf("b"), leaf("c"))))
			mustOK(t, tr.Drag(tc.split, tc.pos, area, Size{2, 1}))
			g := checkGeometry(t, tr, area, Size{2, 1})
			if got, _ := g.Pane(tc.check); got != tc.want {
				t.Errorf("%s = %v, want %v", tc.check, got, tc.want)
			}
		})
	}
}

func TestDragChangesOnlyThePanesTouchingTheBorder(t *testing.T) {
	tr := tree(h(0.5, h(0.5, leaf("x"), leaf("a")), h(0.5, leaf("b"), leaf("f"))))
	area := Rect{0, 0, 83, 5}
	mustOK(t, tr.Drag("", 51, area, small))
	g := checkGeometry(t, tr, area, small)
	want := []Rect{{0, 0, 20, 5}, {21, 0, 30, 5}, {52, 0, 10, 5}, {63, 0, 20, 5}}
	if got := paneRects(g); !reflect.DeepEqual(got, want) {
		t.Errorf("panes %v, want %v", got, want)
	}
}

func TestDragPutsTheBorderOnEveryAllowedCell(t *testing.T) {
	area := Rect{3, 0, 97, 4}
	tr := tree(h(0.5, leaf("a"), leaf("b")))
	for pos := area.X + small.W; pos < area.X+area.W-small.W; pos++ {
		mustOK(t, tr.Drag("", pos, area, small))
		if b := tr.Rects(area, small).Borders[0].Rect; b.X != pos {
			t.Fatalf("dragged to %d, border at %d", pos, b.X)
		}
	}
}

func TestDragRejectsPathsWithoutASplit(t *testing.T) {
	tr := tree(h(0.5, leaf("a"), leaf("b")))
	for _, p := range []Path{"0", "1", "00", "111", "2", "x", "\xff"} {
		if err := tr.Drag(p, 3, screen, small); err == nil {
			t.Errorf("Drag(%q) accepted", p)
		}
	}
	if err := (&Tree{}).Drag("", 3, screen, small); err == nil {
		t.Errorf("Drag on an empty tree accepted")
	}
}

func TestNeighbor(t *testing.T) {
	grid := tree(v(0.5, h(0.5, leaf("a"), leaf("b")), h(0.5, leaf("c"), leaf("d"))))
	tall := tree(h(0.5, leaf("a"), v(0.3, leaf("b"), leaf("c"))))
	overlap := tree(h(0.5, v(0.5, leaf("a"), leaf("z")), v(0.25, leaf("b"), leaf("c"))))
	// r is rows 2-12 (centre row 7); b overlaps it on 4 rows, c on row 7
	// only, d on 4 rows.
	centre := tree(h(0.5, v(1.0/12, leaf("top"), leaf("r")), v(0.5, leaf("b"), v(0.2, leaf("c"), leaf("d")))))
	tests := []struct {
		name string
		tr   *Tree
		area Rect
		from string
		dir  Direction
		want string
	}{
		{"grid right", grid, Rect{0, 0, 21, 11}, "a", Right, "b"},
		{"grid down", grid, Rect{0, 0, 21, 11}, "a", Down, "c"},
		{"grid left", grid, Rect{0, 0, 21, 11}, "d", Left, "c"},
		{"grid up", grid, Rect{0, 0, 21, 11}, "d", Up, "b"},
		{"left past the edge wraps", grid, Rect{0, 0, 21, 11}, "a", Left, "b"},
		{"up past the edge wraps", grid, Rect{0, 0, 21, 11}, "b", Up, "d"},
		{"right past the edge wraps", grid, Rect{0, 0, 21, 11}, "d", Right, "c"},
		{"down past the edge wraps", grid, Rect{0, 0, 21, 11}, "c", Down, "a"},
		{"the pane on the centre line wins", tall, Rect{0, 0, 21, 11}, "a", Right, "c"},
		{"from a small pane back to the tall one", tall, Rect{0, 0, 21, 11}, "b", Left, "a"},
		{"the most overlap wins off the centre line", overlap, Rect{0, 0, 21, 13}, "a", Right, "b"},
		{"the pane on the centre line wins off the centre line too", overlap, Rect{0, 0, 21, 13}, "z", Right, "c"},
		{"centre line beats more overlap", centre, Rect{0, 0, 21, 13}, "r", Right, "c"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok, err := tc.tr.Neighbor(tc.from, tc.dir, tc.area, small)
			if err != nil || !ok || got != tc.want {
				t.Errorf("Neighbor(%s, %v) = %q %v %v, want %q", tc.from, tc.dir, got, ok, err, tc.want)
			}
		})
	}
}

func TestNeighborNoneAndErrors(t *testing.T) {
	tr := tree(h(0.5, leaf("a"), leaf("b")))
	if got, ok, err := tr.Neighbor("a", Up, screen, small); ok || err != nil {
		t.Errorf("Up from a side-by-side pane = %q %v %v, want none", got, ok, err)
	}
	if _, ok, _ := New("a").Neighbor("a", Right, screen, small); ok {
		t.Errorf("a lone pane has a neighbour")
	}
	if _, _, err := tr.Neighbor("x", Right, screen, small); !errors.Is(err, ErrUnknownPane) {
		t.Errorf("unknown pane: err = %v", err)
	}
	if _, _, err := tr.Neighbor("a", Direction(9), screen, small); err == nil {
		t.Errorf("invalid direction accepted")
	}
	mustOK(t, tr.Zoom("a"))
	if got, ok, _ := tr.Neighbor("a", Right, screen, small); !ok || got != "b" {
		t.Errorf("Neighbor ignores zoom: got %q %v", got, ok)
	}
}
