package tui

// This file is the TUI's document inside layout.json (persist stores it as
// raw JSON): the split tree in layout's own JSON form, and per pane what
// the TUI needs when the host no longer has the pane (its command, cwd,
// kind and adapter, to respawn it) plus the TUI's label for it (a rename
// shown before the host's renamed event confirms it).
//
// Writes: structure changes are saved at once; ratio changes from a mouse
// drag are saved when the drag ends. Saves run in Cmds, so two may race;
// layoutSaver drops a save older than one already written.

import (
	"encoding/json"
	"fmt"
	"sync"

	"clowder/layout"
	"clowder/persist"
	"clowder/supervisor/proto"
)

// paneMeta is what layout.json keeps of a pane.
type paneMeta struct {
	Name    string   `json:"name,omitempty"`
	Label   string   `json:"label,omitempty"` // the TUI's rename; "" = the host's name
	Kind    string   `json:"kind,omitempty"`
	Adapter string   `json:"adapter,omitempty"`
	Argv    []string `json:"argv,omitempty"`
	Cwd     string   `json:"cwd,omitempty"`
}

// metaOf takes a pane's description from the host's.
func metaOf(info proto.PaneInfo) paneMeta {
	return paneMeta{Name: info.Name, Kind: info.Kind, Adapter: info.Adapter, Argv: info.Argv, Cwd: info.Cwd}
}

// layoutDoc is the TUI's document.
type layoutDoc struct {
	Tree  json.RawMessage     `json:"tree"`
	Panes map[string]paneMeta `json:"panes"`
}

// savedLayout is a decoded document.
type savedLayout struct {
	tree  *layout.Tree
	panes map[string]paneMeta
}

// loadLayout reads layout.json at path. A document that parses but is
// invalid is moved aside by persist like broken JSON (its error says
// where to), so the next save cannot silently replace it.
func loadLayout(path string) (*savedLayout, error) {
	var saved *savedLayout
	_, err := persist.LoadLayout(path, func(raw json.RawMessage) (err error) {
		saved, err = decodeLayout(raw)
		return err
	})
	if err != nil {
		return nil, err
	}
	return saved, nil
}

// decodeLayout parses the document; raw nil (no file) gives nil.
func decodeLayout(raw json.RawMessage) (*savedLayout, error) {
	if raw == nil {
		return nil, nil
	}
	var d layoutDoc
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, fmt.Errorf("read layout: %w", err)
	}
	t, err := layout.Unmarshal(d.Tree)
	if err != nil {
		return nil, fmt.Errorf("read layout: %w", err)
	}
	if d.Panes == nil {
		d.Panes = map[string]paneMeta{}
	}
	return &savedLayout{tree: t, panes: d.Panes}, nil
}

// encodeLayout builds the document for the tree and the panes in it.
// Pending panes are left out: layout.json records only panes the host has.
func encodeLayout(t *layout.Tree, panes map[string]*pane) (json.RawMessage, error) {
	t = withoutPending(t, panes)
	tree, err := layout.Marshal(t)
	if err != nil {
		return nil, fmt.Errorf("write layout: %w", err)
	}
	d := layoutDoc{Tree: tree, Panes: map[string]paneMeta{}}
	for _, id := range t.Leaves() {
		if p := panes[id]; p != nil {
			d.Panes[id] = p.meta
		}
	}
	return json.Marshal(d)
}

// layoutSaver writes layout.json, never replacing a newer save with an
// older one. Safe for concurrent use.
type layoutSaver struct {
	path   string
	mu     sync.Mutex
	last   int
	closed bool
}

// save writes doc as save number seq, unless a later one was written or
// the saver is closed.
func (s *layoutSaver) save(seq int, doc json.RawMessage) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if seq <= s.last || s.path == "" || s.closed {
		return nil
	}
	s.last = seq
	if err := persist.SaveLayout(s.path, doc); err != nil {
		return fmt.Errorf("save layout %s: %w", s.path, err)
	}
	return nil
}

// close waits for a write under way to finish and makes later saves do
// nothing, so that the process can end without cutting a write short
// (which would leave a .layout.json.tmp-* behind).
func (s *layoutSaver) close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
}
