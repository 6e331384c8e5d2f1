package persist

// This file writes files atomically. The sequence is: a temp file in the
// target's directory (so the rename cannot cross filesystems), write, fsync,
// keep the current file as <name>.bak, rename the temp over the target,
// fsync the directory so the rename itself is durable. Until the rename,
// the target is untouched; on any error the temp file is removed.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
)

// BackupSuffix is appended to a file's name for the last good copy kept by
// WriteFile.
const BackupSuffix = ".bak"

// fileOps are the filesystem steps of an atomic write. Production uses
// systemOps; tests replace single steps to inject the failures (a failing
// fsync, a failing rename) that a real filesystem cannot produce on demand.
type fileOps struct {
	sync   func(*os.File) error
	rename func(oldpath, newpath string) error
	link   func(oldpath, newpath string) error
	// step, when set (tests), runs after each step of the write
	// (writeSteps), so a test can crash the writer there.
	step func(name string)
}

// writeSteps are the points of an atomic write after which a crash leaves
// different files behind; each must leave the old file or the new one.
var writeSteps = []string{"created", "written", "backup-linked", "backup-kept", "renamed", "dir-synced"}

// after runs the test hook for a finished step, if any.
func (ops fileOps) after(name string) {
	if ops.step != nil {
		ops.step(name)
	}
}

// systemOps are the real filesystem steps.
func systemOps() fileOps {
	return fileOps{sync: (*os.File).Sync, rename: os.Rename, link: os.Link}
}

// volatileOps are systemOps without the fsyncs: the rename still makes a
// write atomic against a crash of this process (the page cache holds the
// new file whole), not against the machine's (a power loss may bring back
// the previous file, or lose the write).
func volatileOps() fileOps {
	ops := systemOps()
	ops.sync = func(*os.File) error { return nil }
	return ops
}

// WriteFile replaces the file at path with data, atomically and durably,
// with permissions perm. The previous content, if any, is kept as
// path+".bak". On error the file at path is unchanged (it either has the
// old content or, for an error after the rename, the new content that is
// not yet known to be durable), and no temp file is left behind.
//
// WriteFile is not safe for concurrent writers of the same path; persist's
// callers have a single writer per file.
//
// Unreachable from cmd/clowder (deadcode): persist's own writers call
// writeAtomic with their backup mode. It stays as the exported face of the
// atomic-write contract that atomic_test.go pins, for the next caller
// outside persist; delete it if none comes.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	if err := writeAtomic(systemOps(), path, data, perm, withBackup); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// backupMode says whether a write keeps the file it replaces as .bak.
type backupMode bool

const (
	withBackup    backupMode = true  // the replaced file becomes path.bak
	withoutBackup backupMode = false // path.bak is left exactly as it is
)

// writeAtomic is WriteFile with injectable steps, a choice about .bak, and
// errors that name the step but not the path (the caller adds it once).
func writeAtomic(ops fileOps, path string, data []byte, perm fs.FileMode, bak backupMode) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("create temp file: %w", err)
	}
	ops.after("created")
	defer func() {
		if err != nil {
			// Best effort: after a successful rename the name is gone and
			// this fails harmlessly.
			_ = os.Remove(tmp.Name())
		}
	}()
	written, err := fillTemp(ops, tmp, data, perm)
	if err != nil {
		return err
	}
	ops.after("written")
	if bak == withBackup {
		if err := keepBackup(ops, path); err != nil {
			return err
		}
	}
	if err := ops.rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("rename temp file into place: %w", err)
	}
	ownWrites.remember(path, written)
	ops.after("renamed")
	if err := syncDir(ops, dir); err != nil {
		return err
	}
	ops.after("dir-synced")
	return nil
}

// fillTemp writes data to the temp file, sets its mode, fsyncs and closes
// it, and returns what the file is once written (ownWrites). It closes f
// whatever happens.
func fillTemp(ops fileOps, f *os.File, data []byte, perm fs.FileMode) (fs.FileInfo, error) {
	err := fillOpen(ops, f, data, perm)
	var fi fs.FileInfo
	if err == nil {
		fi, _ = f.Stat() // best effort: without it the next save reads the file back
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close temp file: %w", cerr)
	}
	return fi, err
}

