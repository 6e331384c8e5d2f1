// This file is the binary body of MsgCapturedText, the answer to a capture
// request that asked for it (CaptureReq.TextBody): the same fields as
// captured, with the text as raw bytes instead of a JSON string.
//
//	varint len, pane id | varint cols | varint rows | varint cursor x |
//	varint cursor y | text...
//
// The text runs to the end of the body. A JSON string of 10,000 lines of
// scrollback cost the host an escaping pass and the client a validating
// scan and an unescaping pass over every byte (issue 12); this costs a copy.

package proto

import (
	"fmt"
	"math"
	"unsafe"
)

// CapturedText (MsgCapturedText) is CapturedReply with a binary body.
type CapturedText struct {
	Pane                         string
	Cols, Rows, CursorX, CursorY uint16
	Text                         string
}

// Reply is t as the JSON reply carries it.
func (t CapturedText) Reply() CapturedReply {
	return CapturedReply{Pane: t.Pane, Text: t.Text, Cols: t.Cols, Rows: t.Rows, CursorX: t.CursorX, CursorY: t.CursorY}
}

// CapturedTextOf is r with a binary body.
func CapturedTextOf(r *CapturedReply) *CapturedText {
	return &CapturedText{Pane: r.Pane, Text: r.Text, Cols: r.Cols, Rows: r.Rows, CursorX: r.CursorX, CursorY: r.CursorY}
}

// appendBody encodes the capture.
func (t CapturedText) appendBody(dst []byte) ([]byte, error) {
	if t.Pane == "" || len(t.Pane) > maxPaneID {
		return dst, fmt.Errorf("captured-text: pane id of %d bytes", len(t.Pane))
	}
	dst = appendString(dst, t.Pane)
	for _, v := range []uint16{t.Cols, t.Rows, t.CursorX, t.CursorY} {
		dst = appendUvarint(dst, uint64(v))
	}
	return append(dst, t.Text...), nil
}

// decodeBody decodes a capture; Text aliases the body's tail.
func (t *CapturedText) decodeBody(b []byte) error {
	r := newBinReader(b)
	var err error
	if t.Pane, err = r.lenString("pane id"); err != nil {
		return err
	}
	if t.Pane == "" || len(t.Pane) > maxPaneID {
		return fmt.Errorf("captured-text: pane id of %d bytes", len(t.Pane))
	}
	for _, f := range []*uint16{&t.Cols, &t.Rows, &t.CursorX, &t.CursorY} {
		v, err := r.bounded("captured-text size", math.MaxUint16)
		if err != nil {
			return err
		}
		*f = uint16(v)
	}
	if rest := r.rest(); len(rest) > 0 {
		// A frame's body is the frame's own and never written again (as
		// OutputChunk's Data aliases it): a history of half a megabyte is
		// not copied once more.
		t.Text = unsafe.String(&rest[0], len(rest))
	}
	return nil
}
