// This file is the binary body of MsgOutput: a chunk of a pane's raw
// output ring, addressed by absolute byte sequence numbers (docs/processes.md).
//
//	varint len, pane id | u64 seq (big-endian) | varint gap | data...
//
// The data runs to the end of the body, so a chunk costs its bytes plus
// about 12.

package proto

import "fmt"

// maxPaneID bounds a pane id in binary bodies.
const maxPaneID = 255

// OutputChunk (MsgOutput) is raw PTY output of Pane: Data[0] is byte number
// Seq of the pane's output. Gap > 0 says the Gap bytes before Seq fell out
// of the ring before they could be sent (the client asked from Seq-Gap); a
// client rendering raw output shows a marker there. Consecutive chunks of a
// subscription are contiguous unless a gap says otherwise.
type OutputChunk struct {
	Pane string
	Seq  uint64
	Gap  uint64
	Data []byte // on decode, aliases the frame body
}

// appendBody encodes the chunk.
func (c OutputChunk) appendBody(dst []byte) ([]byte, error) {
	if err := c.check(); err != nil {
		return dst, err
	}
	dst = appendString(dst, c.Pane)
	dst = append(dst, byte(c.Seq>>56), byte(c.Seq>>48), byte(c.Seq>>40), byte(c.Seq>>32),
		byte(c.Seq>>24), byte(c.Seq>>16), byte(c.Seq>>8), byte(c.Seq))
	dst = appendUvarint(dst, c.Gap)
	return append(dst, c.Data...), nil
}

// decodeBody decodes a chunk; Data aliases b.
func (c *OutputChunk) decodeBody(b []byte) error {
	r := newBinReader(b)
	var err error
	if c.Pane, err = r.lenString("pane id"); err != nil {
		return err
	}
	if c.Seq, err = r.uint64("seq"); err != nil {
		return err
	}
	if c.Gap, err = r.uvarint("gap"); err != nil {
		return err
	}
	if d := r.rest(); len(d) > 0 {
		c.Data = d // an empty chunk decodes with nil Data, as it was sent
	}
	return c.check()
}

// check enforces the chunk's invariants on both encode and decode.
func (c OutputChunk) check() error {
	if len(c.Pane) > maxPaneID {
		return fmt.Errorf("pane id of %d bytes exceeds %d", len(c.Pane), maxPaneID)
	}
	if c.Gap > c.Seq {
		return fmt.Errorf("gap %d before seq %d would start below 0", c.Gap, c.Seq)
	}
	if c.Seq+uint64(len(c.Data)) < c.Seq {
		return fmt.Errorf("chunk at seq %d of %d bytes overflows the sequence", c.Seq, len(c.Data))
	}
	return nil
}
