package layout

import (
	"fmt"
	"slices"
	"testing"
)

func ids(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("p%d", i)
	}
	return out
}

func TestPresetsKeepPanesFocusAndOrder(t *testing.T) {
	for _, p := range presets {
		for n := 1; n <= 9; n++ {
			t.Run(fmt.Sprintf("%v/%d", p, n), func(t *testing.T) {
				tr := tree(chain(ids(n), Vertical))
				last := ids(n)[n-1]
				mustOK(t, tr.Zoom(last))
				mustOK(t, tr.Apply(p))
				if got := tr.Leaves(); !slices.Equal(got, ids(n)) {
					t.Errorf("leaves %v, want %v", got, ids(n))
				}
				if tr.Focus() != last || tr.Zoomed() != "" {
					t.Errorf("focus %q zoom %q, want focus %q and no zoom", tr.Focus(), tr.Zoomed(), last)
				}
				checkTree(t, tr)
				for _, area := range []Rect{screen, {0, 0, 7, 5}, {0, 0, 211, 57}} {
					checkGeometry(t, tr, area, small)
				}
			})
		}
	}
}

func TestEvenPresetsDifferByAtMostOneCell(t *testing.T) {
	for n := 2; n <= 8; n++ {
		for w := 2 * n; w <= 240; w++ {
			tr := tree(chain(ids(n), Horizontal))
			g := tr.Rects(Rect{0, 0, w, 1}, Size{1, 1})
			lo, hi := w, 0
			for _, p := range g.Panes {
				lo, hi = min(lo, p.Rect.W), max(hi, p.Rect.W)
			}
			if hi-lo > 1 {
				t.Fatalf("%d panes on %d columns: widths from %d to %d", n, w, lo, hi)
			}
		}
	}
}

func TestTiledRows(t *testing.T) {
	tests := []struct {
		n    int
		rows []int
	}{
		{1, []int{1}}, {2, []int{2}}, {3, []int{2, 1}}, {4, []int{2, 2}},
		{5, []int{3, 2}}, {7, []int{3, 3, 1}}, {9, []int{3, 3, 3}}, {10, []int{4, 4, 2}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.n), func(t *testing.T) {
			tr := tree(chain(ids(tc.n), Horizontal))
			mustOK(t, tr.Apply(Tiled))
			if got := rowCounts(tr.Rects(Rect{0, 0, 100, 40}, small)); !slices.Equal(got, tc.rows) {
				t.Errorf("rows %v, want %v", got, tc.rows)
			}
		})
	}
}

// rowCounts counts the panes on each distinct top row, top to bottom.
func rowCounts(g Geometry) []int {
	var tops, counts []int
	for _, p := range g.Panes {
		i := slices.Index(tops, p.Rect.Y)
		if i < 0 {
			tops, counts = append(tops, p.Rect.Y), append(counts, 0)
			i = len(tops) - 1
		}
		counts[i]++
	}
	return counts
}

func TestApplyRefusesAnUnknownPresetAndKeepsAnEmptyTreeEmpty(t *testing.T) {
	if err := New("a").Apply(Preset(99)); err == nil {
		t.Errorf("Apply(Preset(99)) accepted")
	}
	empty := &Tree{}
	mustOK(t, empty.Apply(Tiled))
	if empty.Len() != 0 {
		t.Errorf("Apply on an empty tree made %v", empty)
	}
}

func TestEnumNames(t *testing.T) {
	tests := []struct {
		got  fmt.Stringer
		want string
	}{
		{Horizontal, "horizontal"}, {Vertical, "vertical"}, {Axis(5), "Axis(5)"},
		{After, "after"}, {Before, "before"}, {Side(5), "Side(5)"},
		{Left, "left"}, {Right, "right"}, {Up, "up"}, {Down, "down"}, {Direction(5), "Direction(5)"},
		{Tiled, "tiled"}, {Preset(77), "Preset(77)"},
	}
	for _, tc := range tests {
		if tc.got.String() != tc.want {
			t.Errorf("String() = %q, want %q", tc.got.String(), tc.want)
		}
	}
}
