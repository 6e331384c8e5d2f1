package layout

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestJSONRoundTripIsExact(t *testing.T) {
	resized := tree(h(0.5, leaf("a"), v(0.5, leaf("b"), leaf("c"))))
	mustOK(t, resized.Resize("b", Down, 7, Rect{0, 0, 203, 61}, small))
	mustOK(t, resized.Drag("", 77, Rect{0, 0, 203, 61}, small))
	zoomed := tree(v(1.0/3, leaf("x"), leaf("y")))
	mustOK(t, zoomed.Zoom("y"))
	focused := tree(h(0.0001, leaf("a"), leaf("b")))
	mustOK(t, focused.SetFocus("b"))
	tests := map[string]*Tree{
		"empty":   {},
		"single":  New("only"),
		"resized": resized,
		"zoomed":  zoomed,
		"focused": focused,
		"unicode": New("пане ✓ \"quoted\""),
	}
	for name, tr := range tests {
		t.Run(name, func(t *testing.T) {
			data, err := Marshal(tr)
			mustOK(t, err)
			back, err := Unmarshal(data)
			mustOK(t, err)
			if !back.Equal(tr) {
				t.Fatalf("round trip changed\n%v\nto\n%v", tr, back)
			}
			again, err := Marshal(back)
			mustOK(t, err)
			if string(again) != string(data) {
				t.Errorf("second encoding differs:\n%s\n%s", data, again)
			}
		})
	}
}

func TestJSONForm(t *testing.T) {
	tr := tree(h(0.5, leaf("a"), v(0.25, leaf("b"), leaf("c"))))
	mustOK(t, tr.Zoom("b"))
	data, err := Marshal(tr)
	mustOK(t, err)
	want := `{"schema_version":1,"focus":"b","zoom":"b","root":{"axis":"horizontal","ratio":0.5,` +
		`"children":[{"pane":"a"},{"axis":"vertical","ratio":0.25,"children":[{"pane":"b"},{"pane":"c"}]}]}}`
	if string(data) != want {
		t.Errorf("got  %s\nwant %s", data, want)
	}
	empty, err := Marshal(&Tree{})
	mustOK(t, err)
	if want := `{"schema_version":1,"focus":"","zoom":"","root":null}`; string(empty) != want {
		t.Errorf("empty tree: got %s, want %s", empty, want)
	}
}

func TestJSONEmbedsInAnotherDocument(t *testing.T) {
	type file struct {
		Layout *Tree `json:"layout"`
	}
	in := file{Layout: tree(h(0.3, leaf("a"), leaf("b")))}
	data, err := json.Marshal(in)
	mustOK(t, err)
	var out file
	mustOK(t, json.Unmarshal(data, &out))
	if !out.Layout.Equal(in.Layout) {
		t.Errorf("embedded round trip: %v", out.Layout)
	}
}

