// This file is the framing of protocol v1 over a plain byte stream: the
// 20-byte big-endian header, the frame size limit, and FrameReader /
// FrameWriter over any io.Reader / io.Writer (a unix socket, a pipe, an ssh
// channel). A plain stream carries no file descriptors; fdpass_unix.go adds
// them on unix sockets with the same bytes on the wire.

package proto

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"
)

// Wire limits and constants (docs/protocol.md, "Header" and "Limits").
const (
	// WireMagic opens every frame: "CLWD".
	WireMagic uint32 = 0x434C5744
	// WireHeaderSize is the fixed header length in bytes.
	WireHeaderSize = 20
	// WireMaxFrame is the largest frame (header + body) either side may
	// write or accept unless both agree on less.
	WireMaxFrame = 16 << 20
	// WireMaxFds is the most file descriptors one frame may carry.
	WireMaxFds = 16
)

// Errors of the framing layer; tests and callers branch with errors.Is.
var (
	ErrBadMagic       = errors.New("not a clowder protocol stream (bad magic)")
	ErrFrameTooLarge  = errors.New("frame exceeds the maximum frame size")
	ErrTooManyFds     = errors.New("frame carries more file descriptors than allowed")
	ErrFdsUnsupported = errors.New("this transport cannot carry file descriptors")
	ErrVersion        = errors.New("frame has an unsupported protocol version")
)

// Frame is one protocol frame: header fields plus the raw body. Body is JSON
// or a binary encoding depending on Type (see DecodeMessage). Fds are file
// descriptors carried with the frame over a unix socket; whoever holds a
// received Frame owns its Fds and must close them.
type Frame struct {
	Version Version // zero: the writer fills in its own version
	Type    MsgType
	Flags   Flags
	ReqID   uint32
	Body    []byte
	Fds     []int
}

// header is the decoded fixed header.
type header struct {
	version Version
	typ     MsgType
	flags   Flags
	nfds    uint16
	reqID   uint32
	bodyLen uint32
}

// AppendFrame appends f's header and body to dst, as written on the wire.
// The fd count in the header is len(f.Fds); the fds themselves travel out of
// band. It fails if the frame exceeds limit bytes or WireMaxFds fds.
func AppendFrame(dst []byte, f Frame, limit int) ([]byte, error) {
	dst, err := appendHeader(dst, f, limit)
	if err != nil {
		return dst, err
	}
	return append(dst, f.Body...), nil
}

// appendHeader appends f's fixed header, after checking f against limit.
func appendHeader(dst []byte, f Frame, limit int) ([]byte, error) {
	if err := checkFrameSize(len(f.Body), len(f.Fds), limit); err != nil {
		return dst, fmt.Errorf("write %s frame: %w", f.Type, err)
	}
	dst = binary.BigEndian.AppendUint32(dst, WireMagic)
	dst = append(dst, f.Version.Major, f.Version.Minor)
	dst = binary.BigEndian.AppendUint16(dst, uint16(f.Type))
	dst = binary.BigEndian.AppendUint16(dst, uint16(f.Flags))
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(f.Fds)))
	dst = binary.BigEndian.AppendUint32(dst, f.ReqID)
	return binary.BigEndian.AppendUint32(dst, uint32(len(f.Body))), nil
}

// checkFrameSize enforces the frame size and fd count limits.
func checkFrameSize(bodyLen, nfds, limit int) error {
	if n := WireHeaderSize + bodyLen; n > limit {
		return fmt.Errorf("%w: %d bytes > %d", ErrFrameTooLarge, n, limit)
	}
	if nfds > WireMaxFds {
		return fmt.Errorf("%w: %d > %d", ErrTooManyFds, nfds, WireMaxFds)
	}
	return nil
}

// parseHeader decodes and checks a fixed header against the size limit and
// the reader's major version. Hello, welcome and error frames are accepted
// in any major, so that a version mismatch can be reported.
func parseHeader(b []byte, limit int, major uint8) (header, error) {
	if binary.BigEndian.Uint32(b[0:4]) != WireMagic {
		return header{}, fmt.Errorf("read frame header % x: %w", b[0:4], ErrBadMagic)
	}
	h := header{
		version: Version{Major: b[4], Minor: b[5]},
		typ:     MsgType(binary.BigEndian.Uint16(b[6:8])),
		flags:   Flags(binary.BigEndian.Uint16(b[8:10])),
		nfds:    binary.BigEndian.Uint16(b[10:12]),
		reqID:   binary.BigEndian.Uint32(b[12:16]),
		bodyLen: binary.BigEndian.Uint32(b[16:20]),
	}
	if err := checkFrameSize(int(h.bodyLen), int(h.nfds), limit); err != nil {
		return header{}, fmt.Errorf("read %s frame: %w", h.typ, err)
	}
	if h.version.Major != major && !versionFree(h.typ) {
		return header{}, fmt.Errorf("read %s frame: %w: got %s, this connection speaks %d.x",
			h.typ, ErrVersion, h.version, major)
	}
	return h, nil
}

// versionFree reports whether frames of type t are read in any major: the
// handshake messages, whose layout every major keeps.
func versionFree(t MsgType) bool {
	return t == MsgHello || t == MsgWelcome || t == MsgError
}

