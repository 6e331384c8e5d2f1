package proto

import (
	"errors"
	"testing"
)

func TestHookReqValidate(t *testing.T) {
	ok := HookReq{Pane: "p3", Agent: "claude", Event: "SessionStart", Session: "3f1c2a9e-6b1d-4c8e-9a51-0d2f7e4b8c10", Source: "clear"}
	if err := ok.Validate(); err != nil {
		t.Fatalf("valid request refused: %v", err)
	}
	bad := map[string]HookReq{
		"no pane":        {Event: "Stop"},
		"no event":       {Pane: "p3"},
		"control event":  {Pane: "p3", Event: "St\x1bop"},
		"option session": {Pane: "p3", Event: "Stop", Session: "--dangerously-skip-permissions"},
		"spaced session": {Pane: "p3", Event: "Stop", Session: "a b"},
	}
	for name, req := range bad {
		if err := req.Validate(); !errors.Is(err, &ErrorReply{Code: CodeBadRequest}) {
			t.Errorf("%s: Validate = %v, want bad-request", name, err)
		}
	}
}
