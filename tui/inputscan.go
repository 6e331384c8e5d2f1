package tui

// This file decodes the terminal's input on the goroutine that reads it
// (issue 12). ultraviolet's TerminalReader reads on one goroutine and
// decodes on another, a hop (and often a thread's wake-up) for every key
// between the terminal's read and the loop. Its decoding is exported
// (EventDecoder.Decode); what its reader decides around it (keep an
// incomplete sequence until more comes or the escape timeout expires,
// gather a bracketed paste) is unexported, so this file decides it, the
// same way event for event (TestTheScannerDecodesAsUltravioletDoes holds
// the two side by side, so an upgrade of ultraviolet that changes its
// reader fails there), for the terminals clowder runs on (no Windows
// console input). Its key table adds nothing Decode does not decode the
// same, but for one ambiguity (keyTableKey). It differs from
// ultraviolet's reader on purpose where reads cut input: a read that is
// exactly a key's sequence inside an open paste stays in the paste, a
// paste's end marker cut by the escape timeout still ends it
// (endMarkerPart), and a reply cut inside its ESC \ is no key
// (cutAtTerminator).

import (
	"reflect"
	"unicode/utf8"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// inputScanner turns the terminal's bytes into events, in order.
type inputScanner struct {
	dec   uv.EventDecoder
	buf   []byte // read, not yet decoded: an incomplete sequence
	paste []byte // a bracketed paste's text so far; nil outside one
}

// feed decodes b after what was kept and hands every whole event to
// emit; an incomplete sequence at the end is kept for the next feed.
func (s *inputScanner) feed(b []byte, emit func(uv.Event)) {
	s.buf = append(s.buf, b...)
	s.decode(false, emit)
}

// expire decodes what was kept as it is: no more of it came within the
// escape timeout (a lone ESC is the escape key), or the input ended.
func (s *inputScanner) expire(emit func(uv.Event)) { s.decode(true, emit) }

// pending reports whether bytes wait for more input or the timeout.
func (s *inputScanner) pending() bool { return len(s.buf) > 0 }

// decode decodes the kept bytes and keeps what is not decoded yet.
func (s *inputScanner) decode(expired bool, emit func(uv.Event)) {
	n := s.scan(s.buf, expired, emit)
	s.buf = append(s.buf[:0], s.buf[n:]...)
}

// scan hands buf's events to emit and returns how many bytes they took.
func (s *inputScanner) scan(buf []byte, expired bool, emit func(uv.Event)) int {
	if k, ok := keyTableKey(&s.dec, buf); ok && s.paste == nil { // inside a paste it is pasted text

		emit(k)
		return len(buf)
	}
	total := 0
	for len(buf) > 0 {
		esc := buf[0] == ansi.ESC
		n, ev := s.dec.Decode(buf)
		if !expired && cutAtTerminator(buf, n) {
			return total // the \ of its ESC \ may be in the next read
		}
		if s.paste != nil {
			if endMarkerPart(buf) {
				return total // only the marker's rest can follow: wait for it, however long
			}
			if _, end := ev.(uv.PasteEndEvent); !end {
				if !s.pasted(buf[:n], ev, esc, expired) {
					return total
				}
				buf, total = buf[n:], total+n
				continue
			}
		}
		if !s.event(ev, esc && n <= 2, expired, emit) {
			return total
		}
		buf, total = buf[n:], total+n
	}
	return total
}

// event acts on one decoded event outside a paste, and reports whether
// its bytes are taken (false: wait for more input). short is an ESC
// and at most one byte after it, which more input may complete.
func (s *inputScanner) event(ev uv.Event, short, expired bool, emit func(uv.Event)) bool {
	if ev == nil || isIgnored(ev) { // taken, whatever its length
		return true
	}
	switch e := ev.(type) {
	case uv.UnknownEvent:
		if !expired {
			return false
		}
		emit(e)
		return true
	case uv.PasteStartEvent:
		s.paste = []byte{}
	case uv.PasteEndEvent:
		emit(uv.PasteEvent{Content: validRunes(s.paste)})
		s.paste = nil
	}
	if short && !expired {
		return false
	}
	if m, ok := ev.(uv.MultiEvent); ok {
		for _, e := range m {
			emit(e)
		}
		return true
	}
	emit(ev)
	return true
}

// isIgnored reports whether ev is a sequence ultraviolet decodes only to
// drop (its unexported ignoredEvent). One comparison of the type's
// identity: it runs for every event, and asking the type its name and
// package cost 60 ns a key (issue 12).
func isIgnored(ev uv.Event) bool { return reflect.TypeOf(ev) == ignoredType }

// ignoredType is ultraviolet's ignoredEvent, which it decodes an OSC
// cancelled by CAN to (TestIgnoredTypeIsUltravioletsIgnoredEvent).
var ignoredType = func() reflect.Type {
	var dec uv.EventDecoder
	_, ev := dec.Decode([]byte("\x1b]0;x\x18"))
	return reflect.TypeOf(ev)
}()

// keyTableKey is the key ultraviolet's key table gives a whole read, where
// that differs from Decode: CSI 1;m R, F3 with modifiers, which Decode
// decodes as both the key and a cursor position report (a MultiEvent),
// and the table as the key alone. Every other entry of the table decodes
// to the same key. Inside a paste the table is not looked up: a read that
// is exactly a key's sequence stays in the paste (ultraviolet's reader
// takes it out of the paste as a key press, where it looks its table up
// first; TestAKeyTableSequenceInsideAPasteStaysInThePaste).
func keyTableKey(dec *uv.EventDecoder, buf []byte) (uv.Event, bool) {
	if len(buf) <= 2 || buf[0] != ansi.ESC || buf[len(buf)-1] != 'R' {
		return nil, false
	}
	n, ev := dec.Decode(buf)
	m, ok := ev.(uv.MultiEvent)
	if n != len(buf) || !ok || len(m) != 2 {
		return nil, false
	}
	k, isKey := m[0].(uv.KeyPressEvent)
	_, isPos := m[1].(uv.CursorPositionEvent)
	return k, isKey && isPos
}

// pasted adds one decoded event inside a bracketed paste to the paste,
// and reports whether its bytes seq are taken (false: wait for more).
func (s *inputScanner) pasted(seq []byte, ev uv.Event, esc, expired bool) bool {
	switch e := ev.(type) {
	case uv.KeyPressEvent:
		if len(e.Text) > 0 {
			s.paste = append(s.paste, e.Text...)
			return true
		}
		if esc && len(seq) <= 2 && !expired {
			return false
		}
		s.paste = append(s.paste, seq...)
	case uv.UnknownEvent:
		return expired
	}
	return true
}

// cutAtTerminator reports whether the sequence Decode took as buf[:n] is
// a string (OSC, DCS, APC, PM, SOS: a terminal's reply) that the end of
// buf cut inside its terminator ESC \: Decode ends it at the ESC, and the
// \ of the next read would be a key typed (ultraviolet's reader does;
// TestAReplyCutInsideItsTerminatorIsNoKey).
func cutAtTerminator(buf []byte, n int) bool {
	if n != len(buf) || n < 3 || buf[0] != ansi.ESC || buf[n-1] != ansi.ESC {
		return false
	}
	switch buf[1] {
	case ']', 'P', '_', '^', 'X':
		return true
	}
	return false
}

// pasteEnd is the marker that ends a bracketed paste.
const pasteEnd = "\x1b[201~"

// endMarkerPart reports whether b is the start of a paste's end marker and
// no more. Inside a paste it is kept even past the escape timeout, which
// would take it as an unknown sequence and drop it: the paste would never
// end, and every key after it would go into it (ultraviolet's reader
// does; TestAPasteEndMarkerCutByTheEscapeTimeoutStillEndsThePaste).
func endMarkerPart(b []byte) bool {
	return len(b) < len(pasteEnd) && pasteEnd[:len(b)] == string(b)
}

// validRunes is b's text with invalid UTF-8 left out, as ultraviolet
// makes a paste's content.
func validRunes(b []byte) string {
	out := make([]rune, 0, len(b))
	for len(b) > 0 {
		r, w := utf8.DecodeRune(b)
		if r != utf8.RuneError {
			out = append(out, r)
		}
		b = b[w:]
	}
	return string(out)
}
