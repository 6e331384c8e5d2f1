package host

import (
	"strings"
	"testing"

	"clowder/supervisor/proto"
)

// TestHostBadRequestBodyIsDescribedOnce pins a CLI trial finding: a
// request body that does not decode was answered "decode list: decode
// list body: ...", the operation named twice.
func TestHostBadRequestBodyIsDescribedOnce(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	e := c.rawCall(proto.MsgList, `{"panes": 5}`)
	if e == nil || e.Code != proto.CodeBadRequest {
		t.Fatalf("a list with a bad body answered %+v; want bad-request", e)
	}
	if strings.Count(e.Message, "decode") != 1 || !strings.Contains(e.Message, "list") {
		t.Fatalf("message %q; want the decoding of the list body named once", e.Message)
	}
}
