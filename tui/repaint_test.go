package tui

import (
	"math/rand"
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	uv "github.com/charmbracelet/ultraviolet"

	"clowder/supervisor/proto"
)

// drawRecorder stands in for the terminal: it records each frame's damage
// and the canvas as text.
type drawRecorder struct {
	dmg  []damage
	text []string
}

func (r *drawRecorder) draw(_ tea.View, cv *lipgloss.Canvas, d damage) {
	r.dmg = append(r.dmg, d)
	r.text = append(r.text, cv.Render())
}

// echoFrame is a partial frame that changes row y of a pane to text and
// puts the cursor after it.
func echoFrame(id string, cols, rows, y int, text string) *proto.ScreenFrame {
	f := &proto.ScreenFrame{Pane: id, Cols: uint16(cols), Rows: uint16(rows),
		Cursor: proto.FrameCursor{Visible: true, X: uint16(len(text)), Y: uint16(y)}}
	row := proto.FrameRow{Y: uint16(y)}
	for _, r := range text {
		row.Cells = append(row.Cells, proto.FrameCell{Text: string(r), Width: 1})
	}
	return &proto.ScreenFrame{Pane: f.Pane, Cols: f.Cols, Rows: f.Rows, Cursor: f.Cursor, Lines: []proto.FrameRow{row}}
}

// Issue 12: every frame from the host rebuilt the whole window and the
// terminal compared every cell, so an echo in a busy layout cost a full
// repaint. A frame that changes one row of a pane now repaints that row
// only, and the canvas is what a whole render makes of the same model.
func TestAnEchoRepaintsOnlyItsRow(t *testing.T) {
	m, _ := newTestModel(t, []proto.PaneInfo{running("p1", "one"), running("p2", "two"), running("p3", "three")}, nil)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	for _, id := range []string{"p1", "p2", "p3"} {
		p := m.panes[id]
		frame(t, m, id, p.size.W, p.size.H, proto.FrameModes{}, "$ ")
	}
	rec := &drawRecorder{}
	m.draw = rec.draw
	id := m.tree.Focus()
	p := m.panes[id]
	r, _ := m.geometry().Pane(id)
	m.Update(mailMsg{frames: map[string]*proto.ScreenFrame{id: echoFrame(id, p.size.W, p.size.H, 0, "$ a")}})
	if len(rec.dmg) != 1 || rec.dmg[0].all || !slices.Equal(rec.dmg[0].rows, []int{r.Y}) {
		t.Fatalf("an echo in pane %s drew %+v, want only window row %d", id, rec.dmg, r.Y)
	}
	partial := rec.text[0]
	m.dirty = true
	m.Update(nil)
	if whole := rec.text[1]; partial != whole {
		t.Errorf("repainting one row made\n%s\nrendering the whole view makes\n%s", partial, whole)
	}
	if c := m.view.Cursor; c == nil || c.X != r.X+3 || c.Y != r.Y {
		t.Errorf("cursor %+v after the echo, want (%d, %d)", c, r.X+3, r.Y)
	}
}

// Anything but the panes' screens (here the focus, which recolours the
// borders and titles) still renders the whole view.
func TestAChangeBesidesScreensRendersWhole(t *testing.T) {
	m, _ := newTestModel(t, []proto.PaneInfo{running("p1", "one"), running("p2", "two")}, nil)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	rec := &drawRecorder{}
	m.draw = rec.draw
	p := m.panes["p1"]
	m.Update(mailMsg{frames: map[string]*proto.ScreenFrame{"p1": echoFrame("p1", p.size.W, p.size.H, 0, "x")}})
	m.dirty = true // as a focus change sets it
	m.Update(nil)
	if last := rec.dmg[len(rec.dmg)-1]; !last.all {
		t.Errorf("a change besides screens drew only %+v", last)
	}
}

