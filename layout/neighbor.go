package layout

import "fmt"

// Directional focus moves, the way tmux's select-pane -L/-R/-U/-D finds
// the next pane: across the border on that side, wrapping around the area.

// Neighbor returns the pane next to pane id in direction dir when the tree
// is laid out (ignoring any zoom) on area: among the panes across the border
// on that side, the one that overlaps id's centre line, else the one that
// overlaps id the most, else the first in Leaves order. Past the edge of the
// area it wraps to the panes on the opposite edge, as tmux does. It reports
// false when there is no other pane that way.
func (t *Tree) Neighbor(id string, dir Direction, area Rect, minimum Size) (string, bool, error) {
	if !t.Has(id) {
		return "", false, fmt.Errorf("neighbor of %q: %w", id, ErrUnknownPane)
	}
	if !dir.valid() {
		return "", false, fmt.Errorf("neighbor of %q: invalid direction %v", id, dir)
	}
	g := t.SplitRects(area, minimum)
	from, _ := g.Pane(id)
	best, bestScore := "", 0
	for _, p := range g.Panes {
		if score := neighborScore(from, p.Rect, dir, g.Area); p.ID != id && score > bestScore {
			best, bestScore = p.ID, score
		}
	}
	return best, best != "", nil
}

// neighborScore rates candidate c as the neighbour of pane r in direction
// dir: 0 when c is not across r's border on that side, otherwise its overlap
// with r across the axis, lifted above every plain overlap when c also
// covers r's centre line.
func neighborScore(r, c Rect, dir Direction, area Rect) int {
	if !adjacent(r, c, dir, area) {
		return 0
	}
	rLo, rSize := span(r, cross(dir.axis()))
	cLo, cSize := span(c, cross(dir.axis()))
	overlap := min(rLo+rSize, cLo+cSize) - max(rLo, cLo)
	if overlap <= 0 {
		return 0
	}
	if centre := rLo + rSize/2; centre >= cLo && centre < cLo+cSize {
		overlap += area.W + area.H
	}
	return overlap
}

// adjacent reports whether c starts just past r's border in direction dir,
// or, when r touches the area's edge that way, whether c touches the
// opposite edge.
func adjacent(r, c Rect, dir Direction, area Rect) bool {
	rLo, rSize := span(r, dir.axis())
	cLo, cSize := span(c, dir.axis())
	aLo, aSize := span(area, dir.axis())
	if dir.forward() {
		edge := rLo + rSize + 1
		if edge >= aLo+aSize {
			edge = aLo
		}
		return cLo == edge
	}
	end := rLo - 1
	if end <= aLo {
		end = aLo + aSize
	}
	return cLo+cSize == end
}

// cross returns the other axis.
func cross(a Axis) Axis {
	if a == Horizontal {
		return Vertical
	}
	return Horizontal
}
