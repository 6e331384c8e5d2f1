package persist

// This file decides whether a state file may be read at all, before a
// byte of it is trusted: agents.json names the commands the host runs to
// resume agents, so a file another user could write is as good as theirs
// to run. A file is read only when it is a regular file (a symlink is not
// followed), owned by this user and writable by nobody else, in a
// directory that is also this user's and writable by nobody else, and no
// larger than its kind's limit. Anything else is refused with a
// *RefusedError and left exactly where it is.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// RefusedError reports a state file persist will not read, or a state
// directory it will not use, and what to do about it. Nothing was changed.
type RefusedError struct {
	What    string // "registry", "layout", "state dir"
	Path    string
	Problem string // what is wrong: "is a symbolic link"
	Fix     string // what the user can do
}

// Error implements error.
func (e *RefusedError) Error() string {
	return fmt.Sprintf("%s %s %s; %s (clowder left it as it is)", e.What, e.Path, e.Problem, e.Fix)
}

// readTrusted reads the file at path for kind after the checks above. A
// missing file (or directory) gives an error matching fs.ErrNotExist; one
// over kind's size limit, an error matching ErrTooLarge, unread.
func readTrusted(kind docKind, path string) ([]byte, error) {
	uid := os.Getuid()
	if err := checkStateDir(filepath.Dir(path), uid); err != nil {
		return nil, err
	}
	f, err := openNoFollow(path)
	if err != nil {
		return nil, refuseOpen(kind.what, path, err)
	}
	defer func() { _ = f.Close() }() // best effort: read-only
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := checkStateFile(kind.what, path, fi, uid); err != nil {
		return nil, err
	}
	if fi.Size() > kind.maxBytes {
		return nil, overLimit("the file", fi.Size(), kind.maxBytes, bytesUnit)
	}
	data, err := io.ReadAll(io.LimitReader(f, kind.maxBytes+1))
	if err == nil && int64(len(data)) > kind.maxBytes { // it grew while read
		return nil, overLimit("the file", int64(len(data)), kind.maxBytes, bytesUnit)
	}
	return data, err
}

// refuseOpen turns a failed open into a *RefusedError for a symlink, and
// passes other errors (fs.ErrNotExist among them) on.
func refuseOpen(what, path string, err error) error {
	fi, lerr := os.Lstat(path)
	if lerr != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return err
	}
	target, _ := os.Readlink(path) // best effort: only for the message
	return &RefusedError{What: what, Path: path, Problem: fmt.Sprintf("is a symbolic link (to %s)", target),
		Fix: "clowder follows no link where it keeps its files: replace the link with the file itself, or remove it"}
}

// checkStateFile refuses a file that is not a regular file, not owned by
// uid, or writable by group or others.
func checkStateFile(what, path string, fi fs.FileInfo, uid int) error {
	refuse := func(problem, fix string) error {
		return &RefusedError{What: what, Path: path, Problem: problem, Fix: fix}
	}
	if !fi.Mode().IsRegular() {
		return refuse("is not a regular file ("+DescribeType(fi.Mode())+")", "move it away")
	}
	if owner, ok := fileOwner(fi); ok && owner != uid {
		return refuse(fmt.Sprintf("is owned by uid %d, not by you (uid %d)", owner, uid),
			"remove it, or chown it to yourself if you trust what it holds")
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return refuse(fmt.Sprintf("has mode %#o, which lets other users change it", perm),
			fmt.Sprintf("if you trust what it holds, run chmod 600 %s", path))
	}
	return nil
}

// checkStateDir refuses a state directory that is not owned by uid or is
// writable by group or others (they could replace any file in it). A
// missing one passes: there is nothing in it to trust.
func checkStateDir(dir string, uid int) error {
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("check state dir %s: %w", dir, err)
	}
	refuse := func(problem, fix string) error {
		return &RefusedError{What: "state dir", Path: dir, Problem: problem, Fix: fix}
	}
	if !fi.IsDir() {
		return refuse("is not a directory ("+DescribeType(fi.Mode())+")", "remove it or set "+EnvStateDir)
	}
	if owner, ok := fileOwner(fi); ok && owner != uid {
		return refuse(fmt.Sprintf("is owned by uid %d, not by you (uid %d)", owner, uid),
			"set "+EnvStateDir+" to a directory of your own")
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return refuse(fmt.Sprintf("has mode %#o, which lets other users replace clowder's state", perm),
			fmt.Sprintf("run chmod 700 %s", dir))
	}
	return nil
}
