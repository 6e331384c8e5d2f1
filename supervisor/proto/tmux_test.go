package proto

import (
	"strings"
	"testing"
)

// TestAdoptTmuxReqValidate: the socket must be an absolute path, the
// target a tmux target that cannot pass for a flag, the name valid.
func TestAdoptTmuxReqValidate(t *testing.T) {
	ok := AdoptTmuxReq{Socket: "/tmp/tmux-1/default", Target: "%3", Name: "build"}
	if err := ok.Validate(); err != nil {
		t.Fatalf("a good request refused: %v", err)
	}
	for field, bad := range map[string]AdoptTmuxReq{
		"socket": {Socket: "rel", Target: "%3"},
		"target": {Socket: "/s", Target: "-t"},
		"name":   {Socket: "/s", Target: "%3", Name: "a b\x1b"},
	} {
		err := bad.Validate()
		if err == nil || !strings.Contains(err.Error(), field+": ") {
			t.Errorf("%+v: %v; want a %s error", bad, err, field)
		}
	}
	if err := (&AdoptTmuxReq{Socket: "/s", Target: "a\nb"}).Validate(); err == nil {
		t.Error("a target with a newline was taken")
	}
}
