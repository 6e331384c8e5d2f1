package persist

// This file lets a registry save encode only the records that changed
// since the last one. A host with 100 panes saves agents.json twice per
// spawn, and each save marshalled and indented all 100 records again:
// 42% of the save's CPU, and a spawn spent about 60% of its time in its
// two saves (issue 12; bench/profiles/procs.md, section 8).

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"sync"
)

// RecordCache keeps, for each record of the last save that used it, a
// copy of the record and its indented JSON. A record equal to its copy
// (reflect.DeepEqual, so every field counts, present and future) reuses
// the JSON; any other is encoded and replaces it. The copy is deep, so a
// record the caller changes in place (an exit's code, a worktree's
// branch) never matches the copy taken before. It holds about what the
// file does (110 KB at 100 panes), and the records. The zero RecordCache
// is ready; it is safe for concurrent use.
type RecordCache struct {
	mu   sync.Mutex
	recs map[string]cachedRecord
	size int // the last save's length: the next one's buffer
}

type cachedRecord struct {
	rec  PaneRecord
	json []byte // the record as MarshalIndent writes it inside "panes"
}

// recordDepth is how deep a record sits in agents.json: the document's
// object, then the panes array.
const recordDepth = 2

// appendIndented appends the registry as json.MarshalIndent(r, "", "  ")
// writes it, reusing from c the JSON of the records that did not change,
// and keeps this save's records in c for the next one.
func (c *RecordCache) appendIndented(dst []byte, r *Registry) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	next := make(map[string]cachedRecord, len(r.Panes))
	dst = slices.Grow(dst, c.size+c.size/8)
	dst = append(dst, "{\n  \"schema_version\": "...)
	dst = strconv.AppendInt(dst, int64(r.SchemaVersion), 10)
	dst = append(dst, ",\n  \"panes\": ["...)
	for i := range r.Panes {
		p := &r.Panes[i]
		e, ok := c.recs[p.ID]
		if !ok || !reflect.DeepEqual(&e.rec, p) {
			compact, err := json.Marshal(p)
			if err != nil {
				return dst, fmt.Errorf("encode pane %q: %w", p.ID, err)
			}
			indented := slices.Clone(indentJSONAt(nil, compact, recordDepth)) // kept: no spare capacity
			e = cachedRecord{rec: deepCopy(reflect.ValueOf(*p)).Interface().(PaneRecord), json: indented}
		}
		next[p.ID] = e
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(append(dst, "\n    "...), e.json...)
	}
	if len(r.Panes) > 0 {
		dst = append(dst, "\n  "...)
	}
	dst = append(dst, "]\n}"...)
	c.recs, c.size = next, len(dst)
	return dst, nil
}

// deepCopy copies v and everything it points to, so that no slice, map or
// pointer of the copy is shared with v. A struct's unexported fields are
// copied as they are (a time.Time's location is never written through).
func deepCopy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		c := reflect.New(v.Type().Elem())
		c.Elem().Set(deepCopy(v.Elem()))
		return c
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			c.Index(i).Set(deepCopy(v.Index(i)))
		}
		return c
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			c.SetMapIndex(deepCopy(it.Key()), deepCopy(it.Value()))
		}
		return c
	case reflect.Struct:
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		for i := range v.NumField() {
			if f := c.Field(i); f.CanSet() {
				f.Set(deepCopy(v.Field(i)))
			}
		}
		return c
	default:
		return v
	}
}
