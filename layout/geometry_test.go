package layout

import (
	"fmt"
	"reflect"
	"testing"
)

func TestRects(t *testing.T) {
	tests := []struct {
		name    string
		root    *node
		area    Rect
		minimum Size
		panes   []Rect
		borders []Rect
	}{
		{"one pane fills the area", leaf("a"), Rect{0, 0, 80, 24}, small,
			[]Rect{{0, 0, 80, 24}}, nil},
		{"even side by side: a.W + 1 + b.W == W, the odd cell goes second",
			h(0.5, leaf("a"), leaf("b")), Rect{0, 0, 80, 24}, small,
			[]Rect{{0, 0, 39, 24}, {40, 0, 40, 24}}, []Rect{{39, 0, 1, 24}}},
		{"even stacked", v(0.5, leaf("a"), leaf("b")), Rect{0, 0, 80, 24}, small,
			[]Rect{{0, 0, 80, 11}, {0, 12, 80, 12}}, []Rect{{0, 11, 80, 1}}},
		{"offset area gives absolute cells", h(0.5, leaf("a"), leaf("b")), Rect{5, 3, 21, 10}, small,
			[]Rect{{5, 3, 10, 10}, {16, 3, 10, 10}}, []Rect{{15, 3, 1, 10}}},
		{"nested split: outer border runs through the junction",
			h(0.5, leaf("a"), v(0.5, leaf("b"), leaf("c"))), Rect{0, 0, 11, 5}, small,
			[]Rect{{0, 0, 5, 5}, {6, 0, 5, 2}, {6, 3, 5, 2}}, []Rect{{5, 0, 1, 5}, {6, 2, 5, 1}}},
		{"tiny ratio is held at the first minimum", h(0.01, leaf("a"), leaf("b")), Rect{0, 0, 80, 24}, Size{10, 1},
			[]Rect{{0, 0, 10, 24}, {11, 0, 69, 24}}, []Rect{{10, 0, 1, 24}}},
		{"huge ratio is held at the second minimum", h(0.99, leaf("a"), leaf("b")), Rect{0, 0, 80, 24}, Size{10, 1},
			[]Rect{{0, 0, 69, 24}, {70, 0, 10, 24}}, []Rect{{69, 0, 1, 24}}},
		{"minimum of a subtree counts its own borders",
			h(0.9, leaf("a"), h(0.5, leaf("b"), leaf("c"))), Rect{0, 0, 30, 4}, Size{4, 1},
			[]Rect{{0, 0, 20, 4}, {21, 0, 4, 4}, {26, 0, 4, 4}}, []Rect{{20, 0, 1, 4}, {25, 0, 1, 4}}},
		{"too narrow: the first pane keeps its minimum", h(0.1, leaf("a"), leaf("b")), Rect{0, 0, 4, 2}, Size{2, 1},
			[]Rect{{0, 0, 2, 2}, {3, 0, 1, 2}}, []Rect{{2, 0, 1, 2}}},
		{"one column: the border takes it", h(0.5, leaf("a"), leaf("b")), Rect{0, 0, 1, 2}, small,
			[]Rect{{0, 0, 0, 2}, {1, 0, 0, 2}}, []Rect{{0, 0, 1, 2}}},
		{"zero area: everything empty", h(0.5, leaf("a"), leaf("b")), Rect{2, 2, 0, 0}, small,
			[]Rect{{2, 2, 0, 0}, {2, 2, 0, 0}}, []Rect{{2, 2, 0, 0}}},
		{"negative area counts as zero", v(0.5, leaf("a"), leaf("b")), Rect{0, 0, -4, -9}, small,
			[]Rect{{0, 0, 0, 0}, {0, 0, 0, 0}}, []Rect{{0, 0, 0, 0}}},
		{"negative minimum counts as zero", h(0.01, leaf("a"), leaf("b")), Rect{0, 0, 10, 1}, Size{-3, -3},
			[]Rect{{0, 0, 0, 1}, {1, 0, 9, 1}}, []Rect{{0, 0, 1, 1}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := tree(tc.root)
			g := checkGeometry(t, tr, tc.area, tc.minimum)
			if got := paneRects(g); !reflect.DeepEqual(got, tc.panes) {
				t.Errorf("panes %v, want %v", got, tc.panes)
			}
			if got := borderRects(g); !reflect.DeepEqual(got, tc.borders) {
				t.Errorf("borders %v, want %v", got, tc.borders)
			}
		})
	}
}

func paneRects(g Geometry) []Rect {
	var rs []Rect
	for _, p := range g.Panes {
		rs = append(rs, p.Rect)
	}
	return rs
}

func borderRects(g Geometry) []Rect {
	var rs []Rect
	for _, b := range g.Borders {
		rs = append(rs, b.Rect)
	}
	return rs
}

