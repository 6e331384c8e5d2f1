package persist

// This file is the one code path for persist's versioned JSON files
// (agents.json, layout.json). A file is a JSON object whose
// "schema_version" says which shape the rest has. Loading distinguishes
// four outcomes: missing (no state yet), newer (refused, left in place),
// corrupt (moved aside, reported) and good. Saving stamps the version,
// validates, and writes atomically with a .bak of the previous copy.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// document is the body of a versioned JSON file. Implementations are
// pointer types to the struct that is marshalled as the whole file.
type document interface {
	// setSchemaVersion stamps the version this build writes before a save.
	setSchemaVersion(v int)
	// check reports content that decodes but cannot be right (for example
	// duplicate ids). Load treats it as corruption; Save refuses to write it.
	check() error
}

// docKind names one kind of versioned file: what it is called in errors,
// and the newest schema version this build reads and writes.
type docKind struct {
	what     string // "registry", "layout"
	version  int
	maxBytes int64 // larger files are moved aside unread
}

// header is the part of every versioned file read before the rest.
type header struct {
	SchemaVersion *int `json:"schema_version"`
}

// loadDocument reads path into doc. It returns found=false and no error
// when the file does not exist. A newer schema gives *NewerSchemaError and
// leaves the file; a file that must not be trusted gives *RefusedError
// and is left too (see trust.go); a corrupt file, or one over a limit, is
// moved aside and gives *CorruptError.
func loadDocument(kind docKind, path string, doc document) (found bool, err error) {
	data, err := readTrusted(kind, path)
	var refused *RefusedError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case errors.Is(err, ErrTooLarge):
		return false, moveAside(kind, path, err)
	case errors.As(err, &refused):
		return false, err
	case err != nil:
		return false, fmt.Errorf("load %s %s: %w", kind.what, path, err)
	}
	if err := decodeDocument(kind, path, data, doc); err != nil {
		var newer *NewerSchemaError
		if errors.As(err, &newer) {
			return false, err
		}
		return false, moveAside(kind, path, err)
	}
	return true, nil
}

// decodeDocument checks the version and decodes data into doc. Any error
// but *NewerSchemaError means the content is corrupt.
func decodeDocument(kind docKind, path string, data []byte, doc document) error {
	v, err := peekVersion(data)
	if err != nil {
		return err
	}
	if v > kind.version {
		return &NewerSchemaError{What: kind.what, Path: path, Found: v, Supported: kind.version}
	}
	// Versions 1..kind.version all decode as the current shape while there
	// is only version 1. The change that introduces version 2 adds the
	// migration from 1 here, with a fixture of a version 1 file.
	if err := json.Unmarshal(data, doc); err != nil {
		return err
	}
	return doc.check()
}

// peekVersion reads schema_version from a file's bytes.
func peekVersion(data []byte) (int, error) {
	var h header
	if len(data) == 0 {
		return 0, errors.New("file is empty")
	}
	if err := json.Unmarshal(data, &h); err != nil {
		return 0, err
	}
	if h.SchemaVersion == nil {
		return 0, errors.New("no schema_version")
	}
	if *h.SchemaVersion < 1 {
		return 0, fmt.Errorf("schema_version %d is not valid", *h.SchemaVersion)
	}
	return *h.SchemaVersion, nil
}

// saveDocument stamps, validates and atomically writes doc to path, keeping
// the replaced file as .bak when bak says so. It refuses to overwrite a
// file written by a newer schema, so running an older clowder after a
// newer one cannot destroy the newer state.
func saveDocument(kind docKind, path string, doc document, bak backupMode) error {
	return saveDocumentWith(systemOps(), kind, path, doc, bak)
}

