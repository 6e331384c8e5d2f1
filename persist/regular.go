package persist

import (
	"fmt"
	"io"
	"io/fs"
)

// NotRegularError is ReadRegularFile's answer for a path that ends at a
// FIFO, a device, a directory or a socket.
type NotRegularError struct{ Mode fs.FileMode }

func (e *NotRegularError) Error() string {
	return "not a regular file (" + DescribeType(e.Mode) + ")"
}

// TooLargeError is ReadRegularFile's answer for a file over its limit.
type TooLargeError struct{ Size, Limit int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%d bytes, over the %d it may have", e.Size, e.Limit)
}

// ReadRegularFile reads the file at path (links followed) if it is a
// regular file of at most limit bytes. A FIFO would hang the read and a
// device or a huge file would be read without end, so it opens without
// blocking and checks the file it opened, not the path, so that nothing
// swapped in after a check is read.
func ReadRegularFile(path string, limit int64) ([]byte, error) {
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // best effort: read only
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &NotRegularError{Mode: fi.Mode()}
	}
	if fi.Size() > limit {
		return nil, &TooLargeError{Size: fi.Size(), Limit: limit}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(data)) > limit { // it grew since the stat
		return nil, &TooLargeError{Size: int64(len(data)), Limit: limit}
	}
	return data, err
}