func TestUnmarshalRefusesMalformedInput(t *testing.T) {
	const ok = `{"pane":"a"}`
	split := func(fields string) string {
		return `{"schema_version":1,"focus":"a","root":{` + fields + `}}`
	}
	tests := []struct {
		name, in, want string
	}{
		{"newer schema names both versions", `{"schema_version":2,"root":null}`, "schema_version 2 is newer than this clowder supports (1)"},
		{"newer schema refused before its content", `{"schema_version":9,"root":{"axis":"diagonal"}}`, "schema_version 9 is newer"},
		{"missing schema", `{"root":null}`, "missing schema_version"},
		{"zero schema", `{"schema_version":0}`, "invalid schema_version 0"},
		{"not JSON", `layout`, "invalid character"},
		{"truncated", `{"schema_version":1,"root":{"pane":`, "unexpected end"},
		{"wrong type", `{"schema_version":"1"}`, "cannot unmarshal"},
		{"duplicate pane", split(`"axis":"horizontal","ratio":0.5,"children":[` + ok + `,` + ok + `]`), `pane "a" appears twice`},
		{"split without children", split(`"axis":"horizontal","ratio":0.5`), "split has no children"},
		{"split with one child", split(`"axis":"horizontal","ratio":0.5,"children":[` + ok + `]`), "split has 1 children (want 2)"},
		{"split with three children", split(`"axis":"horizontal","ratio":0.5,"children":[{"pane":"a"},{"pane":"b"},{"pane":"c"}]`), "split has 3 children"},
		{"empty node", `{"schema_version":1,"focus":"a","root":{}}`, "neither a pane nor children"},
		{"null child", split(`"axis":"horizontal","ratio":0.5,"children":[` + ok + `,null]`), "root.children[1]: null node"},
		{"ratio zero", split(`"axis":"vertical","ratio":0,"children":[{"pane":"a"},{"pane":"b"}]`), "ratio 0 is out of range"},
		{"ratio one", split(`"axis":"vertical","ratio":1,"children":[{"pane":"a"},{"pane":"b"}]`), "ratio 1 is out of range"},
		{"ratio negative", split(`"axis":"vertical","ratio":-0.5,"children":[{"pane":"a"},{"pane":"b"}]`), "out of range"},
		{"ratio missing", split(`"axis":"vertical","children":[{"pane":"a"},{"pane":"b"}]`), "split has no ratio"},
		{"unknown axis", split(`"axis":"diagonal","ratio":0.5,"children":[{"pane":"a"},{"pane":"b"}]`), `unknown axis "diagonal"`},
		{"missing axis", split(`"ratio":0.5,"children":[{"pane":"a"},{"pane":"b"}]`), `unknown axis ""`},
		{"pane with children", split(`"pane":"x","axis":"vertical","ratio":0.5,"children":[{"pane":"a"},{"pane":"b"}]`), `pane "x" also has children`},
		{"pane with a ratio", `{"schema_version":1,"focus":"a","root":{"pane":"a","ratio":0.5}}`, `pane "a" also has an axis or ratio`},
		{"deep error names the path", split(`"axis":"vertical","ratio":0.5,"children":[{"pane":"a"},{"axis":"horizontal","ratio":2,"children":[{"pane":"b"},{"pane":"c"}]}]`), "root.children[1]: ratio 2"},
		{"focus names no pane", `{"schema_version":1,"focus":"x","root":{"pane":"a"}}`, `focus names pane "x"`},
		{"focus missing", `{"schema_version":1,"root":{"pane":"a"}}`, "focus is empty"},
		{"zoom names no pane", `{"schema_version":1,"focus":"a","zoom":"x","root":{"pane":"a"}}`, `zoom names pane "x"`},
		{"zoom off the focus", `{"schema_version":1,"focus":"a","zoom":"b","root":{"axis":"vertical","ratio":0.5,"children":[{"pane":"a"},{"pane":"b"}]}}`, `zoom names pane "b" but focus is pane "a"`},
		{"focus on an empty tree", `{"schema_version":1,"focus":"a","root":null}`, `focus names pane "a"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := New("keep")
			err := json.Unmarshal([]byte(tc.in), tr)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
			if !tr.Equal(New("keep")) {
				t.Errorf("failed decode changed the tree to %v", tr)
			}
			got, err := Unmarshal([]byte(tc.in))
			if err == nil || got != nil {
				t.Fatalf("Unmarshal accepted what json.Unmarshal refused")
			}
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "decode layout: ") || !strings.Contains(msg, tc.want) {
				t.Errorf("Unmarshal error is not one line naming the operation and cause: %q", msg)
			}
		})
	}
}

// FuzzUnmarshal feeds arbitrary bytes to Unmarshal: it must never panic,
// and whatever it accepts must be a well-formed tree that round-trips.
func FuzzUnmarshal(f *testing.F) {
	good, _ := Marshal(tree(h(0.5, leaf("a"), v(0.25, leaf("b"), leaf("c")))))
	for _, seed := range []string{
		string(good), `{"schema_version":1,"root":null}`, `{"schema_version":2}`, `{}`, `null`, `[]`,
		`{"schema_version":1,"focus":"a","root":{"axis":"vertical","ratio":0.5,"children":[{"pane":"a"},{"pane":"a"}]}}`,
		`{"schema_version":1,"focus":"a","root":{"axis":"horizontal","ratio":1e-300,"children":[{"pane":"a"},{"pane":"b"}]}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := Unmarshal(data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines: %q", err)
			}
			return
		}
		checkTree(t, tr)
		checkGeometry(t, tr, Rect{0, 0, 30, 10}, small)
		checkJSON(t, tr, "Unmarshal")
	})
}
