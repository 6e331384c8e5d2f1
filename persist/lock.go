package persist

// This file is the advisory lock the host takes so that only one host runs
// per runtime dir. It uses flock(2), which the kernel releases when the
// process dies however it dies, so a crashed host never leaves a stale
// lock. The holder writes its pid into the file for error messages only;
// the pid is never trusted for anything else.

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Lockfile is a held advisory lock. Close releases it.
type Lockfile struct {
	path string
	f    *os.File
}

// Lock takes an exclusive, non-blocking flock on path (created 0600 if
// missing). If another process holds it, the error matches ErrLocked and
// names the holder's pid when known. The lock belongs to the open file: it
// is not inherited by children (Go opens files close-on-exec), so agents
// the host spawns never keep it alive.
func Lock(path string) (*Lockfile, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if err := tryLock(f); err != nil {
		_ = f.Close() // best effort: we hold nothing on it
		if errors.Is(err, ErrLocked) {
			return nil, fmt.Errorf("lock %s: %w%s", path, ErrLocked, holder(path))
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	l := &Lockfile{path: path, f: f}
	if err := l.writePID(); err != nil {
		_ = f.Close() // best effort: releases the lock we just took
		return nil, fmt.Errorf("lock %s: record pid: %w", path, err)
	}
	return l, nil
}

// writePID replaces the file's content with this process's pid.
func (l *Lockfile) writePID() error {
	if err := l.f.Truncate(0); err != nil {
		return err
	}
	_, err := l.f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return err
}

// holder describes the pid recorded in a held lock file, or "" if it
// cannot be read.
func holder(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || pid <= 0 {
		return ""
	}
	return fmt.Sprintf(" (pid %d)", pid)
}

// Close releases the lock. It is idempotent; only the first call can
// return an error. The file is left in place: removing it would let a
// second process lock a new inode while a third still holds the old one.
func (l *Lockfile) Close() error {
	if l == nil || l.f == nil {
		return nil
	}
	f := l.f
	l.f = nil
	if err := f.Close(); err != nil {
		return fmt.Errorf("unlock %s: %w", l.path, err)
	}
	return nil
}
