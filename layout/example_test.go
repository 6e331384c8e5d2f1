package layout_test

import (
	"fmt"

	"clowder/layout"
)

// A first start: an agent with a shell to its right, then a log pane under
// the shell, laid out on an 80x24 terminal.
func Example() {
	t := layout.New("agent")
	_ = t.Split("agent", "shell", layout.Horizontal, layout.After) // ids are fresh
	_ = t.Split("shell", "log", layout.Vertical, layout.After)
	area := layout.Rect{X: 0, Y: 0, W: 80, H: 24}
	g := t.Rects(area, layout.Size{W: 2, H: 1})
	for _, p := range g.Panes {
		fmt.Printf("%-5s %+v\n", p.ID, p.Rect)
	}
	for _, b := range g.Borders {
		fmt.Printf("border %v %+v\n", b.Axis, b.Rect)
	}
	fmt.Println("focus", t.Focus())
	// Output:
	// agent {X:0 Y:0 W:39 H:24}
	// shell {X:40 Y:0 W:40 H:11}
	// log   {X:40 Y:12 W:40 H:12}
	// border horizontal {X:39 Y:0 W:1 H:24}
	// border vertical {X:40 Y:11 W:40 H:1}
	// focus log
}

// A mouse drag: find the border under the pointer, then move it.
func ExampleTree_Drag() {
	t := layout.New("a")
	_ = t.Split("a", "b", layout.Horizontal, layout.After) // ids are fresh
	area, minimum := layout.Rect{W: 80, H: 24}, layout.Size{W: 2, H: 1}
	if b, ok := t.Rects(area, minimum).BorderAt(39, 10); ok {
		_ = t.Drag(b.Split, 59, area, minimum) // b.Split names a split of t
	}
	r, _ := t.Rects(area, minimum).Pane("a")
	fmt.Println(r.W)
	// Output: 59
}

func ExampleTree_Neighbor() {
	t := layout.New("a")
	_ = t.Split("a", "b", layout.Horizontal, layout.After) // ids are fresh
	_ = t.Split("b", "c", layout.Vertical, layout.After)
	area, minimum := layout.Rect{W: 80, H: 24}, layout.Size{W: 2, H: 1}
	right, _, _ := t.Neighbor("a", layout.Right, area, minimum)
	wrapped, _, _ := t.Neighbor("c", layout.Right, area, minimum)
	fmt.Println(right, wrapped)
	// Output: c a
}

func ExampleUnmarshal() {
	_, err := layout.Unmarshal([]byte(`{"schema_version":2,"root":null}`))
	fmt.Println(err)
	// Output: decode layout: schema_version 2 is newer than this clowder supports (1); upgrade clowder
}
