package persist

// This file opens the files clowder writes in place in its runtime and
// state dirs (host.log, the host.lock of each), as trust.go reads state:
// nothing found there is trusted before it is checked. A symlink planted
// in place of one of them would make the host append to, or truncate and
// rewrite, whatever file it names; a fifo would hang the opener. So the
// open follows no link (even a dangling one is not created through),
// does not block, and keeps the file only if it is a regular file owned
// by this user that nobody else may write.

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// OpenPrivate opens the file at path, which clowder calls what in errors
// ("host log", "host lock"), with flag (os.O_RDWR, os.O_WRONLY|os.O_APPEND;
// with os.O_CREATE a missing file is made with mode 0600). Anything but a
// regular file of this user's that nobody else may write is refused with
// a *RefusedError naming it and what to do, and left as it is.
func OpenPrivate(what, path string, flag int) (*os.File, error) {
	f, err := openNoFollowFlag(path, flag, 0o600)
	if err != nil {
		return nil, refusePrivate(what, path, err)
	}
	fi, err := f.Stat()
	if err == nil {
		err = checkStateFile(what, path, fi, os.Getuid())
	}
	if err != nil {
		_ = f.Close() // best effort: refused, nothing was written
		return nil, err
	}
	return f, nil
}

// refusePrivate explains a failed open: a symlink, or a file of another
// kind (a fifo with no reader fails with ENXIO), is a *RefusedError.
func refusePrivate(what, path string, err error) error {
	if r := refuseOpen(what, path, err); r != err {
		return r
	}
	if fi, lerr := os.Lstat(path); lerr == nil && !fi.Mode().IsRegular() {
		return checkStateFile(what, path, fi, os.Getuid())
	}
	return fmt.Errorf("open %s %s: %w", what, path, err)
}

// ReadPrivate reads up to max bytes of the file at path under
// OpenPrivate's checks (a fifo does not block it, a symlink is refused).
func ReadPrivate(what, path string, max int64) ([]byte, error) {
	f, err := OpenPrivate(what, path, os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // best effort: read only
	data, err := io.ReadAll(io.LimitReader(f, max))
	if err != nil {
		return nil, fmt.Errorf("read %s %s: %w", what, path, err)
	}
	return data, nil
}

// pidLine is the pid on the first line of a lock file's content, 0 if
// there is none.
func pidLine(data []byte) int {
	first, _, _ := strings.Cut(string(data), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(first))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}
