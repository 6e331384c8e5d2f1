package layout

import (
	"strings"
	"testing"
)

// draw renders a geometry as text: each pane filled with the first letter
// of its id, borders of Horizontal splits as '|' and of Vertical ones as
// '-', and '?' for a cell nothing covers.
func draw(g Geometry) string {
	a := g.Area
	grid := make([][]byte, a.H)
	for y := range grid {
		grid[y] = []byte(strings.Repeat("?", a.W))
	}
	fill := func(r Rect, c byte) {
		for y := r.Y; y < r.Y+r.H; y++ {
			for x := r.X; x < r.X+r.W; x++ {
				grid[y-a.Y][x-a.X] = c
			}
		}
	}
	for _, p := range g.Panes {
		fill(p.Rect, p.ID[0])
	}
	for _, b := range g.Borders {
		fill(b.Rect, map[Axis]byte{Horizontal: '|', Vertical: '-'}[b.Axis])
	}
	lines := make([]string, len(grid))
	for y, row := range grid {
		lines[y] = string(row)
	}
	return strings.Join(lines, "\n")
}

// picture trims the leading newline and indentation of an inline picture.
func picture(s string) string {
	lines := strings.Split(strings.TrimPrefix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

func TestPictures(t *testing.T) {
	five := []string{"a", "b", "c", "d", "e"}
	tests := []struct {
		name   string
		tr     *Tree
		preset *Preset
		zoom   string
		area   Rect
		want   string
	}{
		{"even-horizontal", tree(chain(five[:3], Vertical)), ptr(EvenHorizontal), "", Rect{0, 0, 11, 3}, `
			aaa|bbb|ccc
			aaa|bbb|ccc
			aaa|bbb|ccc`},
		{"even-vertical", tree(chain(five[:3], Horizontal)), ptr(EvenVertical), "", Rect{0, 0, 4, 5}, `
			aaaa
			----
			bbbb
			----
			cccc`},
		{"main-vertical", tree(chain(five[:4], Horizontal)), ptr(MainVertical), "", Rect{0, 0, 11, 5}, `
			aaaaa|bbbbb
			aaaaa|-----
			aaaaa|ccccc
			aaaaa|-----
			aaaaa|ddddd`},
		{"main-horizontal", tree(chain(five[:3], Horizontal)), ptr(MainHorizontal), "", Rect{0, 0, 11, 5}, `
			aaaaaaaaaaa
			aaaaaaaaaaa
			-----------
			bbbbb|ccccc
			bbbbb|ccccc`},
		{"tiled five: a short last row is shared", tree(chain(five, Horizontal)), ptr(Tiled), "", Rect{0, 0, 11, 5}, `
			aaa|bbb|ccc
			aaa|bbb|ccc
			-----------
			ddddd|eeeee
			ddddd|eeeee`},
		{"nested with an offset area", tree(h(0.3, leaf("a"), v(0.5, h(0.5, leaf("b"), leaf("c")), leaf("d")))), nil, "", Rect{3, 2, 12, 4}, `
			aaa|bbb|cccc
			aaa|--------
			aaa|dddddddd
			aaa|dddddddd`},
		{"zoomed pane fills the area", tree(h(0.5, leaf("a"), leaf("b"))), nil, "b", Rect{0, 0, 5, 2}, `
			bbbbb
			bbbbb`},
		{"too small degrades without gaps", tree(chain(five, Horizontal)), ptr(EvenHorizontal), "", Rect{0, 0, 6, 1}, `
			aa|bb|`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.preset != nil {
				mustOK(t, tc.tr.Apply(*tc.preset))
			}
			if tc.zoom != "" {
				mustOK(t, tc.tr.Zoom(tc.zoom))
			}
			got := draw(checkGeometry(t, tc.tr, tc.area, small))
			if want := picture(tc.want); got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }
