// This file is the binary body of MsgScreen (a screen frame: full or the
// dirty rows) and of MsgHistoryRows (a page of scrollback). Both use the row
// encoding of rows.go; the header layouts are in docs/protocol.md,
// "Screen frames" and "History rows".

package proto

import (
	"encoding/binary"
	"fmt"
	"math"

	"clowder/panes"
)

// Screen limits: a frame's Cols×Rows (and a history page's Cols×lines) is
// at most MaxScreenCells, which bounds what a decoder allocates. They are
// the pane size limits of package panes, the one definition.
const (
	MaxScreenDim   = max(panes.MaxCols, panes.MaxRows)
	MaxScreenCells = panes.MaxCells
)

// ModeFlags are the terminal modes a client needs to encode keys and mouse
// events for a pane and to draw it.
type ModeFlags uint32

// Mode bits; bits not listed are reserved (zero when sent, kept if received).
const (
	ModeAppCursor      ModeFlags = 1 << 0 // DECCKM
	ModeAppKeypad      ModeFlags = 1 << 1 // DECKPAM
	ModeBracketedPaste ModeFlags = 1 << 2 // 2004
	ModeFocusReport    ModeFlags = 1 << 3 // 1004
	ModeAltScreen      ModeFlags = 1 << 4 // 47/1047/1049 active
	ModeSyncOutput     ModeFlags = 1 << 5 // 2026 active
	ModeAutowrap       ModeFlags = 1 << 6 // DECAWM
	ModeOrigin         ModeFlags = 1 << 7 // DECOM
	ModeInsert         ModeFlags = 1 << 8 // IRM
)

// FrameModes summarises a pane's modes. Mouse is the tracking mode (0 off,
// 1 X10 9, 2 normal 1000, 3 button 1002, 4 any 1003); MouseEncoding is 0
// default, 1 UTF-8 1005, 2 SGR 1006, 3 urxvt 1015; KittyKeys is the current
// kitty keyboard flag set; ModifyOtherKeys is its level (0-2).
type FrameModes struct {
	Flags           ModeFlags
	Mouse           uint8
	MouseEncoding   uint8
	KittyKeys       uint8
	ModifyOtherKeys uint8
}

// FrameCursor is the cursor: X may equal Cols (pending wrap); Style is the
// DECSCUSR shape (0-6).
type FrameCursor struct {
	X, Y    uint16
	Visible bool
	Style   uint8
}

// ScreenFrame (MsgScreen) is a picture of a pane's screen after applying
// output up to (not including) byte Seq. If Full, Lines holds every row
// 0..Rows-1 in order; otherwise only the rows that changed since the last
// frame sent on this subscription, Y strictly increasing.
type ScreenFrame struct {
	Pane       string
	Seq        uint64
	Cols, Rows uint16
	Full       bool
	Cursor     FrameCursor
	Modes      FrameModes
	Lines      []FrameRow
}

// Screen frame flag bits.
const (
	screenFull          = 1 << 0
	screenCursorVisible = 1 << 1
)

// appendBody encodes the frame.
func (s ScreenFrame) appendBody(dst []byte) ([]byte, error) {
	if err := s.checkHeader(); err != nil {
		return dst, err
	}
	if err := s.checkLines(); err != nil {
		return dst, err
	}
	dst = appendString(dst, s.Pane)
	dst = binary.BigEndian.AppendUint64(dst, s.Seq)
	dst = appendUvarint(appendUvarint(dst, uint64(s.Cols)), uint64(s.Rows))
	var flags byte
	if s.Full {
		flags |= screenFull
	}
	if s.Cursor.Visible {
		flags |= screenCursorVisible
	}
	dst = appendUvarint(appendUvarint(append(dst, flags), uint64(s.Cursor.X)), uint64(s.Cursor.Y))
	dst = appendUvarint(append(dst, s.Cursor.Style), uint64(s.Modes.Flags))
	m := s.Modes
	dst = append(dst, m.Mouse, m.MouseEncoding, m.KittyKeys, m.ModifyOtherKeys)
	dst = appendUvarint(dst, uint64(len(s.Lines)))
	var err error
	for i := range s.Lines {
		dst = appendUvarint(dst, uint64(s.Lines[i].Y))
		if dst, err = appendRow(dst, &s.Lines[i]); err != nil {
			return dst, err
		}
	}
	return dst, nil
}

