// This file is the binary body of MsgHistoryRows, a page of a pane's
// scrollback addressed by absolute line numbers (line n is the n-th line
// ever pushed into scrollback, so numbers stay valid as old lines drop):
//
//	varint len, pane id | u64 oldest | u64 end | u64 first | varint cols |
//	varint count | count × row (rows.go, without a row index)

package proto

import (
	"encoding/binary"
	"fmt"
)

// HistoryRows (MsgHistoryRows) answers HistoryReq: Lines[i] is scrollback
// line First+i. Oldest and End bound what the pane still holds (lines
// Oldest..End-1). Cols is the width rows were laid out at. A page holds at
// most MaxScreenCells/Cols lines; the client asks again for more. Row.Y is
// not sent and decodes as 0.
type HistoryRows struct {
	Pane               string
	Oldest, End, First uint64
	Cols               uint16
	Lines              []FrameRow
}

// appendBody encodes the page.
func (h HistoryRows) appendBody(dst []byte) ([]byte, error) {
	if err := h.check(); err != nil {
		return dst, err
	}
	dst = appendString(dst, h.Pane)
	for _, v := range []uint64{h.Oldest, h.End, h.First} {
		dst = binary.BigEndian.AppendUint64(dst, v)
	}
	dst = appendUvarint(appendUvarint(dst, uint64(h.Cols)), uint64(len(h.Lines)))
	var err error
	for i := range h.Lines {
		if h.Lines[i].Y != 0 {
			return dst, fmt.Errorf("history line %d has row index %d; history rows carry none", i, h.Lines[i].Y)
		}
		if dst, err = appendRow(dst, &h.Lines[i]); err != nil {
			return dst, err
		}
	}
	return dst, nil
}

// decodeBody decodes a page, checking what appendBody checks.
func (h *HistoryRows) decodeBody(b []byte) error {
	r := newBinReader(b)
	var err error
	if h.Pane, err = r.lenString("pane id"); err != nil {
		return err
	}
	d := sticky{r: r}
	h.Oldest, h.End, h.First = d.uint64("oldest"), d.uint64("end"), d.uint64("first")
	h.Cols = uint16(d.bounded("cols", MaxScreenDim))
	n := d.bounded("line count", MaxScreenCells/max(uint64(h.Cols), 1))
	if d.err != nil {
		return d.err
	}
	h.Lines = make([]FrameRow, 0, min(n, uint64(r.remaining()/minRowBytes)))
	hint := firstRowHint(r, int(h.Cols))
	for range n {
		var row FrameRow
		if err := decodeRow(r, &row, int(h.Cols), hint); err != nil {
			return err
		}
		h.Lines = append(h.Lines, row)
		hint = hint.next(&row)
	}
	if err := h.check(); err != nil {
		return err
	}
	return r.end("history rows")
}

// check enforces the page's invariants.
func (h *HistoryRows) check() error {
	n := uint64(len(h.Lines))
	switch {
	case len(h.Pane) > maxPaneID:
		return fmt.Errorf("pane id of %d bytes exceeds %d", len(h.Pane), maxPaneID)
	case h.Cols == 0 || h.Cols > MaxScreenDim:
		return fmt.Errorf("history width %d outside 1..%d", h.Cols, MaxScreenDim)
	case n*uint64(h.Cols) > MaxScreenCells:
		return fmt.Errorf("history page of %dx%d exceeds %d cells", h.Cols, n, MaxScreenCells)
	case h.End < h.Oldest || h.First < h.Oldest || h.First > h.End || n > h.End-h.First:
		return fmt.Errorf("history lines %d+%d outside the held range %d..%d", h.First, n, h.Oldest, h.End)
	}
	for i := range h.Lines {
		if len(h.Lines[i].Cells) > int(h.Cols) {
			return fmt.Errorf("history line %d has %d cells at width %d", i, len(h.Lines[i].Cells), h.Cols)
		}
	}
	return nil
}
