package tui

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"

	"clowder/panes"
	"clowder/persist"
)

// A terminal bigger than a pane may be (a 4K display with a small font,
// a window dragged to 1000x400) asked the host for pane sizes it refuses
// (over panes.MaxCells or MaxCols): the status bar then showed the CLI's
// "give COLSxROWS ..." advice, and the pane stayed at its old size. The
// TUI asks for the nearest size within the bounds, as attach does.
func TestResizeOfAHugeTerminalAsksOnlyForSizesTheHostTakes(t *testing.T) {
	for _, sz := range [][2]int{{1000, 400}, {1100, 130}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m, h := twoPanes(t)
			n := len(h.resizes)
			_, cmd := m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			settle(t, m, cmd)
			prefix(t, m)
			typeText(t, m, "z") // one pane over the whole terminal
			if len(h.resizes) == n {
				t.Fatal("no resize went out")
			}
			for _, r := range h.resizes[n:] {
				var id string
				var cols, rows int
				if _, err := fmt.Sscanf(r, "%s %dx%d", &id, &cols, &rows); err != nil {
					t.Fatalf("resize %q: %v", r, err)
				}
				if err := panes.ValidateSize(persist.Size{Cols: cols, Rows: rows}); err != nil {
					t.Errorf("resize %s: %v", r, err)
				}
			}
		})
	}
}

// A split in such a terminal asked the host to spawn the new shell at
// the half's size, which the host refuses: the split failed. A terminal
// of one cell asked for sizes under the minimum.
func TestSpawnInATerminalOutOfPaneBoundsAsksForASizeTheHostTakes(t *testing.T) {
	for _, sz := range [][2]int{{1100, 130}, {700, 400}, {3, 3}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m, h := twoPanes(t)
			n := len(h.resizes)
			_, cmd := m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			settle(t, m, cmd)
			prefix(t, m)
			typeText(t, m, "%")
			if len(h.spawned) != 1 {
				t.Fatalf("spawned %d panes, want 1", len(h.spawned))
			}
			s := h.spawned[0]
			if s.Cols != 0 || s.Rows != 0 {
				if err := panes.ValidateSize(persist.Size{Cols: int(s.Cols), Rows: int(s.Rows)}); err != nil {
					t.Errorf("spawn: %v", err)
				}
			}
			for _, r := range h.resizes[n:] {
				var id string
				var cols, rows int
				if _, err := fmt.Sscanf(r, "%s %dx%d", &id, &cols, &rows); err != nil {
					t.Fatalf("resize %q: %v", r, err)
				}
				if err := panes.ValidateSize(persist.Size{Cols: cols, Rows: rows}); err != nil {
					t.Errorf("resize %s: %v", r, err)
				}
			}
		})
	}
}
