package persist

import (
	"encoding"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"
)

// savedAs saves r to path and fails unless the file holds exactly what
// json.MarshalIndent writes for r.
func savedAs(t *testing.T, r *Registry, path, what string) {
	t.Helper()
	if err := r.Save(path); err != nil {
		t.Fatalf("%s: save: %v", what, err)
	}
	want, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want)+"\n" {
		t.Fatalf("%s: the cached save wrote\n%s\nwant\n%s", what, got, want)
	}
}

// A save through a cache writes what a save without one writes, byte for
// byte: with no record, with records, and with the records unchanged
// since the last save (their JSON reused).
func TestACachedSaveWritesWhatMarshalIndentWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), AgentsFileName)
	c := &RecordCache{}
	odd := registryOf(3)
	odd.Panes[1].Name, odd.Panes[2].Note = "<b>&\"é\u2028", "tab\there"
	for _, r := range []*Registry{{}, sampleRegistry(), odd} {
		r.Cache = c
		savedAs(t, r, path, fmt.Sprintf("%d records", len(r.Panes)))
		savedAs(t, r, path, fmt.Sprintf("%d records again", len(r.Panes)))
	}
}

// Every field of a record counts, however deep and whatever the caller
// changes in place: each leaf of a record whose pointers and slices are
// all set is changed on the registry the cache saw last (the same
// memory), and every save must show it. Red when the cache keeps a
// shallow copy (the worktree, the exit, the slices would change with the
// record) or compares fewer fields.
func TestACachedSaveSeesEveryChange(t *testing.T) {
	path := filepath.Join(t.TempDir(), AgentsFileName)
	r := sampleRegistry()
	r.Panes[0].Tmux = &TmuxPane{Socket: "/tmp/tmux-1000/default", ServerPID: 7, ServerStart: 8, Target: "s:1.0", PaneID: "%3", Command: "claude"}
	r.Panes[0].Session, r.Panes[0].Note = "0d9c", "resumed"
	r.Cache = &RecordCache{}
	savedAs(t, r, path, "first")
	var changed []string
	mutateLeaves(reflect.ValueOf(&r.Panes[0]).Elem(), "", func(name string) {
		changed = append(changed, name)
		savedAs(t, r, path, "after changing "+name)
	})
	for _, want := range []string{"Argv[0]", "Worktree.Branch", "EnvKeys[1]", "Exit.Code", "Exit.At", "Tmux.PaneID", "Timeouts.Idle", "Size.Rows", "State", "Created"} {
		if !slices.Contains(changed, want) {
			t.Errorf("%s was never changed; changed: %v", want, changed)
		}
	}
}

// mutateLeaves changes each leaf under v in place, one at a time, to
// another value that still saves, and calls changed after each.
func mutateLeaves(v reflect.Value, name string, changed func(string)) {
	switch {
	case v.Type() == reflect.TypeFor[time.Time]():
		v.Set(reflect.ValueOf(v.Interface().(time.Time).Add(time.Second)))
		changed(name)
	case v.Kind() == reflect.Pointer:
		if !v.IsNil() {
			mutateLeaves(v.Elem(), name, changed)
		}
	case v.Kind() == reflect.Slice:
		for i := range v.Len() {
			mutateLeaves(v.Index(i), fmt.Sprintf("%s[%d]", name, i), changed)
		}
	case v.Kind() == reflect.Struct:
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				mutateLeaves(v.Field(i), dotted(name, f.Name), changed)
			}
		}
	case v.Kind() == reflect.String:
		v.SetString(v.String() + "x")
		changed(name)
	case v.Kind() == reflect.Bool:
		v.SetBool(!v.Bool())
		changed(name)
	case v.CanInt():
		was := v.Int()
		for _, d := range []int64{1, -1, 2, -2, 3} { // an enum takes a neighbour that still encodes
			if v.SetInt(was + d); encodes(v) {
				break
			}
		}
		changed(name)
	case v.CanUint():
		v.SetUint(v.Uint() + 1)
		changed(name)
	}
}

// encodes reports whether v, if it encodes as text, has a text.
func encodes(v reflect.Value) bool {
	m, ok := v.Addr().Interface().(encoding.TextMarshaler)
	if !ok {
		return true
	}
	_, err := m.MarshalText()
	return err == nil
}

func dotted(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}