// saveDocumentWith is saveDocument with the filesystem's steps given.
func saveDocumentWith(ops fileOps, kind docKind, path string, doc document, bak backupMode) error {
	doc.setSchemaVersion(kind.version)
	if err := doc.check(); err != nil {
		return fmt.Errorf("save %s %s: %w", kind.what, path, err)
	}
	if err := refuseNewer(kind, path); err != nil {
		return fmt.Errorf("save %s %s: %w", kind.what, path, err)
	}
	data, err := encodeIndented(doc)
	if err != nil {
		return fmt.Errorf("save %s %s: encode: %w", kind.what, path, err)
	}
	if err := writeAtomic(ops, path, data, 0o600, bak); err != nil {
		return fmt.Errorf("save %s %s: %w", kind.what, path, err)
	}
	return nil
}

// encodeIndented is doc as json.MarshalIndent(doc, "", "  ") writes it,
// and a final newline: a registry with a RecordCache encodes only the
// records that changed since its last save.
func encodeIndented(doc document) ([]byte, error) {
	if r, ok := doc.(*Registry); ok && r.Cache != nil {
		out, err := r.Cache.appendIndented(nil, r)
		return append(out, '\n'), err
	}
	compact, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	// As MarshalIndent writes it, at a tenth of the cost (registry_encode.go).
	return append(indentJSON(make([]byte, 0, len(compact)*2), compact), '\n'), nil
}

// refuseNewer returns *NewerSchemaError if the file at path exists with a
// schema newer than kind's, and *RefusedError if a load would refuse it
// (see trust.go): a save must not replace what a load left alone. Corrupt
// or oversized content is not its concern: the save replaces it (and
// keeps it as .bak).
func refuseNewer(kind docKind, path string) error {
	if unchangedOwnWrite(kind, path) {
		return nil
	}
	refuseReads.Add(1)
	data, err := readTrusted(kind, path)
	var refused *RefusedError
	if errors.As(err, &refused) {
		return err
	}
	if err != nil {
		return nil
	}
	if v, err := peekVersion(data); err == nil && v > kind.version {
		return &NewerSchemaError{What: kind.what, Path: path, Found: v, Supported: kind.version}
	}
	return nil
}

// moveAside renames a corrupt file to <path>.corrupt-<UTC time>, keeps
// the last good copy (see keepLastGood) and returns the *CorruptError that
// reports both.
func moveAside(kind docKind, path string, cause error) error {
	now := time.Now()
	ce := &CorruptError{What: kind.what, Path: path, Err: cause, Backup: keepLastGood(path, now)}
	dst, err := uniqueName(path+".corrupt-", now)
	if err == nil {
		err = os.Rename(path, dst)
	}
	if err != nil {
		ce.MoveErr = err
		return ce
	}
	ce.MovedTo = dst
	_ = syncDir(systemOps(), filepath.Dir(path)) // best effort: the move already happened
	return ce
}

// keepLastGood copies <path>.bak, if there is one, to
// <path>.lastgood-<UTC time>, which no save ever replaces, and returns the
// copy's name. The error points the user at it, and .bak alone would not
// last: any later writer's second save replaces it (a TUI, or a host
// started after the one that found the corruption). Should the copy fail,
// it returns .bak's name, still the best there is; with no .bak, "".
func keepLastGood(path string, now time.Time) string {
	bak := path + BackupSuffix
	fi, err := os.Lstat(bak)
	if err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	dst, err := uniqueName(path+".lastgood-", now)
	if err != nil {
		return bak
	}
	// Files here are replaced, never modified in place, so a hard link is
	// a stable copy.
	if err := os.Link(bak, dst); err != nil {
		if err := copyFile(systemOps(), bak, dst, fi.Mode().Perm()); err != nil {
			_ = os.Remove(dst) // best effort: do not leave a half copy
			return bak
		}
	}
	return dst
}

// uniqueName picks prefix+<UTC time> that does not exist yet, adding -1,
// -2, ... if one was made in the same second.
func uniqueName(prefix string, now time.Time) (string, error) {
	base := prefix + now.UTC().Format("20060102T150405Z")
	name := base
	for i := 1; i < 1000; i++ {
		if _, err := os.Lstat(name); errors.Is(err, fs.ErrNotExist) {
			return name, nil
		}
		name = base + "-" + strconv.Itoa(i)
	}
	return "", fmt.Errorf("too many files named %s-*", base)
}
