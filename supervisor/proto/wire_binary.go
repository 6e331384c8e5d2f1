// This file holds the primitives of the binary bodies (output chunks,
// screen frames, history rows): unsigned LEB128 varints, fixed big-endian
// integers and length-prefixed strings, and a bounds-checked reader that
// never panics and never allocates more than the body it reads.

package proto

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// errShortBody and errBadVarint are wrapped with the field being read.
var (
	errShortBody = errors.New("body ends early")
	errBadVarint = errors.New("malformed varint")
)

// appendUvarint appends v as an unsigned LEB128 varint.
func appendUvarint(dst []byte, v uint64) []byte { return binary.AppendUvarint(dst, v) }

// appendString appends a varint length and the bytes of s.
func appendString(dst []byte, s string) []byte {
	return append(appendUvarint(dst, uint64(len(s))), s...)
}

// binReader reads a binary body. Strings from str are slices of one string
// copy of the body, made on first use, so a screen frame allocates its text
// once, not once per cell. Every method fails (never panics) past the end.
type binReader struct {
	b   []byte
	s   string // string(b), made by the first str call
	off int
}

// newBinReader reads body; it keeps body, it does not copy it.
func newBinReader(body []byte) *binReader { return &binReader{b: body} }

// remaining is the count of unread bytes.
func (r *binReader) remaining() int { return len(r.b) - r.off }

// byte reads one byte.
func (r *binReader) byte(what string) (byte, error) {
	if r.remaining() < 1 {
		return 0, fmt.Errorf("read %s: %w", what, errShortBody)
	}
	r.off++
	return r.b[r.off-1], nil
}

// uint64 reads a fixed 8-byte big-endian integer.
func (r *binReader) uint64(what string) (uint64, error) {
	if r.remaining() < 8 {
		return 0, fmt.Errorf("read %s: %w", what, errShortBody)
	}
	v := binary.BigEndian.Uint64(r.b[r.off:])
	r.off += 8
	return v, nil
}

// uvarint reads a varint of at most 10 bytes that fits in 64 bits.
func (r *binReader) uvarint(what string) (uint64, error) {
	var v uint64
	for i := 0; i < binary.MaxVarintLen64; i++ {
		b, err := r.byte(what)
		if err != nil {
			return 0, err
		}
		if i == binary.MaxVarintLen64-1 && b > 1 {
			break
		}
		v |= uint64(b&0x7f) << (7 * i)
		if b < 0x80 {
			return v, nil
		}
	}
	return 0, fmt.Errorf("read %s: %w", what, errBadVarint)
}

// bounded reads a varint and checks it is at most limit.
func (r *binReader) bounded(what string, limit uint64) (uint64, error) {
	v, err := r.uvarint(what)
	if err == nil && v > limit {
		return 0, fmt.Errorf("read %s: %d exceeds %d", what, v, limit) // never hand back the peer's count
	}
	return v, err
}

// str reads n bytes as a string sharing the body's one string copy.
func (r *binReader) str(what string, n uint64) (string, error) {
	if uint64(r.remaining()) < n {
		return "", fmt.Errorf("read %s (%d bytes): %w", what, n, errShortBody)
	}
	if r.s == "" && len(r.b) > 0 {
		r.s = string(r.b)
	}
	s := r.s[r.off : r.off+int(n)]
	r.off += int(n)
	return s, nil
}

// lenString reads a varint length and that many bytes as a string of its
// own (not sharing the body copy), for the few strings of a header.
func (r *binReader) lenString(what string) (string, error) {
	n, err := r.uvarint(what)
	if err != nil {
		return "", err
	}
	if uint64(r.remaining()) < n {
		return "", fmt.Errorf("read %s (%d bytes): %w", what, n, errShortBody)
	}
	s := string(r.b[r.off : r.off+int(n)])
	r.off += int(n)
	return s, nil
}

// rest returns the unread bytes; the slice aliases the body.
func (r *binReader) rest() []byte {
	b := r.b[r.off:]
	r.off = len(r.b)
	return b
}

// end fails if bytes are left over.
func (r *binReader) end(what string) error {
	if n := r.remaining(); n != 0 {
		return fmt.Errorf("%s: %d trailing bytes", what, n)
	}
	return nil
}

// sticky reads a fixed sequence of fields: after the first error every
// read returns zero and err keeps that first error.
type sticky struct {
	r   *binReader
	err error
}

// bounded reads a varint of at most limit.
func (s *sticky) bounded(what string, limit uint64) uint64 {
	if s.err != nil {
		return 0
	}
	v, err := s.r.bounded(what, limit)
	s.err = err
	return v
}

// byte reads one byte.
func (s *sticky) byte(what string) byte {
	if s.err != nil {
		return 0
	}
	v, err := s.r.byte(what)
	s.err = err
	return v
}

// uint64 reads a fixed big-endian 64-bit integer.
func (s *sticky) uint64(what string) uint64 {
	if s.err != nil {
		return 0
	}
	v, err := s.r.uint64(what)
	s.err = err
	return v
}
