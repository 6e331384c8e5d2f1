package proto

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestFastJSONReadsADuplicatedObjectKeyAsEncodingJSON pins a trial-4 bug:
// a key whose value is an object (a version, the panes) given twice was
// read afresh by the fast path, while encoding/json fills the value the
// first one left, so the same body decoded differently by path (a
// version's major lost, a pane's fields dropped).
func TestFastJSONReadsADuplicatedObjectKeyAsEncodingJSON(t *testing.T) {
	for _, c := range []struct {
		typ  MsgType
		body string
	}{
		{MsgWelcome, `{"version":{"major":1,"minor":2},"version":{"minor":3}}`},
		{MsgHello, `{"min":{"major":1,"minor":2},"min":{"minor":3},"max":{"major":1},"max":{"minor":4}}`},
		{MsgPaneList, `{"panes":[{"id":"p1","name":"a"}],"panes":[{"id":"p2"}]}`},
		{MsgPaneList, `{"panes":[{"id":"p1","worktree":{"repo":"r"}},{"id":"p3"}],"panes":[{"id":"p2"}]}`},
		{MsgPaneList, `{"panes":[],"panes":[{"id":"p2"}]}`},
	} {
		want := msgBodies[c.typ]()
		if err := json.Unmarshal([]byte(c.body), want); err != nil {
			t.Fatalf("%s: encoding/json: %v", c.body, err)
		}
		got, err := DecodeMessage(c.typ, []byte(c.body))
		if err != nil {
			t.Fatalf("%s: %v", c.body, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s %s:\n got %#v\nwant %#v", c.typ, c.body, got, want)
		}
	}
}
