package persist

// This file is the read-only view of agents.json that clients take while
// no host runs (clowder ls): the host is the file's one writer, so a
// client reads it and changes nothing, not even a corrupt file, which the
// next host moves aside and reports.

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
)

// PeekRegistry reads agents.json at path without changing anything. A
// missing file is an empty registry and no error; a corrupt file, one
// from a newer clowder or one that must not be trusted is an error and is
// left as it is.
func PeekRegistry(path string) (*Registry, error) {
	data, err := readTrusted(registryKind, path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Registry{SchemaVersion: RegistryVersion}, nil
	}
	var refused *RefusedError
	if errors.As(err, &refused) {
		return nil, err
	}
	if err != nil && !errors.Is(err, ErrTooLarge) { // an oversized file is moved aside as a corrupt one
		return nil, fmt.Errorf("read registry %s: %w", path, err)
	}
	r := &Registry{}
	if err == nil {
		err = decodeDocument(registryKind, path, data, r)
	}
	if err != nil {
		var newer *NewerSchemaError
		if errors.As(err, &newer) {
			return nil, err // it names the file and says what to do
		}
		return nil, fmt.Errorf("read registry %s: %w (clowder left it as it is; the next host moves it aside and starts without its panes, %s.bak being the copy before)", path, err, filepath.Base(path))
	}
	return r, nil
}
