package tui

// This file is a pane's picture as the host last sent it: a grid of cells
// that screen frames update (a full frame replaces it, a partial one
// replaces the rows it carries), with the cursor and the modes. It never
// sees terminal output, only frames.

import (
	"clowder/supervisor/proto"
	"clowder/vtgrid"
)

// blankCell is an erased cell of the default style.
var blankCell = proto.FrameCell{Width: 1}

// screen is a pane's cell grid. The zero value is an empty screen.
type screen struct {
	cols, rows int
	cells      [][]proto.FrameCell // rows × cols
	wrapped    []bool
	cursor     proto.FrameCursor
	modes      proto.FrameModes
	seq        uint64
}

// apply updates the grid from one frame. A partial frame for a different
// size than the grid's cannot be applied row by row, so it resizes the
// grid first (rows it does not carry stay blank until the next full frame,
// which the host sends after any resize).
func (s *screen) apply(f *proto.ScreenFrame) {
	if f.Full || int(f.Cols) != s.cols || int(f.Rows) != s.rows {
		s.reset(int(f.Cols), int(f.Rows))
	}
	for _, l := range f.Lines {
		s.setRow(int(l.Y), l)
	}
	s.cursor, s.modes, s.seq = f.Cursor, f.Modes, f.Seq
}

// reset makes the grid cols × rows of blank cells.
func (s *screen) reset(cols, rows int) {
	s.cols, s.rows = cols, rows
	s.cells = make([][]proto.FrameCell, rows)
	for y := range s.cells {
		s.cells[y] = blankRow(cols)
	}
	s.wrapped = make([]bool, rows)
}

// blankRow returns n blank cells.
func blankRow(n int) []proto.FrameCell {
	row := make([]proto.FrameCell, n)
	for i := range row {
		row[i] = blankCell
	}
	return row
}

// setRow copies a frame row into row y, padding it with blanks.
func (s *screen) setRow(y int, l proto.FrameRow) {
	if y < 0 || y >= s.rows {
		return
	}
	row := s.cells[y]
	n := copy(row, l.Cells)
	for i := n; i < len(row); i++ {
		row[i] = blankCell
	}
	s.wrapped[y] = l.Wrapped
}

// vtModes maps a frame's mode summary onto vtgrid.Modes, the form the
// panes encoders take.
func vtModes(m proto.FrameModes) vtgrid.Modes {
	f := m.Flags
	return vtgrid.Modes{
		AppCursor:       f&proto.ModeAppCursor != 0,
		AppKeypad:       f&proto.ModeAppKeypad != 0,
		BracketedPaste:  f&proto.ModeBracketedPaste != 0,
		Focus:           f&proto.ModeFocusReport != 0,
		AltScreen:       f&proto.ModeAltScreen != 0,
		SyncOutput:      f&proto.ModeSyncOutput != 0,
		Autowrap:        f&proto.ModeAutowrap != 0,
		Origin:          f&proto.ModeOrigin != 0,
		Insert:          f&proto.ModeInsert != 0,
		Mouse:           vtgrid.MouseMode(m.Mouse),
		MouseEnc:        vtgrid.MouseEncoding(m.MouseEncoding),
		KittyKeyboard:   m.KittyKeys,
		ModifyOtherKeys: int(m.ModifyOtherKeys),
	}
}

// rowText is the text of a row of cells, with trailing blanks removed.
func rowText(cells []proto.FrameCell) string {
	var b []byte
	end := 0
	for _, c := range cells {
		switch {
		case c.Width == 0:
			continue
		case c.Text == "":
			b = append(b, ' ')
		default:
			b = append(b, c.Text...)
			end = len(b)
		}
	}
	return string(b[:end])
}