// decodeBody decodes a frame, checking every invariant appendBody checks.
func (s *ScreenFrame) decodeBody(b []byte) error {
	r := newBinReader(b)
	if err := s.decodeHeader(r); err != nil {
		return err
	}
	n, err := r.bounded("line count", uint64(s.Rows))
	if err != nil {
		return err
	}
	s.Lines = make([]FrameRow, 0, min(n, uint64(r.remaining()/minRowBytes)))
	hint := firstRowHint(r, int(s.Cols))
	for range n {
		var row FrameRow
		y, err := r.bounded("row index", uint64(s.Rows-1))
		if err != nil {
			return err
		}
		row.Y = uint16(y)
		if err := decodeRow(r, &row, int(s.Cols), hint); err != nil {
			return err
		}
		s.Lines = append(s.Lines, row)
		hint = hint.next(&row)
	}
	if err := s.checkLines(); err != nil {
		return err
	}
	return r.end("screen frame")
}

// decodeHeader reads the fields before the lines.
func (s *ScreenFrame) decodeHeader(r *binReader) error {
	var err error
	if s.Pane, err = r.lenString("pane id"); err != nil {
		return err
	}
	d := sticky{r: r}
	s.Seq = d.uint64("seq")
	s.Cols = uint16(d.bounded("cols", MaxScreenDim))
	s.Rows = uint16(d.bounded("rows", MaxScreenDim))
	flags := d.byte("flags")
	s.Cursor.X = uint16(d.bounded("cursor x", MaxScreenDim))
	s.Cursor.Y = uint16(d.bounded("cursor y", MaxScreenDim))
	s.Cursor.Style = d.byte("cursor style")
	s.Modes.Flags = ModeFlags(d.bounded("mode flags", math.MaxUint32))
	s.Modes.Mouse = d.byte("mouse")
	s.Modes.MouseEncoding = d.byte("mouse encoding")
	s.Modes.KittyKeys = d.byte("kitty keys")
	s.Modes.ModifyOtherKeys = d.byte("modify other keys")
	if d.err != nil {
		return d.err
	}
	if flags&^(screenFull|screenCursorVisible) != 0 {
		return fmt.Errorf("screen frame: reserved flag bits %#x set", flags)
	}
	s.Full, s.Cursor.Visible = flags&screenFull != 0, flags&screenCursorVisible != 0
	return s.checkHeader()
}

// checkHeader enforces the size, cursor and pane id limits.
func (s *ScreenFrame) checkHeader() error {
	switch {
	case len(s.Pane) > maxPaneID:
		return fmt.Errorf("pane id of %d bytes exceeds %d", len(s.Pane), maxPaneID)
	case s.Cols == 0 || s.Rows == 0 || s.Cols > MaxScreenDim || s.Rows > MaxScreenDim:
		return fmt.Errorf("screen size %dx%d outside 1..%d", s.Cols, s.Rows, MaxScreenDim)
	case int(s.Cols)*int(s.Rows) > MaxScreenCells:
		return fmt.Errorf("screen size %dx%d exceeds %d cells", s.Cols, s.Rows, MaxScreenCells)
	case s.Cursor.X > s.Cols || s.Cursor.Y >= s.Rows:
		return fmt.Errorf("cursor %d,%d outside the %dx%d screen", s.Cursor.X, s.Cursor.Y, s.Cols, s.Rows)
	}
	return nil
}

// checkLines enforces row order, row width and, for a full frame,
// completeness.
func (s *ScreenFrame) checkLines() error {
	if s.Full && len(s.Lines) != int(s.Rows) {
		return fmt.Errorf("full frame has %d of %d rows", len(s.Lines), s.Rows)
	}
	for i, l := range s.Lines {
		switch {
		case l.Y >= s.Rows:
			return fmt.Errorf("row %d outside a %d-row screen", l.Y, s.Rows)
		case i > 0 && l.Y <= s.Lines[i-1].Y:
			return fmt.Errorf("row %d follows row %d; rows must increase", l.Y, s.Lines[i-1].Y)
		case s.Full && int(l.Y) != i:
			return fmt.Errorf("full frame line %d is row %d", i, l.Y)
		case len(l.Cells) > int(s.Cols):
			return fmt.Errorf("row %d has %d cells on a %d-column screen", l.Y, len(l.Cells), s.Cols)
		}
	}
	return nil
}
