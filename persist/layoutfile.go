package persist

// This file is layout.json: the TUI's split tree, ratios, focus and zoom.
// persist does not know its shape (the layout package defines it and must
// stay independent of persist, and vice versa); it stores the document as
// raw JSON with the same atomic, versioned, corrupt-aware handling as
// agents.json. The layout package versions its own content inside.

import (
	"encoding/json"
	"time"
)

// LayoutVersion is the schema_version of layout.json's envelope this build
// reads and writes.
const LayoutVersion = 1

// StaleLayoutTemp is the age past which LoadLayout removes a temp file of
// an interrupted layout.json write.
const StaleLayoutTemp = time.Minute

var layoutKind = docKind{what: "layout", version: LayoutVersion, maxBytes: MaxLayoutBytes}

// layoutDoc is the whole of layout.json.
type layoutDoc struct {
	SchemaVersion int             `json:"schema_version"`
	Layout        json.RawMessage `json:"layout"`

	valid func(json.RawMessage) error // the TUI's own check of Layout, or nil
}

// setSchemaVersion implements document.
func (d *layoutDoc) setSchemaVersion(v int) { d.SchemaVersion = v }

// check implements document: the layout must be present and valid JSON.
func (d *layoutDoc) check() error {
	if len(d.Layout) == 0 {
		return errMissingLayout
	}
	if !json.Valid(d.Layout) {
		return errInvalidLayout
	}
	if d.valid != nil {
		return d.valid(d.Layout)
	}
	return nil
}

// LoadLayout reads layout.json at path and returns the TUI's document. A
// missing file returns nil and no error. A newer schema gives
// *NewerSchemaError (file left in place); a corrupt file is moved aside and
// gives *CorruptError.
//
// It first removes the temp files of interrupted writes of path that are
// over a minute old (see RemoveStaleTemps). Several TUIs may write
// layout.json at once without a lock, so age is what tells a stale temp
// from a live write: one write of at most MaxLayoutBytes holds its temp
// for far less than a minute, and temps carry no owner to ask (a pid in
// the name could be reused).
//
// valid, if not nil, is the caller's check of the document: a document it
// says is wrong (it parses, but a ratio is out of range, say) is corrupt
// like broken JSON, so it is moved aside too and never silently replaced by
// the next save.
func LoadLayout(path string, valid func(json.RawMessage) error) (json.RawMessage, error) {
	_, _ = RemoveStaleTemps(path, StaleLayoutTemp) // best effort: a leftover costs only disk
	d := layoutDoc{valid: valid}
	found, err := loadDocument(layoutKind, path, &d)
	if err != nil || !found {
		return nil, err
	}
	return d.Layout, nil
}

// SaveLayout writes the TUI's document to path atomically, keeping the
// previous copy as path.bak. The document must be valid JSON.
func SaveLayout(path string, layout json.RawMessage) error {
	return saveDocument(layoutKind, path, &layoutDoc{Layout: layout}, withBackup)
}
