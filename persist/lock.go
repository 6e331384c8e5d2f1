package persist

// This file is the advisory lock the host takes so that only one host runs
// per runtime dir. It uses flock(2), which the kernel releases when the
// process dies however it dies, so a crashed host never leaves a stale
// lock. The holder writes its pid into the file for error messages only;
// the pid is never trusted for anything else.

import (
	"errors"
	"fmt"
	"io"
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
// the host spawns never keep it alive. A path that is not a regular file
// of this user's (a planted symlink, whose target the pid would
// overwrite) is refused with OpenPrivate's *RefusedError. The file
// records the pid and can (what the holder does for others, Advertise)
// in one write.
func Lock(path string, can ...string) (*Lockfile, error) {
	f, err := OpenPrivate("host lock", path, os.O_RDWR|os.O_CREATE)
	if err != nil {
		return nil, err
	}
	if err := tryLock(f); err != nil {
		_ = f.Close() // best effort: we hold nothing on it
		if errors.Is(err, ErrLocked) {
			return nil, fmt.Errorf("lock %s: %w%s", path, ErrLocked, holder(path))
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	l := &Lockfile{path: path, f: f}
	if err := l.writePID(can...); err != nil {
		_ = f.Close() // best effort: releases the lock we just took
		return nil, fmt.Errorf("lock %s: record pid: %w", path, err)
	}
	return l, nil
}

// writePID replaces the file's content with this process's pid, and a
// line for each of what the holder can do (Advertise).
func (l *Lockfile) writePID(can ...string) error {
	text := strconv.Itoa(os.Getpid()) + "\n"
	for _, c := range can {
		text += c + "\n"
	}
	// Written over the old content, then cut to its length: a reader
	// never finds a rewritten file empty.
	if _, err := l.f.WriteAt([]byte(text), 0); err != nil {
		return err
	}
	return l.f.Truncate(int64(len(text)))
}

// Advertise records in the lock file, after the pid, what its holder can
// do for others (CanRelisten), so that they ask only a holder that can.
func (l *Lockfile) Advertise(can ...string) error {
	if err := l.writePID(can...); err != nil {
		return fmt.Errorf("lock %s: record what its holder can do: %w", l.path, err)
	}
	return nil
}

// CanRelisten is what a host advertises when SIGUSR1 makes it listen on
// its socket path again (an older host ignores the signal).
const CanRelisten = "relisten-on-sigusr1"

// Stopping is what a host advertises once it stops: its socket is gone,
// it answers no one and lets go of the lock as it exits, so that a client
// finding it neither asks it to listen again nor waits for it to.
const Stopping = "stopping"

// Holder is what a held lock's file says of the process holding it.
type Holder struct {
	PID int
	Can []string // what it advertised (CanRelisten)
}

// PIDNote is " (pid N)" for messages, or "" when the file named no pid.
func (h Holder) PIDNote() string {
	if h.PID <= 0 {
		return ""
	}
	return fmt.Sprintf(" (pid %d)", h.PID)
}

// LockHolder reports whether another process holds the lock at path,
// and what its file says of it. On Linux it takes no lock to tell
// (lockedExclusively), so a host starting at that instant still gets its
// own.
func LockHolder(path string) (Holder, bool) {
	f, err := OpenPrivate("host lock", path, os.O_RDONLY)
	if err != nil { // missing, or not a lock file any host of ours made
		return Holder{}, false
	}
	defer f.Close()
	data, _ := io.ReadAll(io.LimitReader(f, 4096)) // best effort: an unread file names no holder
	lines := strings.Fields(string(data))
	var h Holder
	if len(lines) > 0 {
		h.PID, _ = strconv.Atoi(lines[0])
		h.Can = lines[1:]
	}
	if !lockedExclusively(f, h.PID) {
		return Holder{}, false
	}
	return h, true
}

// holder describes the pid recorded in a held lock file, or "" if it
// cannot be read.
func holder(path string) string {
	data, err := ReadPrivate("host lock", path, 4096)
	if err != nil {
		return ""
	}
	return Holder{PID: pidLine(data)}.PIDNote()
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
