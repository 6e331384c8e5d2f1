//go:build unix

// The host log (host.log): what the host says about itself, capped in size.
// Once the file passes its cap it is renamed to host.log.1 (replacing the
// previous one) and a fresh host.log started, so the log never takes more
// than about twice the cap. The process's stdout and stderr are pointed at
// the fresh file too, so a runtime crash report lands where a person looks.

package host

import (
	"fmt"
	"os"
	"sync"

	"golang.org/x/sys/unix"

	"clowder/persist"
)

// LogMax is the size at which host.log is rotated.
const LogMax = 4 << 20

// Log is the host's log file, rotated at a size cap. Safe for
// concurrent use; hand it to log.New.
type Log struct {
	mu       sync.Mutex
	path     string
	max      int64
	f        *os.File
	size     int64
	redirect []int // fds pointed at the current file after each rotation
}

// OpenLog opens path for appending, rotating it at max bytes; after
// each rotation the fds in redirect (the process's 1 and 2) are pointed at
// the new file. The caller closes it.
func OpenLog(path string, max int64, redirect ...int) (*Log, error) {
	l := &Log{path: path, max: max, redirect: redirect}
	if err := l.open(); err != nil {
		return nil, err
	}
	return l, nil
}

// SameFile reports whether fd is the file at path (the host's stderr is
// its log when the host was started in the background).
func SameFile(fd int, path string) bool {
	var a, b unix.Stat_t
	return unix.Fstat(fd, &a) == nil && unix.Stat(path, &b) == nil && a.Dev == b.Dev && a.Ino == b.Ino
}

// open opens (or creates) the log file and learns its size. A symlink
// or a file not of this user's in its place is refused, never written
// through (persist.OpenPrivate).
func (l *Log) open() error {
	f, err := persist.OpenPrivate("host log", l.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND)
	if err != nil {
		return err
	}
	st, err := f.Stat()
	if err != nil {
		_ = f.Close() // best effort: it is unusable anyway
		return fmt.Errorf("open host log %s: %w", l.path, err)
	}
	l.f, l.size = f, st.Size()
	return nil
}

// Write appends b, rotating first if b would take the file past its cap.
func (l *Log) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.size > 0 && l.size+int64(len(b)) > l.max {
		if err := l.rotate(); err != nil {
			fmt.Fprintf(l.f, "host log: %v; going on in the old file\n", err) // best effort
		}
	}
	n, err := l.f.Write(b)
	l.size += int64(n)
	return n, err
}

// rotate moves the file to .1 and starts a new one.
func (l *Log) rotate() error {
	if err := os.Rename(l.path, l.path+".1"); err != nil {
		return fmt.Errorf("rotate host log: %w", err)
	}
	old := l.f
	if err := l.open(); err != nil {
		l.f = old
		return err
	}
	_ = old.Close() // best effort: everything written went through
	for _, fd := range l.redirect {
		if err := unix.Dup2(int(l.f.Fd()), fd); err != nil {
			return fmt.Errorf("point fd %d at the new host log: %w", fd, err)
		}
	}
	return nil
}

// Close closes the file.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f.Close()
}
