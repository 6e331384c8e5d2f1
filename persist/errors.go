package persist

// The error values persist returns for conditions a caller branches on
// (with errors.As / errors.Is). Each message says what failed, on which
// file, and what the user can do.

import (
	"errors"
	"fmt"
)

// NewerSchemaError reports a file written by a newer clowder. The file is
// left where it is, untouched.
type NewerSchemaError struct {
	What      string // "registry", "layout"
	Path      string
	Found     int // the file's schema_version
	Supported int // the newest version this build reads
}

// Error implements error.
func (e *NewerSchemaError) Error() string {
	return fmt.Sprintf("%s %s has schema_version %d, but this clowder reads up to %d; "+
		"upgrade clowder (the file was left as it is)", e.What, e.Path, e.Found, e.Supported)
}

// CorruptError reports a file that could not be decoded (empty, truncated,
// not JSON, wrong types, no schema_version, inconsistent content) or is
// over a limit (then Err matches ErrTooLarge). The file
// has been moved to MovedTo, unless moving failed (then MoveErr says why and
// the file is still at Path). The caller decides what to do next; persist
// never replaces it with an empty document. Backup is a copy of .bak that
// no save replaces; the host also stops replacing .bak itself
// (Registry.SavePreservingBackup), so both stay until a person acts.
type CorruptError struct {
	What    string // "registry", "layout"
	Path    string
	MovedTo string // where the corrupt file now is; "" if MoveErr != nil
	Backup  string // the last good copy (<Path>.lastgood-<time>, kept from .bak), "" if there is none
	Err     error  // what was wrong with the content
	MoveErr error  // why it could not be moved aside, or nil
}

// Error implements error.
func (e *CorruptError) Error() string {
	state := "is corrupt"
	if errors.Is(e.Err, ErrTooLarge) {
		state = "is too large to load"
	}
	msg := fmt.Sprintf("%s %s %s (%v)", e.What, e.Path, state, e.Err)
	if e.MoveErr != nil {
		msg += fmt.Sprintf("; moving it aside failed (%v), so it is still there", e.MoveErr)
	} else {
		msg += "; moved it to " + e.MovedTo
	}
	if e.Backup != "" {
		msg += fmt.Sprintf("; the last good copy is %s (copy it to %s to restore it)", e.Backup, e.Path)
	}
	return msg
}

// Unwrap returns the decoding error.
func (e *CorruptError) Unwrap() error { return e.Err }

// ErrLocked is matched (errors.Is) by the error Lock returns when another
// process holds the lock.
var ErrLocked = errors.New("locked by another process")

// Reasons a layout document is refused.
var (
	errMissingLayout = errors.New("no layout")
	errInvalidLayout = errors.New("layout is not valid JSON")
)
