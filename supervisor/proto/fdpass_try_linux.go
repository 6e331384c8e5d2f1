//go:build linux

package proto

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// TryWriteMax is the largest frame TryWriteFrame writes: an echo's frame
// (a row or two) fits many times over. Linux's unix stream sockets put up
// to half the sender's send buffer less 64 bytes in one buffer (100 KiB at
// the default wmem_default of 208 KiB; the peer cannot lower ours), so a
// frame this small goes whole or not at all: a non-blocking send never
// leaves half of it on the wire.
const TryWriteMax = 8 << 10

// TryWriteFrame writes f if it can go now, whole, without waiting for
// anything: not for another writer (the write lock is tried, not waited
// for), nor for the peer to read (the send does not wait for room). It
// reports false, having written nothing, if it could not; the caller then
// writes f with WriteFrame, on a goroutine that may wait. f must carry no
// fds and encode to at most TryWriteMax bytes, or it is not tried. An
// error is a failed connection, as WriteFrame's (issue 12: the pane
// reader writes a keystroke's echo to a caught-up subscriber with this,
// and must never wait for a client).
func (fc *FdConn) TryWriteFrame(f Frame) (bool, error) {
	if len(f.Fds) > 0 || !fc.wmu.TryLock() {
		return false, nil
	}
	defer fc.wmu.Unlock()
	if f.Version.IsZero() {
		f.Version = fc.version
	}
	if fc.werr != nil {
		return false, nil // WriteFrame reports it
	}
	buf, err := AppendFrame(fc.buf[:0], f, min(fc.wmax, TryWriteMax))
	if err != nil {
		return false, nil // too big to try, or bad: WriteFrame decides
	}
	fc.buf = buf
	n, err := fc.sendNow(buf)
	if errors.Is(err, unix.EAGAIN) {
		return false, nil
	}
	if err == nil && n < len(buf) { // not on Linux below TryWriteMax (above); finish as WriteFrame does
		fc.armWrite()
		_, err = fc.c.Write(buf[n:])
	}
	if err != nil {
		fc.werr = err
		return true, fmt.Errorf("write %s frame: %w", f.Type, err)
	}
	return true, nil
}

// sendNow is one non-blocking send of b on the socket.
func (fc *FdConn) sendNow(b []byte) (int, error) {
	rc, err := fc.c.SyscallConn()
	if err != nil {
		return 0, err
	}
	var n int
	var serr error
	err = rc.Write(func(fd uintptr) bool {
		n, serr = unix.SendmsgN(int(fd), b, nil, nil, unix.MSG_DONTWAIT|unix.MSG_NOSIGNAL)
		return true // never wait in the poller
	})
	if err != nil {
		return 0, err
	}
	return n, serr
}
