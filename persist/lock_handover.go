package persist

import "os"

// File is the open lock file; the lock belongs to it. The host keeps it
// open across an exec of its new binary (clowder host upgrade), so the
// lock is never released while the host runs.
func (l *Lockfile) File() *os.File { return l.f }

// InheritLock wraps a lock file this process already holds the lock on,
// opened by its previous image and kept open across an exec.
func InheritLock(path string, f *os.File) *Lockfile { return &Lockfile{path: path, f: f} }
