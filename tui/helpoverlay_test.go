package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// helpFor is the hidden help overlay of the default keymap and theme.
func helpFor(t *testing.T) helpOverlay {
	t.Helper()
	m, _ := newTestModel(t, nil, nil)
	return newHelpOverlay(m.km, m.theme)
}

func TestHelpOverlayAnyKeyClosesIt(t *testing.T) {
	o := helpFor(t).show()
	if got, out := o.Update(tea.WindowSizeMsg{Width: 1, Height: 1}); !got.shown || out != nil {
		t.Errorf("a resize: shown %v, result %+v", got.shown, out)
	}
	o, out := o.Update(keyOf("x"))
	if o.shown || out != (helpClosedMsg{}) {
		t.Errorf("a key: shown %v, result %+v", o.shown, out)
	}
	if _, out := o.Update(keyOf("x")); out != nil {
		t.Errorf("a key while hidden: result %+v", out)
	}
}

func TestHelpOverlayViewDrawsTheBoxInTheMiddle(t *testing.T) {
	o := helpFor(t)
	box := o.box(120)
	cv := lipgloss.NewCanvas(120, 40)
	o.View(cv)
	x, y := (120-lipgloss.Width(box))/2, (40-lipgloss.Height(box))/2
	if got := cv.CellAt(x, y).Content + cv.CellAt(x+lipgloss.Width(box)-1, y+lipgloss.Height(box)-1).Content; got != "╭╯" {
		t.Errorf("corners at %d,%d: %q", x, y, got)
	}
}

func TestHelpOverlayViewStacksColumnsWhenNarrow(t *testing.T) {
	o := helpFor(t)
	wide, narrow := o.box(200), o.box(60)
	if !strings.Contains(wide, "clowder keys: press C-Space") {
		t.Errorf("no title in\n%s", wide)
	}
	if lipgloss.Width(wide) <= lipgloss.Width(narrow) || lipgloss.Height(wide) >= lipgloss.Height(narrow) {
		t.Errorf("at 200: %dx%d, at 60: %dx%d; want fewer, longer columns when narrow",
			lipgloss.Width(wide), lipgloss.Height(wide), lipgloss.Width(narrow), lipgloss.Height(narrow))
	}
}
