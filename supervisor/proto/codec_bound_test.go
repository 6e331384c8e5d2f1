package proto

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestADecodeErrorQuotesABoundedPartOfTheBody pins a hostile client's
// reach into host.log: a hello whose pid is a million digits was refused
// with an error quoting all of them (encoding/json puts the literal in
// its message), and the host wrote that megabyte-long line to its log and
// into the error reply.
func TestADecodeErrorQuotesABoundedPartOfTheBody(t *testing.T) {
	body := []byte(`{"pid":` + strings.Repeat("9", 1<<20) + `}`)
	_, err := DecodeMessage(MsgHello, body)
	if err == nil {
		t.Fatal("a pid of a million digits decoded")
	}
	if n := len(err.Error()); n > 512 {
		t.Fatalf("the error is %d bytes long, want at most 512: %.200s...", n, err)
	}
	if !strings.Contains(err.Error(), "pid") {
		t.Fatalf("the error does not name the field: %v", err)
	}
}

// TestAnInvalidValueIsQuotedInPart pins the same for a value that decodes
// but is refused: a megabyte cwd was quoted whole in the error.
func TestAnInvalidValueIsQuotedInPart(t *testing.T) {
	cwd := strings.Repeat("é", 1<<19) // not absolute; a rune of two bytes, cut at its start
	err := (&SpawnReq{Argv: []string{"true"}, Cwd: cwd}).Validate()
	if err == nil {
		t.Fatal("a relative cwd was accepted")
	}
	msg := err.Error()
	if len(msg) > 512 || !strings.Contains(msg, "give an absolute directory") || !utf8.ValidString(msg) {
		t.Fatalf("the error is %d bytes, says what to do: %v, valid UTF-8: %v: %.200s",
			len(msg), strings.Contains(msg, "give an absolute directory"), utf8.ValidString(msg), msg)
	}
}

// TestEveryRefusalQuotesABoundedPartOfTheValue: the bound of
// TestAnInvalidValueIsQuotedInPart held only for values Invalid was given
// as strings; a refusal built on another function's error (a signal's, a
// key name's, a regexp's) still quoted the whole value: a megabyte signal
// name or key name came back whole in the reply and in host.log.
func TestEveryRefusalQuotesABoundedPartOfTheValue(t *testing.T) {
	big := strings.Repeat("X", 1<<20)
	badRegexp := "(" + strings.Repeat("a", MaxWaitTextLen-1)
	tests := []struct {
		name string
		req  Validator
		says string // what to do, kept whole
	}{
		{"signal", &SignalReq{Pane: "p1", Signal: big}, "use a name like TERM"},
		{"kill signal", &KillReq{Pane: "p1", Signal: big}, "use a name like TERM"},
		{"key name", &InputReq{Pane: "p1", Keys: []string{"Enter", big}}, "to send text as typed"},
		{"wait regexp", &WaitReq{Pane: "p1", Text: badRegexp}, "missing closing )"},
		{"pane name", &RenameReq{Pane: "p1", Name: big}, "shorten"},
		{"kind", &SpawnReq{Argv: []string{"true"}, Kind: big}, "is not agent, shell or run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.req.Validate()
			if err == nil {
				t.Fatal("accepted")
			}
			msg := err.Error()
			if len(msg) > 512 || !strings.Contains(msg, tt.says) || !utf8.ValidString(msg) {
				t.Fatalf("the error is %d bytes (at most 512), says %q: %v: %.300s", len(msg), tt.says, strings.Contains(msg, tt.says), msg)
			}
		})
	}
}
