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
