package persist

// This file removes what interrupted atomic writes leave behind. A write
// (atomic.go) creates .<name>.tmp-<random> for the new content and
// .<name>.bak.tmp-<random> for the backup link; a crash, SIGKILL or SIGHUP
// between their creation and the rename leaves them for ever. Only the
// next writer can tell a stale one from a write in progress, so callers
// choose: the host removes every agents.json temp while it holds the host
// lock; the TUI removes layout.json temps older than a minute.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// RemoveStaleTemps removes the temp files of interrupted writes of path
// that were last modified at least minAge ago (0: whatever their age), and
// returns the names it removed. A temp that vanishes meanwhile is not an
// error; the first other error is returned after trying every temp.
func RemoveStaleTemps(path string, minAge time.Duration) ([]string, error) {
	dir := filepath.Dir(path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("remove stale temp files of %s: %w", path, err)
	}
	var removed []string
	var errs []error
	for _, e := range entries {
		if !isTempOf(e.Name(), filepath.Base(path)) || !oldEnough(e, minAge) {
			continue
		}
		err := os.Remove(filepath.Join(dir, e.Name()))
		switch {
		case err == nil:
			removed = append(removed, e.Name())
		case !errors.Is(err, fs.ErrNotExist):
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return removed, fmt.Errorf("remove stale temp files of %s: %w", path, err)
	}
	return removed, nil
}

// isTempOf reports whether name is a temp file of a write of base: the
// content temp (.base.tmp-*) or the backup temp (.base.bak.tmp, the fixed
// name of older builds, or .base.bak.tmp-*).
func isTempOf(name, base string) bool {
	return strings.HasPrefix(name, "."+base+".tmp-") || strings.HasPrefix(name, "."+base+BackupSuffix+".tmp")
}

// oldEnough reports whether the entry, a regular file, was last modified
// at least minAge ago. Anything else (a directory someone made there, a
// symlink) is not a temp of ours.
func oldEnough(e fs.DirEntry, minAge time.Duration) bool {
	if !e.Type().IsRegular() {
		return false
	}
	fi, err := e.Info()
	return err == nil && time.Since(fi.ModTime()) >= minAge
}
