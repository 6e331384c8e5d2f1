//go:build unix && !linux

package proto

// TryWriteMax is the largest frame TryWriteFrame writes; elsewhere than
// Linux it writes none (see fdpass_try_linux.go).
const TryWriteMax = 0

// TryWriteFrame writes nothing and reports false elsewhere than Linux,
// whose unix sockets alone are known to take a small frame whole or not at
// all: the caller writes f with WriteFrame.
func (fc *FdConn) TryWriteFrame(f Frame) (bool, error) { return false, nil }
