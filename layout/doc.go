// Package layout is the pure split-tree algebra and geometry of clowder's
// window: which panes are where, and how big.
//
// Data model. A Tree is a binary split tree. A leaf is a pane id (a string
// chosen by the caller). A split has an Axis (Horizontal puts its two children
// side by side, Vertical stacks them) and a ratio in (0, 1): the share of the
// split's cells, not counting the one-cell border, that goes to the first
// child. Besides the nodes, the tree carries the focused pane and the zoomed
// pane (if any), so one value is everything layout.json needs.
//
// Geometry. Tree.Rects maps a tree onto an area of terminal cells, as tmux
// does: a split of width W becomes a | border | b with a.W + 1 + b.W == W, and
// the panes plus the borders tile the area exactly. Minimum pane sizes are a
// geometry-time parameter, never stored: ratios are not rewritten when the
// window shrinks, so a tree survives a trip through a tiny terminal unchanged.
// All coordinates are absolute cells of the area given; x grows to the right,
// y grows down.
//
// Files: tree.go (the value and its queries), ops.go (split, close, swap,
// zoom, focus), geometry.go (rectangles, borders, hit tests), resize.go
// (keyboard and mouse resize), neighbor.go (directional focus moves),
// preset.go (tmux's named layouts), json.go (the schema-versioned JSON
// form), enums.go (the typed enums and their names).
//
// Boundaries: layout imports none of clowder's packages, only the standard
// library, and does no I/O. It is not safe for concurrent mutation; callers
// hand Clone()d copies to other goroutines.
package layout