// fillOpen is fillTemp without the close.
func fillOpen(ops fileOps, f *os.File, data []byte, perm fs.FileMode) error {
	if err := f.Chmod(perm); err != nil {
		return fmt.Errorf("chmod temp file: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("write temp file: %w", err)
	}
	if err := ops.sync(f); err != nil {
		return fmt.Errorf("fsync temp file: %w", err)
	}
	return nil
}

// keepBackup makes path+".bak" a copy of the current file at path, if there
// is one. It hard-links (files here are never modified in place, only
// replaced, so the link is a stable copy and costs no space) and falls back
// to copying where links are not supported. The .bak is itself replaced by
// a rename, so a crash leaves either the old or the new backup.
func keepBackup(ops fileOps, path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("stat current file: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("current file is not a regular file (%s); move it away", fi.Mode().Type())
	}
	bak := path + BackupSuffix
	// A unique name, so two writers of one file (two TUIs saving
	// layout.json) never remove or replace each other's link.
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(bak)+".tmp-"+strconv.FormatUint(rand.Uint64(), 36))
	if err := ops.link(path, tmp); err != nil {
		if cerr := copyFile(ops, path, tmp, fi.Mode().Perm()); cerr != nil {
			_ = os.Remove(tmp) // best effort: do not leave a half copy
			return fmt.Errorf("keep backup %s: %w", bak, errors.Join(err, cerr))
		}
	}
	ops.after("backup-linked")
	if err := ops.rename(tmp, bak); err != nil {
		_ = os.Remove(tmp) // best effort: the old .bak is still in place
		return fmt.Errorf("keep backup %s: %w", bak, err)
	}
	ops.after("backup-kept")
	return nil
}

// copyFile copies src to a new file dst with mode perm and fsyncs it.
func copyFile(ops fileOps, src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer func() { _ = in.Close() }() // best effort: read-only
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if err == nil {
		err = ops.sync(out)
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// syncDir fsyncs a directory so that renames in it survive a crash.
func syncDir(ops fileOps, dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("open dir for fsync: %w", err)
	}
	err = ops.sync(d)
	if cerr := d.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("fsync dir %s: %w", dir, err)
	}
	return nil
}

// ownWrites remembers, per path, the file this process last renamed into
// place there: the same file (device and inode), size, modification time
// and mode. A save whose target is still exactly that file need not read
// it back to learn whether a newer clowder replaced it (refuseNewer): a
// newer clowder writes through a rename too, so its file is another
// inode, and a change in place moves the size or the modification time
// (issue 12: the read and parse of the whole file was a third of a
// save's CPU, and a spawn saves twice).
var ownWrites = &writtenFiles{files: map[string]fs.FileInfo{}}

// writtenFiles is ownWrites' type. Safe for concurrent use.
type writtenFiles struct {
	mu    sync.Mutex
	files map[string]fs.FileInfo // path → the file as written
}

// remember records fi (nil: unknown) as what is at path now.
func (w *writtenFiles) remember(path string, fi fs.FileInfo) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if fi == nil {
		delete(w.files, path)
		return
	}
	w.files[path] = fi
}

// unchanged reports whether now (an Lstat of path) is the file this
// process last wrote there, untouched since.
func (w *writtenFiles) unchanged(path string, now fs.FileInfo) bool {
	w.mu.Lock()
	was, ok := w.files[path]
	w.mu.Unlock()
	return ok && os.SameFile(was, now) && was.Size() == now.Size() &&
		was.ModTime().Equal(now.ModTime()) && was.Mode() == now.Mode()
}

// refuseReads counts the reads of a save's target that refuseNewer made,
// for tests.
var refuseReads atomic.Int64

// unchangedOwnWrite reports whether the file at path is still the one this
// process last wrote there (ownWrites) and a load would still trust it
// (trust.go): then it holds this build's schema and a save may replace it
// unread.
func unchangedOwnWrite(kind docKind, path string) bool {
	uid := os.Getuid()
	if checkStateDir(filepath.Dir(path), uid) != nil {
		return false
	}
	fi, err := os.Lstat(path)
	if err != nil || checkStateFile(kind.what, path, fi, uid) != nil {
		return false
	}
	return ownWrites.unchanged(path, fi)
}
