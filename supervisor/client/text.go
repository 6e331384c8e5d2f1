// This file turns a pane's raw output into plain text for `clowder log`
// and `clowder poll`: escape sequences (CSI, OSC, DCS, SOS, PM, APC and
// two- or three-byte ESC sequences) are removed, C0 controls other than
// newline and tab are dropped, CR LF becomes LF, and a lone CR (a progress
// bar redrawing its line) becomes LF so that every state of the line is
// kept rather than overprinted. It does not emulate a screen: cursor
// movement is dropped, so a full-screen program's output reads as its text
// in the order it was written. `clowder capture` is the screen as shown.

package client

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// textState is where TextFilter is inside an escape sequence.
type textState uint8

const (
	textGround   textState = iota
	textEsc                // after ESC
	textEscInter           // after ESC and an intermediate byte (ESC ( B)
	textCSI                // inside CSI, until a final byte
	textString             // inside OSC/DCS/SOS/PM/APC, until BEL or ST
	textStrEsc             // ESC inside a string: ST if '\' follows
)

// TextFilter strips terminal control from a byte stream. Sequences split
// across Append calls are handled. The zero value is ready; it is not safe
// for concurrent use.
type TextFilter struct {
	state     textState
	pendingCR bool
}

// Append filters p and appends the text to dst.
func (t *TextFilter) Append(dst, p []byte) []byte {
	for _, b := range p {
		dst = t.step(dst, b)
	}
	return dst
}

// step advances the state machine by one byte.
func (t *TextFilter) step(dst []byte, b byte) []byte {
	switch t.state {
	case textEsc:
		t.state = escNext(b)
	case textEscInter:
		if b < 0x20 || b > 0x2f {
			t.state = textGround
		}
	case textCSI:
		if b == 0x1b {
			t.state = textEsc
		} else if b >= 0x40 && b <= 0x7e {
			t.state = textGround
		}
	case textString:
		if b == 0x07 {
			t.state = textGround
		} else if b == 0x1b {
			t.state = textStrEsc
		}
	case textStrEsc:
		t.state = escNext(b)
		if b == '\\' {
			t.state = textGround
		}
	default:
		dst = t.ground(dst, b)
	}
	return dst
}

// escNext is the state after ESC b.
func escNext(b byte) textState {
	switch {
	case b == '[':
		return textCSI
	case b == ']' || b == 'P' || b == 'X' || b == '^' || b == '_':
		return textString
	case b == 0x1b:
		return textEsc
	case b >= 0x20 && b <= 0x2f:
		return textEscInter
	default:
		return textGround
	}
}

// ground handles a byte outside any sequence.
func (t *TextFilter) ground(dst []byte, b byte) []byte {
	switch {
	case b == 0x1b:
		t.state = textEsc
	case b == '\r':
		t.pendingCR = true
	case b == '\n':
		t.pendingCR = false
		dst = append(dst, '\n')
	case b < 0x20 && b != '\t', b == 0x7f:
		// other controls (BEL, BS, SO/SI, ...) have no text
	default:
		if t.pendingCR {
			t.pendingCR = false
			dst = append(dst, '\n')
		}
		dst = append(dst, b)
	}
	return dst
}

// LastLines returns the last n lines of text (a final line without a
// newline counts as a line); n <= 0 returns text unchanged.
func LastLines(text []byte, n int) []byte {
	if n <= 0 {
		return text
	}
	end := len(text)
	if end > 0 && text[end-1] == '\n' {
		end--
	}
	for i := 0; i < n; i++ {
		j := bytes.LastIndexByte(text[:end], '\n')
		if j < 0 {
			return text
		}
		if i == n-1 {
			return text[j+1:]
		}
		end = j
	}
	return text
}

// NewlineFilter turns CR LF into LF in a byte stream, leaving every other
// byte alone: what `clowder exec` prints of a PTY run so its output reads
// like a pipe's. A CR split from its LF across Append calls is held back.
// The zero value is ready; it is not safe for concurrent use.
type NewlineFilter struct{ pendingCR bool }

// Append filters p and appends the result to dst.
func (n *NewlineFilter) Append(dst, p []byte) []byte {
	for _, b := range p {
		if n.pendingCR {
			n.pendingCR = false
			if b != '\n' {
				dst = append(dst, '\r')
			}
		}
		if b == '\r' {
			n.pendingCR = true
			continue
		}
		dst = append(dst, b)
	}
	return dst
}

// Flush appends a CR still held back at the end of the stream.
func (n *NewlineFilter) Flush(dst []byte) []byte {
	if n.pendingCR {
		n.pendingCR = false
		dst = append(dst, '\r')
	}
	return dst
}

// EscapeControls makes untrusted text safe to print on a terminal: C0
// controls (newline and tab included), DEL and C1 controls become Go-style
// escapes (\n, \t, \x1b, \u009b), and each byte of invalid UTF-8 becomes
// \xNN, so a pane's cwd, argv or title can never move the cursor, change
// the window title or clear the screen of whoever lists it. Every other
// character, backslash included, is kept as it is. Human-readable CLI
// output goes through it; JSON output is escaped by JSON instead.
func EscapeControls(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i, w := 0, 0; i < len(s); i += w {
		r, n := utf8.DecodeRuneInString(s[i:])
		w = n
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case isControl(r):
			b.WriteString(escapeRune(r))
		default:
			b.WriteString(s[i : i+n])
		}
	}
	return b.String()
}

// needsEscape reports whether s holds a control or invalid UTF-8.
func needsEscape(s string) bool {
	return !utf8.ValidString(s) || strings.IndexFunc(s, isControl) >= 0
}

// isControl is a C0 control, DEL or a C1 control.
func isControl(r rune) bool { return r < 0x20 || (r >= 0x7f && r < 0xa0) }

// escapeRune spells a control the way Go source would.
func escapeRune(r rune) string {
	switch r {
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	}
	if r < 0x80 {
		return fmt.Sprintf(`\x%02x`, r)
	}
	return fmt.Sprintf(`\u%04x`, r)
}