// Issue 12: a pane's title (OSC 0/2) is not drawn anywhere, yet its event
// made the whole view render, and the terminal compare every cell: a
// program that sets its title as it prints (the bench's mixed stream, a
// shell prompt) cost a full repaint per frame. It repaints only the rows
// its frame changed now.
func TestATitleChangeRepaintsOnlyTheChangedRows(t *testing.T) {
	m, _ := newTestModel(t, []proto.PaneInfo{running("p1", "one"), running("p2", "two")}, nil)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	rec := &drawRecorder{}
	m.draw = rec.draw
	p := m.panes["p1"]
	m.Update(mailMsg{frames: map[string]*proto.ScreenFrame{"p1": echoFrame("p1", p.size.W, p.size.H, 0, "x")}})
	m.Update(mailMsg{frames: map[string]*proto.ScreenFrame{"p1": echoFrame("p1", p.size.W, p.size.H, 0, "xy")},
		events: []proto.PaneEvent{{Kind: proto.EventTitle, Pane: "p1", Title: "vim"}}})
	if last := rec.dmg[len(rec.dmg)-1]; last.all || len(last.rows) != 1 {
		t.Errorf("a frame with a title change drew %+v, want its one row", last)
	}
	if p.info.Title != "vim" {
		t.Errorf("title %q, want vim", p.info.Title)
	}
}

// Issue 12: an echo repainted its whole row of the pane (every cell
// converted and set on the canvas) to change one cell: most of the draw
// step of a keystroke. It paints the cells that changed only: a cell of
// the row outside them is left as the canvas held it.
func TestAnEchoRepaintsOnlyTheCellsItChanged(t *testing.T) {
	m, _ := newTestModel(t, []proto.PaneInfo{running("p1", "one")}, nil)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	p := m.panes["p1"]
	frame(t, m, "p1", p.size.W, p.size.H, proto.FrameModes{}, "$ ")
	m.draw = (&drawRecorder{}).draw
	r, _ := m.geometry().Pane("p1")
	marker := &uv.Cell{Content: "#", Width: 1}
	m.canvas.SetCell(r.X+10, r.Y, marker) // stands for a cell the echo has no business painting
	m.Update(mailMsg{frames: map[string]*proto.ScreenFrame{"p1": echoFrame("p1", p.size.W, p.size.H, 0, "$ a")}})
	if got := m.canvas.CellAt(r.X+2, r.Y).Content; got != "a" {
		t.Fatalf("the echo painted %q, want a", got)
	}
	if got := m.canvas.CellAt(r.X+10, r.Y); *got != *marker {
		t.Errorf("the echo repainted cell 10 of its row (%q): it changed cell 2 only", got.Content)
	}
}

// Repainting the changed cells of random frames (narrow and wide text,
// colours, rows cut short) leaves the canvas a whole render would make.
func TestRepaintedSpansAreWhatAWholeRenderMakes(t *testing.T) {
	m, _ := newTestModel(t, []proto.PaneInfo{running("p1", "one"), running("p2", "two")}, nil)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	rec := &drawRecorder{}
	m.draw = rec.draw
	p := m.panes["p1"]
	r := rand.New(rand.NewSource(1))
	frame(t, m, "p1", p.size.W, p.size.H, proto.FrameModes{}, "$ ")
	for i := 0; i < 200; i++ {
		f := &proto.ScreenFrame{Pane: "p1", Cols: uint16(p.size.W), Rows: uint16(p.size.H)}
		for range 1 + r.Intn(3) {
			f.Lines = append(f.Lines, randomFrameRow(r, r.Intn(p.size.H), p.size.W))
		}
		m.Update(mailMsg{frames: map[string]*proto.ScreenFrame{"p1": f}})
		partial := rec.text[len(rec.text)-1]
		if last := rec.dmg[len(rec.dmg)-1]; last.all {
			t.Fatalf("frame %d rendered whole", i)
		}
		m.dirty = true
		m.Update(nil)
		if whole := rec.text[len(rec.text)-1]; partial != whole {
			t.Fatalf("frame %d: repainting made\n%s\nrendering the whole view makes\n%s", i, partial, whole)
		}
	}
}

// randomFrameRow is row y of w cells at most: runs of narrow and wide
// characters in a few styles, often ending early.
func randomFrameRow(r *rand.Rand, y, w int) proto.FrameRow {
	row := proto.FrameRow{Y: uint16(y)}
	n := r.Intn(w + 1)
	fg := proto.FrameColor(0)
	for x := 0; x < n; {
		if r.Intn(5) == 0 {
			fg = []proto.FrameColor{0, proto.IndexColor(1), proto.RGBColor(1, 2, 3)}[r.Intn(3)]
		}
		if r.Intn(4) == 0 && x+1 < n {
			row.Cells = append(row.Cells, proto.FrameCell{Text: "漢", Width: 2, Fg: fg}, proto.FrameCell{})
			x += 2
			continue
		}
		row.Cells = append(row.Cells, proto.FrameCell{Text: string(rune('a' + r.Intn(3))), Width: 1, Fg: fg})
		x++
	}
	return row
}