// sampleTrees are shapes the sweep tests lay out on many areas.
func sampleTrees() map[string]*Tree {
	trees := map[string]*Tree{
		"single":   New("a"),
		"nested":   tree(h(0.3, leaf("a"), v(0.6, h(0.5, leaf("b"), leaf("c")), leaf("d")))),
		"extreme":  tree(v(0.0001, h(0.9999, leaf("a"), leaf("b")), h(0.0001, leaf("c"), leaf("d")))),
		"deep":     tree(h(0.5, leaf("a"), h(0.5, leaf("b"), h(0.5, leaf("c"), h(0.5, leaf("d"), leaf("e")))))),
		"thirds":   tree(v(1.0/3, leaf("a"), v(0.5, leaf("b"), leaf("c")))),
		"cross":    tree(v(0.5, h(0.5, leaf("a"), leaf("b")), h(0.5, leaf("c"), leaf("d")))),
		"lopsided": tree(h(0.8, v(0.2, leaf("a"), v(0.7, leaf("b"), leaf("c"))), leaf("d"))),
	}
	for _, p := range presets {
		tr := tree(chain([]string{"a", "b", "c", "d", "e", "f", "g"}, Horizontal))
		if err := tr.Apply(p); err != nil {
			panic(err) // presets is the list Apply accepts
		}
		trees[p.String()] = tr
	}
	return trees
}

func TestRectsTileEveryAreaAndMinimum(t *testing.T) {
	minimums := []Size{{0, 0}, {1, 1}, {2, 1}, {5, 3}}
	for name, tr := range sampleTrees() {
		t.Run(name, func(t *testing.T) {
			for _, m := range minimums {
				for w := 0; w <= 40; w += 3 {
					for ht := 0; ht <= 14; ht++ {
						checkGeometry(t, tr, Rect{1, 2, w, ht}, m)
					}
				}
			}
		})
	}
}

func TestRatiosSurviveATripThroughATinyArea(t *testing.T) {
	for name, tr := range sampleTrees() {
		t.Run(name, func(t *testing.T) {
			before := tr.Clone()
			big := tr.Rects(screen, small)
			for _, tiny := range []Rect{{0, 0, 3, 2}, {0, 0, 0, 0}, {0, 0, 1, 1}} {
				checkGeometry(t, tr, tiny, small)
			}
			if after := tr.Rects(screen, small); !reflect.DeepEqual(big, after) || !tr.Equal(before) {
				t.Errorf("layout changed after a tiny area:\n%+v\n%+v", big, after)
			}
		})
	}
}

func TestMinArea(t *testing.T) {
	tests := []struct {
		root    *node
		minimum Size
		want    Size
	}{
		{leaf("a"), Size{2, 1}, Size{2, 1}},
		{h(0.5, leaf("a"), v(0.5, leaf("b"), leaf("c"))), Size{2, 1}, Size{5, 3}},
		{v(0.5, h(0.5, leaf("a"), leaf("b")), leaf("c")), Size{3, 2}, Size{7, 5}},
		{h(0.5, leaf("a"), leaf("b")), Size{-1, -1}, Size{1, 0}},
	}
	for _, tc := range tests {
		tr := tree(tc.root)
		t.Run(fmt.Sprint(tr), func(t *testing.T) {
			if got := tr.MinArea(tc.minimum); got != tc.want {
				t.Errorf("MinArea(%v) = %v, want %v", tc.minimum, got, tc.want)
			}
		})
	}
	if got := (&Tree{}).MinArea(Size{2, 2}); got != (Size{}) {
		t.Errorf("empty tree MinArea = %v", got)
	}
}

func TestHitTests(t *testing.T) {
	tr := tree(h(0.5, leaf("a"), v(0.5, leaf("b"), leaf("c"))))
	g := tr.Rects(Rect{0, 0, 11, 5}, small)
	tests := []struct {
		name   string
		x, y   int
		pane   string
		border Path
	}{
		{"left pane", 0, 0, "a", ""},
		{"top right pane", 10, 1, "b", ""},
		{"bottom right pane", 6, 4, "c", ""},
		{"vertical border", 5, 4, "", ""},
		{"junction belongs to the outer border", 5, 2, "", ""},
		{"inner horizontal border", 8, 2, "", "1"},
		{"outside", 11, 0, "", "-"},
		{"negative", -1, 0, "", "-"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id, onPane := g.PaneAt(tc.x, tc.y)
			b, onBorder := g.BorderAt(tc.x, tc.y)
			wantBorder := tc.pane == "" && tc.border != "-"
			if id != tc.pane || onPane != (tc.pane != "") || onBorder != wantBorder {
				t.Fatalf("PaneAt = %q %v, BorderAt = %+v %v", id, onPane, b, onBorder)
			}
			if wantBorder && b.Split != tc.border {
				t.Errorf("border split %q, want %q", b.Split, tc.border)
			}
		})
	}
	if r, ok := g.Pane("c"); !ok || r != (Rect{6, 3, 5, 2}) {
		t.Errorf("Pane(c) = %v %v", r, ok)
	}
	if _, ok := g.Pane("x"); ok {
		t.Errorf("Pane(x) found")
	}
}
