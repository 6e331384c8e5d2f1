//go:build unix

// This file carries file descriptors with frames on a unix socket
// (SCM_RIGHTS), for the PTY master dup the host hands the TUI (ARCHITECTURE.md,
// Processes). The bytes on the wire are exactly those of wire.go; the fds ride as
// ancillary data on the first byte of their frame.

package proto

import (
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// ErrFdsTruncated is returned when the kernel truncated a frame's fds
// (MSG_CTRUNC): the fds that did arrive have been closed.
var ErrFdsTruncated = errors.New("file descriptors truncated in transit (MSG_CTRUNC)")

// FdConn is a FrameConn over a unix stream socket that also carries fds.
// ReadFrame is for one goroutine at a time; WriteFrame is safe for
// concurrent use. Received fds are close-on-exec and owned by the caller.
// The caller closes the socket; FdConn never does.
type FdConn struct {
	c     *net.UnixConn
	rmu   sync.Mutex // guards the read side (hdr, oob, pending, limits)
	max   int
	major uint8
	hdr   [WireHeaderSize]byte
	oob   []byte
	fds   []int // fds received for the frame being read
	rerr  error // first fd error of the frame being read (io.ReadFull drops errors on full reads)
	whole bool  // ReadBodiesWhole

	wmu     sync.Mutex
	version Version
	wmax    int
	buf     []byte
	werr    error // the first failed write: the stream may hold half a frame, so every later write fails too

	dlmu     sync.Mutex    // orders deadline updates between a writer and SetWriteTimeout
	wtimeout time.Duration // each write's deadline; 0 means none
}

// SetWriteTimeout bounds every later write to d (0: no bound) and cuts a
// write in progress short to d from now, so a peer that stops reading
// cannot hold a writer forever. A write that times out fails the
// connection's writing side for good.
func (fc *FdConn) SetWriteTimeout(d time.Duration) {
	fc.dlmu.Lock()
	defer fc.dlmu.Unlock()
	fc.wtimeout = d
	if d > 0 {
		_ = fc.c.SetWriteDeadline(time.Now().Add(d)) // best effort: a closed socket fails the write anyway
	}
}

// armWrite sets the deadline of the write about to start.
func (fc *FdConn) armWrite() {
	fc.dlmu.Lock()
	defer fc.dlmu.Unlock()
	if fc.wtimeout > 0 {
		_ = fc.c.SetWriteDeadline(time.Now().Add(fc.wtimeout)) // best effort, as above
	}
}

// NewFdConn wraps c. Its limits and versions start as NewFrameReader's and
// NewFrameWriter's.
func NewFdConn(c *net.UnixConn) *FdConn {
	return &FdConn{
		c: c, max: WireMaxFrame, major: MaxVersion.Major,
		oob:     make([]byte, unix.CmsgSpace(WireMaxFds*4)),
		version: MaxVersion, wmax: WireMaxFrame,
	}
}

// SetVersion sets the negotiated version for both directions.
func (fc *FdConn) SetVersion(v Version) {
	fc.rmu.Lock()
	fc.major = v.Major
	fc.rmu.Unlock()
	fc.wmu.Lock()
	fc.version = v
	fc.wmu.Unlock()
}

// ReadBodiesWhole makes every later read allocate a frame's body at the
// size its header gives (at most the frame limit) and read it in place. A
// host reads clients' bodies in steps that double as the bytes arrive, so
// that a header claiming 16 MiB costs no more than what was sent; a client
// reading its own host's replies need not pay those steps' copies (half a
// megabyte of history came in four allocations and three copies).
func (fc *FdConn) ReadBodiesWhole() {
	fc.rmu.Lock()
	defer fc.rmu.Unlock()
	fc.whole = true
}

// SetMaxFrame sets the frame size limit for both directions, clamped to
// [WireHeaderSize, WireMaxFrame].
func (fc *FdConn) SetMaxFrame(n int) {
	fc.rmu.Lock()
	fc.max = clampMax(n)
	fc.rmu.Unlock()
	fc.wmu.Lock()
	fc.wmax = clampMax(n)
	fc.wmu.Unlock()
}

// CarriesFds is true.
func (fc *FdConn) CarriesFds() bool { return true }

// WriteFrame writes f with f.Fds attached to its first byte. The fds are
// duplicated into the receiver by the kernel; the caller keeps (and
// closes) its own.
func (fc *FdConn) WriteFrame(f Frame) error {
	fc.wmu.Lock()
	defer fc.wmu.Unlock()
	if f.Version.IsZero() {
		f.Version = fc.version
	}
	if fc.werr != nil {
		return fmt.Errorf("write %s frame: an earlier write failed: %w", f.Type, fc.werr)
	}
	if len(f.Fds) == 0 && len(f.Body) > writevBody {
		return fc.writeVectored(f)
	}
	buf, err := AppendFrame(fc.buf[:0], f, fc.wmax)
	if err != nil {
		return err
	}
	if cap(buf) <= 64<<10 {
		fc.buf = buf
	}
	fc.armWrite()
	var oob []byte
	if len(f.Fds) > 0 {
		oob = unix.UnixRights(f.Fds...)
	}
	n, _, err := fc.c.WriteMsgUnix(buf, oob, nil)
	if err == nil && n < len(buf) {
		_, err = fc.c.Write(buf[n:]) // a short sendmsg; the fds went with byte 0
	}
	if err != nil {
		fc.werr = err
		return fmt.Errorf("write %s frame: %w", f.Type, err)
	}
	return nil
}

// writevBody is the body size from which a frame without fds is written
// with writev, its header and body from where they are, rather than
// copied into one buffer first (a capture of 10,000 lines is half a
// megabyte).
const writevBody = 64 << 10

// writeVectored writes f, which carries no fds, with one writev (more
// if it is short).
func (fc *FdConn) writeVectored(f Frame) error {
	hdr, err := appendHeader(fc.buf[:0], f, fc.wmax)
	if err != nil {
		return err
	}
	fc.armWrite()
	bufs := net.Buffers{hdr, f.Body}
	if _, err := bufs.WriteTo(fc.c); err != nil {
		fc.werr = err
		return fmt.Errorf("write %s frame: %w", f.Type, err)
	}
	return nil
}

// ReadFrame reads the next frame and the fds sent with it. On any error the
// fds received so far are closed. A frame whose fd count differs from the
// fds that arrived is an error.
func (fc *FdConn) ReadFrame() (Frame, error) {
	fc.rmu.Lock()
	defer fc.rmu.Unlock()
	f, err := fc.readFrame()
	if err == nil {
		err = fc.rerr
	}
	fds := fc.fds
	fc.fds, fc.rerr = nil, nil
	if err == nil && len(fds) != int(f.nfds) {
		err = fmt.Errorf("read %s frame: header says %d fds, %d arrived", f.Type, f.nfds, len(fds))
	}
	if err != nil {
		CloseFds(fds)
		return Frame{}, err
	}
	f.Fds = fds
	return f.Frame, nil
}

// framePlus is a frame with its header's fd count.
type framePlus struct {
	Frame
	nfds uint16
}

// readFrame reads header and body with recvmsg, collecting fds into fc.fds.
func (fc *FdConn) readFrame() (framePlus, error) {
	r := readerFunc(fc.readSome)
	if _, err := io.ReadFull(r, fc.hdr[:]); err != nil {
		if err == io.EOF {
			return framePlus{}, io.EOF
		}
		return framePlus{}, fmt.Errorf("read frame header: %w", err)
	}
	if fc.rerr != nil {
		return framePlus{}, fc.rerr
	}
	h, err := parseHeader(fc.hdr[:], fc.max, fc.major)
	if err != nil {
		return framePlus{}, err
	}
	var body []byte
	if fc.whole && h.bodyLen > 0 {
		body = make([]byte, h.bodyLen)
		_, err = io.ReadFull(r, body)
		err = unexpectedEOF(err)
	} else {
		body, err = readBody(r, int(h.bodyLen))
	}
	if err != nil {
		return framePlus{}, fmt.Errorf("read %s frame: %w", h.typ, err)
	}
	return framePlus{Frame: h.frame(body), nfds: h.nfds}, nil
}

// readSome is one recvmsg of at most len(b) bytes (so it never reads into
// the next frame, whose fds must not arrive early). Fds that arrive are
// appended to fc.fds, even when it then fails, so the caller closes them;
// an fd error is also kept in fc.rerr.
func (fc *FdConn) readSome(b []byte) (int, error) {
	n, err := fc.recv(b)
	if err != nil && err != io.EOF && fc.rerr == nil {
		fc.rerr = err
	}
	return n, err
}

// recv does the recvmsg and checks the ancillary data.
func (fc *FdConn) recv(b []byte) (int, error) {
	n, oobn, flags, _, err := fc.c.ReadMsgUnix(b, fc.oob)
	if oobn > 0 {
		fds, perr := parseRights(fc.oob[:oobn])
		fc.fds = append(fc.fds, fds...)
		if perr != nil && err == nil {
			err = perr
		}
	}
	switch {
	case flags&unix.MSG_CTRUNC != 0:
		return n, fmt.Errorf("%w: %d fds arrived with an ancillary buffer of %d bytes",
			ErrFdsTruncated, len(fc.fds), len(fc.oob))
	case len(fc.fds) > WireMaxFds:
		return n, fmt.Errorf("%w: %d arrived", ErrTooManyFds, len(fc.fds))
	case n == 0 && errors.Is(err, io.EOF):
		return 0, io.EOF // bare, as io.ReadFull expects at a frame boundary
	case err != nil:
		return n, err
	case n == 0 && oobn == 0 && len(b) > 0:
		return 0, io.EOF // recvmsg on a stream socket returns 0 at EOF
	}
	return n, nil
}

// parseRights extracts the fds of every SCM_RIGHTS message in oob.
func parseRights(oob []byte) ([]int, error) {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return nil, fmt.Errorf("parse ancillary data: %w", err)
	}
	var fds []int
	for i := range msgs {
		if msgs[i].Header.Level != unix.SOL_SOCKET || msgs[i].Header.Type != unix.SCM_RIGHTS {
			continue
		}
		got, err := unix.ParseUnixRights(&msgs[i])
		if err != nil {
			return fds, fmt.Errorf("parse SCM_RIGHTS: %w", err)
		}
		fds = append(fds, got...)
	}
	return fds, nil
}

// readerFunc adapts a read function to io.Reader.
type readerFunc func([]byte) (int, error)

// Read calls f.
func (f readerFunc) Read(b []byte) (int, error) { return f(b) }

// CloseFds closes fds a frame brought that nobody will own.
func CloseFds(fds []int) {
	for _, fd := range fds {
		_ = unix.Close(fd) // best effort: the fd was never handed out
	}
}
