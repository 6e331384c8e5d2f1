package panes

// This file is paste and submit: the bytes a pane receives when a user or
// a script pastes text into it, and "submit" (paste, then Enter), which is
// how clowder types a prompt into an agent.
//
// Paste is bracketed (ESC[200~ ... ESC[201~) only when the program enabled
// mode 2004; otherwise it is the text as if typed. Newlines become CR, as
// every terminal sends on paste. Unless raw, text with control characters
// other than tab and newline is refused: they would act as keys (ESC
// starts sequences, ^C interrupts, ^D ends input). The bracket markers are
// always removed from inside the text, so a paste cannot end itself early
// and have the rest run as typed input.

import (
	"fmt"
	"strings"
	"time"

	"clowder/vtgrid"
)

// Bracketed paste markers (DECSET 2004).
const (
	PasteStart = "\x1b[200~"
	PasteEnd   = "\x1b[201~"
)

// PasteOptions tune Paste; the zero value is the safe default.
type PasteOptions struct {
	// Raw sends the text's bytes unchanged (no newline conversion, control
	// characters allowed). Bracket markers inside are still removed.
	Raw bool
	// NoStart and NoEnd leave out the opening and the closing bracket
	// marker, for a paste sent in parts: the first part opens, the last
	// closes, so the program sees one paste.
	NoStart, NoEnd bool
}

// ControlCharError reports a control character in text to paste.
type ControlCharError struct {
	Char   rune
	Offset int // byte offset in the text
}

func (e *ControlCharError) Error() string {
	return fmt.Sprintf("paste: text has control character %s at byte %d; "+
		"remove it, or paste raw (--raw) to send it as a key", controlName(e.Char), e.Offset)
}

// controlName is "0x1b (ESC)" style.
func controlName(r rune) string {
	names := map[rune]string{0: "NUL", 0x03: "^C", 0x04: "^D", 0x1b: "ESC", 0x7f: "DEL"}
	s := fmt.Sprintf("%#02x", r)
	if n, ok := names[r]; ok {
		s += " (" + n + ")"
	}
	return s
}

// Paste returns the bytes that paste text into a pane with modes m.
func Paste(text string, m vtgrid.Modes, o PasteOptions) ([]byte, error) {
	if !o.Raw {
		if err := CheckPaste(text); err != nil {
			return nil, err
		}
		text = normalizeNewlines(text)
	}
	text = stripMarkers(text)
	if !m.BracketedPaste {
		return []byte(text), nil
	}
	out := make([]byte, 0, len(PasteStart)+len(text)+len(PasteEnd))
	if !o.NoStart {
		out = append(out, PasteStart...)
	}
	out = append(out, text...)
	if !o.NoEnd {
		out = append(out, PasteEnd...)
	}
	return out, nil
}

// CheckPaste refuses C0 controls other than tab, LF and CR, DEL, and C1
// controls (which 8-bit terminals read as ESC sequences), as Paste does
// unless raw. Invalid UTF-8 is passed on: the program decides what to
// make of it. A client checks a paste it splits into parts first, so that
// a bad byte in the last part is refused before any part is sent.
func CheckPaste(text string) error {
	for i, r := range text {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			return &ControlCharError{Char: r, Offset: i}
		}
	}
	return nil
}

// normalizeNewlines turns CRLF and LF into CR.
func normalizeNewlines(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\r"), "\n", "\r")
}

// stripMarkers removes bracket markers until none is left: removing one
// can join the pieces of another ("\x1b[20\x1b[201~1~").
func stripMarkers(s string) string {
	for strings.Contains(s, PasteEnd) || strings.Contains(s, PasteStart) {
		s = strings.ReplaceAll(strings.ReplaceAll(s, PasteEnd, ""), PasteStart, "")
	}
	return s
}

// Submission is a prompt typed into a pane: Paste, then Enter. The host
// writes Paste, waits Gap (when not zero), then writes Enter, because some
// agent TUIs read an Enter that arrives in the same read as the paste as
// part of the text.
type Submission struct {
	Paste []byte
	Enter []byte
	Gap   time.Duration
}

// Bytes is Paste and Enter in one write, for callers with no gap to keep.
func (s Submission) Bytes() []byte {
	return append(append([]byte(nil), s.Paste...), s.Enter...)
}

// Submit builds the submission of text to a pane with modes m, with the
// adapter's gap (a nil adapter means no gap). Enter is encoded for the
// pane's modes, so a program in kitty report-all mode gets CSI 13u.
func Submit(text string, m vtgrid.Modes, a *Adapter, o PasteOptions) (Submission, error) {
	p, err := Paste(text, m, o)
	if err != nil {
		return Submission{}, err
	}
	s := Submission{Paste: p, Enter: Encode(Key{Code: KeyEnter}, m)}
	if a != nil {
		s.Gap = a.SubmitGap
	}
	return s, nil
}
