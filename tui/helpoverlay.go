package tui

// This file is the help overlay component: the keymap in a box over the
// middle of the screen, shown by the help action until any key. Like a
// bubbles component it has its own model, Update and View; the root shows
// it, hands it keys while it is shown and draws its View centred.

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	uv "github.com/charmbracelet/ultraviolet"
)

// helpOverlay is the keymap's help; shown says whether it covers the panes.
type helpOverlay struct {
	km    KeyMap
	theme Theme
	h     help.Model
	shown bool
}

// helpClosedMsg says a key closed the help overlay.
type helpClosedMsg struct{}

// newHelpOverlay is the hidden overlay for km, styled with t.
func newHelpOverlay(km KeyMap, t Theme) helpOverlay {
	h := help.New()
	h.Styles.FullKey = lipgloss.NewStyle().Foreground(t.BorderFocus).Bold(true)
	h.Styles.FullDesc = lipgloss.NewStyle().Foreground(t.OverlayFg)
	h.Styles.FullSeparator = lipgloss.NewStyle()
	h.ShowAll = true
	return helpOverlay{km: km, theme: t, h: h}
}

// show is the overlay shown.
func (o helpOverlay) show() helpOverlay {
	o.shown = true
	return o
}

// Update closes the shown overlay on any key press, returning
// helpClosedMsg; anything else changes nothing and returns nil.
func (o helpOverlay) Update(msg tea.Msg) (helpOverlay, tea.Msg) {
	if _, ok := msg.(tea.KeyPressMsg); !ok || !o.shown {
		return o, nil
	}
	o.shown = false
	return o, helpClosedMsg{}
}

// View draws the box over the middle of cv.
func (o helpOverlay) View(cv *lipgloss.Canvas) {
	box := o.box(cv.Width())
	x := max((cv.Width()-lipgloss.Width(box))/2, 0)
	y := max((cv.Height()-lipgloss.Height(box))/2, 0)
	uv.NewStyledString(box).Draw(cv, uv.Rect(x, y, lipgloss.Width(box), lipgloss.Height(box)))
}

// box is the keymap in a box, its columns fitted to at most width cells
// where they can be.
func (o helpOverlay) box(width int) string {
	title := lipgloss.NewStyle().Bold(true).Foreground(o.theme.TitleFocus).
		Render("clowder keys: press " + o.km.Prefix.Help().Key + ", then a key below (any key closes)")
	body := lipgloss.JoinVertical(lipgloss.Left, title, "", o.columns(width-6))
	return lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(o.theme.OverlayBorder).
		Padding(0, 1).Render(body)
}

// columns lays the keymap's columns side by side, in as many rows of
// columns as the width needs.
func (o helpOverlay) columns(width int) string {
	groups := o.km.FullHelp()
	for per := len(groups); per > 1; per-- {
		if out := o.rows(groups, per); lipgloss.Width(out) <= width {
			return out
		}
	}
	return o.rows(groups, 1)
}

// rows renders groups per columns to a row, rows separated by a blank line.
func (o helpOverlay) rows(groups [][]key.Binding, per int) string {
	var rows []string
	for i := 0; i < len(groups); i += per {
		rows = append(rows, o.h.FullHelpView(groups[i:min(i+per, len(groups))]))
	}
	return strings.Join(rows, "\n\n")
}