// frame builds a Frame from a header and body (fds are added by the caller).
func (h header) frame(body []byte) Frame {
	return Frame{Version: h.version, Type: h.typ, Flags: h.flags, ReqID: h.reqID, Body: body}
}

// readBody reads exactly n body bytes. It grows the buffer as bytes arrive
// rather than trusting the declared length up front, so a peer that
// declares a large body and sends little makes us allocate little.
func readBody(r io.Reader, n int) ([]byte, error) {
	const step = 64 << 10
	buf := make([]byte, 0, min(n, step))
	for len(buf) < n {
		if len(buf) == cap(buf) {
			grown := make([]byte, len(buf), min(n, 2*cap(buf)))
			copy(grown, buf)
			buf = grown
		}
		m, err := io.ReadFull(r, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		if err != nil {
			return nil, fmt.Errorf("read frame body (%d of %d bytes): %w", len(buf), n, unexpectedEOF(err))
		}
	}
	return buf, nil
}

// unexpectedEOF turns a clean EOF inside a frame into io.ErrUnexpectedEOF.
func unexpectedEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// FrameReader reads frames from a plain byte stream. It is not safe for
// concurrent use: one goroutine owns a connection's reading side.
type FrameReader struct {
	r     io.Reader
	max   int
	major uint8
	hdr   [WireHeaderSize]byte
}

// NewFrameReader reads frames from r with the WireMaxFrame limit, accepting
// MaxVersion's major until SetVersion says otherwise.
func NewFrameReader(r io.Reader) *FrameReader {
	return &FrameReader{r: r, max: WireMaxFrame, major: MaxVersion.Major}
}

// SetMaxFrame lowers (or restores) the frame size limit; n is clamped to
// [WireHeaderSize, WireMaxFrame].
func (fr *FrameReader) SetMaxFrame(n int) { fr.max = clampMax(n) }

// SetVersion sets the negotiated version; frames of another major are then
// refused (except handshake frames).
func (fr *FrameReader) SetVersion(v Version) { fr.major = v.Major }

// ReadFrame reads the next frame. It returns io.EOF only at a clean frame
// boundary and io.ErrUnexpectedEOF (wrapped) inside a frame. A frame whose
// header declares fds is an error on a plain stream, which cannot carry
// them.
func (fr *FrameReader) ReadFrame() (Frame, error) {
	if _, err := io.ReadFull(fr.r, fr.hdr[:]); err != nil {
		if err == io.EOF {
			return Frame{}, io.EOF
		}
		return Frame{}, fmt.Errorf("read frame header: %w", err)
	}
	h, err := parseHeader(fr.hdr[:], fr.max, fr.major)
	if err != nil {
		return Frame{}, err
	}
	if h.nfds != 0 {
		return Frame{}, fmt.Errorf("read %s frame declaring %d fds: %w", h.typ, h.nfds, ErrFdsUnsupported)
	}
	body, err := readBody(fr.r, int(h.bodyLen))
	if err != nil {
		return Frame{}, fmt.Errorf("read %s frame: %w", h.typ, err)
	}
	return h.frame(body), nil
}

// FrameWriter writes frames to a plain byte stream. It is safe for
// concurrent use: each frame goes out in one Write call under a mutex, so
// frames from different goroutines never interleave.
type FrameWriter struct {
	mu      sync.Mutex
	w       io.Writer
	max     int
	version Version
	buf     []byte
}

// NewFrameWriter writes frames to w with the WireMaxFrame limit, stamping
// MaxVersion on frames that carry no version until SetVersion says otherwise.
func NewFrameWriter(w io.Writer) *FrameWriter {
	return &FrameWriter{w: w, max: WireMaxFrame, version: MaxVersion}
}

// SetMaxFrame lowers (or restores) the frame size limit; n is clamped to
// [WireHeaderSize, WireMaxFrame].
func (fw *FrameWriter) SetMaxFrame(n int) {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	fw.max = clampMax(n)
}

// SetVersion sets the version stamped on frames whose Version is zero.
func (fw *FrameWriter) SetVersion(v Version) {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	fw.version = v
}

// WriteFrame writes f. A frame with fds is refused (ErrFdsUnsupported): a
// plain stream cannot carry them. A frame over the size limit is refused
// before anything is written.
func (fw *FrameWriter) WriteFrame(f Frame) error {
	if len(f.Fds) != 0 {
		return fmt.Errorf("write %s frame with %d fds: %w", f.Type, len(f.Fds), ErrFdsUnsupported)
	}
	fw.mu.Lock()
	defer fw.mu.Unlock()
	if f.Version.IsZero() {
		f.Version = fw.version
	}
	buf, err := AppendFrame(fw.buf[:0], f, fw.max)
	if err != nil {
		return err
	}
	if cap(buf) <= 64<<10 {
		fw.buf = buf // keep small buffers; let a rare huge one go
	}
	if _, err := fw.w.Write(buf); err != nil {
		return fmt.Errorf("write %s frame: %w", f.Type, err)
	}
	return nil
}

// clampMax bounds a configured frame limit.
func clampMax(n int) int {
	return min(max(n, WireHeaderSize), WireMaxFrame)
}
