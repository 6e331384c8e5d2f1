// This file writes and reads the JSON bodies of the messages every CLI
// command exchanges (hello, welcome, list, pane-list, capture, ok, error)
// by hand, without reflection. encoding/json builds a cache of each type's
// fields and encoders on its first use, which a one-shot process pays in
// full: about a fifth of an `ls`'s CPU (bench/profiles/cli.md). The wire
// format does not change: the appenders write exactly the bytes
// encoding/json writes (golden files), and the decoders read the form
// encoding/json writes. Anything else (a key in another case, a null, a
// number with a fraction, invalid UTF-8, bad JSON) makes a decoder report
// false and DecodeMessage decode the body with encoding/json, so every
// body decodes exactly as before (FuzzFastJSONDecodeMatchesEncodingJSON).

package proto

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonAppender is implemented by bodies whose JSON is written by hand.
type jsonAppender interface {
	appendJSON(dst []byte) []byte
}

// jsonDecoder is implemented by pointers to bodies whose JSON is read by
// hand. decodeJSON reports false for any body it does not read exactly as
// encoding/json would; the body it filled is then thrown away.
type jsonDecoder interface {
	decodeJSON(b []byte) bool
}

// jsonHex is the digits of \u escapes.
const jsonHex = "0123456789abcdef"

// appendJSONString appends s as encoding/json.Marshal quotes it: HTML
// characters, controls, U+2028 and U+2029 escaped, and each byte of
// invalid UTF-8 as \ufffd.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if jsonSafe(b) {
				i++
				continue
			}
			dst = appendJSONEscape(append(dst, s[start:i]...), b)
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(append(dst, s[start:i]...), `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(append(dst, s[start:i]...), '\\', 'u', '2', '0', '2', jsonHex[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(append(dst, s[start:]...), '"')
}

// jsonSafe reports whether the ASCII byte b needs no escape in
// encoding/json's HTML-safe output.
func jsonSafe(b byte) bool { return jsonSafeSet[b] }

// jsonSafeSet is jsonSafe as a table, for speed.
var jsonSafeSet = func() (t [utf8.RuneSelf]bool) {
	for b := range t {
		t[b] = b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&'
	}
	return t
}()

// appendJSONEscape appends the escape of the ASCII byte b.
func appendJSONEscape(dst []byte, b byte) []byte {
	switch b {
	case '\\', '"':
		return append(dst, '\\', b)
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	return append(dst, '\\', 'u', '0', '0', jsonHex[b>>4], jsonHex[b&0xF])
}

// appendJSONStrings appends a JSON array of strings; nil is null, as
// encoding/json writes it.
func appendJSONStrings(dst []byte, list []string) []byte {
	if list == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i, s := range list {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, s)
	}
	return append(dst, ']')
}

// The field appenders below write one field of an object that dst ends
// inside of (after its '{' or a previous field), with the comma; an object
// is append(dst, '{'), its fields, then append(dst, '}'). They are plain
// functions of the slice, so nothing is stored through a pointer.

// jsonKey appends the comma if a field came before, and "name":.
func jsonKey(dst []byte, name string) []byte {
	if len(dst) > 0 && dst[len(dst)-1] != '{' {
		dst = append(dst, ',')
	}
	return append(append(append(dst, '"'), name...), '"', ':')
}

func jsonStr(dst []byte, name, v string) []byte { return appendJSONString(jsonKey(dst, name), v) }

func jsonInt(dst []byte, name string, v int64) []byte {
	return strconv.AppendInt(jsonKey(dst, name), v, 10)
}

func jsonUint(dst []byte, name string, v uint64) []byte {
	return strconv.AppendUint(jsonKey(dst, name), v, 10)
}

func jsonBool(dst []byte, name string, v bool) []byte {
	return strconv.AppendBool(jsonKey(dst, name), v)
}

func jsonStrs(dst []byte, name string, v []string) []byte {
	return appendJSONStrings(jsonKey(dst, name), v)
}

// jsonStrOmit writes a string field unless it is empty (omitempty).
func jsonStrOmit(dst []byte, name, v string) []byte {
	if v == "" {
		return dst
	}
	return jsonStr(dst, name, v)
}

// jsonVersion writes v as {"major":M,"minor":N}.
func jsonVersion(dst []byte, name string, v Version) []byte {
	dst = append(jsonKey(dst, name), '{')
	dst = jsonUint(dst, "major", uint64(v.Major))
	dst = jsonUint(dst, "minor", uint64(v.Minor))
	return append(dst, '}')
}

// jsonScan reads one JSON value in the form encoding/json writes. Each
// method reports false for anything outside that form.
type jsonScan struct {
	b   []byte
	i   int
	src string // b as a string, made on the first string read: strings without escapes are slices of it
}

// scanJSON starts reading b.
func scanJSON(b []byte) jsonScan { return jsonScan{b: b} }

// slice is b[start:end] as a string: one copy of the body for all its
// strings, instead of one allocation (of its own size class, so often a
// fresh page) each.
func (s *jsonScan) slice(start, end int) string {
	if s.src == "" {
		s.src = string(s.b)
	}
	return s.src[start:end]
}

// ws skips white space.
func (s *jsonScan) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// lit consumes the literal word after white space.
func (s *jsonScan) lit(word string) bool {
	s.ws()
	// Compared in place: string(s.b[s.i:]) as an argument copied the
	// rest of the body at every literal, quadratic in its size.
	if len(s.b)-s.i < len(word) || string(s.b[s.i:s.i+len(word)]) != word {
		return false
	}
	s.i += len(word)
	return true
}

// peek is the next byte after white space, 0 at the end.
func (s *jsonScan) peek() byte {
	s.ws()
	if s.i >= len(s.b) {
		return 0
	}
	return s.b[s.i]
}

// end reports whether only white space is left.
func (s *jsonScan) end() bool { return s.peek() == 0 && s.i == len(s.b) }

// object reads an object, calling field for each key with the scanner at
// its value; field reads the value (unknown for a key it does not know)
// and reports false to give up.
func (s *jsonScan) object(field func(key string) bool) bool {
	if !s.lit("{") {
		return false
	}
	if s.peek() == '}' {
		s.i++
		return true
	}
	for {
		key, ok := s.str()
		if !ok || !s.lit(":") || !field(key) {
			return false
		}
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			return true
		default:
			return false
		}
	}
}

// unknown skips the value of a key the type does not have. keys lists the
// names it has (space separated): a key that differs from one of them only
// in case gives up, because encoding/json would fill that field.
func (s *jsonScan) unknown(key, keys string) bool {
	for k := range strings.FieldsSeq(keys) {
		if strings.EqualFold(k, key) {
			return false
		}
	}
	return s.skip(0)
}

// str reads a string.
func (s *jsonScan) str() (string, bool) {
	if s.peek() != '"' {
		return "", false
	}
	s.i++
	start := s.i
	for s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c == '"':
			v := s.slice(start, s.i)
			s.i++
			return v, true
		case c == '\\':
			return s.escaped(start)
		case c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(s.b[s.i:])
			if r == utf8.RuneError && size == 1 {
				return "", false // encoding/json replaces it; leave that to it
			}
			s.i += size
		default:
			s.i++
		}
	}
	return "", false
}

// escaped finishes a string that has escapes, from its first byte start.
func (s *jsonScan) escaped(start int) (string, bool) {
	out := append(make([]byte, 0, s.i-start+16), s.b[start:s.i]...)
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			return string(out), true
		case c == '\\':
			var ok bool
			if out, ok = s.unescape(out); !ok {
				return "", false
			}
		case c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(s.b[s.i:])
			if r == utf8.RuneError && size == 1 {
				return "", false
			}
			out = append(out, s.b[s.i:s.i+size]...)
			s.i += size
		default:
			out = append(out, c)
			s.i++
		}
	}
	return "", false
}

// unescape appends the escape at s.i (a backslash) to out.
func (s *jsonScan) unescape(out []byte) ([]byte, bool) {
	if s.i+1 >= len(s.b) {
		return out, false
	}
	c := s.b[s.i+1]
	s.i += 2
	switch c {
	case '"', '\\', '/':
		return append(out, c), true
	case 'b':
		return append(out, '\b'), true
	case 'f':
		return append(out, '\f'), true
	case 'n':
		return append(out, '\n'), true
	case 'r':
		return append(out, '\r'), true
	case 't':
		return append(out, '\t'), true
	case 'u':
		return s.unicode(out)
	}
	return out, false
}

// unicode appends a \uXXXX escape whose hex digits are at s.i, pairing
// surrogates as encoding/json does (a lone one becomes U+FFFD).
func (s *jsonScan) unicode(out []byte) ([]byte, bool) {
	r := hex4(s.b[s.i:])
	if r < 0 {
		return out, false
	}
	s.i += 4
	if utf16.IsSurrogate(r) {
		if rest := s.b[s.i:]; len(rest) >= 6 && rest[0] == '\\' && rest[1] == 'u' {
			if r2 := hex4(rest[2:]); r2 >= 0 {
				if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
					s.i += 6
					return utf8.AppendRune(out, dec), true
				}
			}
		}
		r = utf8.RuneError
	}
	return utf8.AppendRune(out, r), true
}

// hex4 is the value of four hex digits, -1 if b does not start with them.
func hex4(b []byte) rune {
	if len(b) < 4 {
		return -1
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// number reads an integer in [lo, hi]; fractions, exponents and values
// out of range give up (encoding/json refuses them for integer fields).
func (s *jsonScan) number(lo, hi int64) (int64, bool) {
	s.ws()
	start := s.i
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	digits := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	if s.i == digits || (s.b[digits] == '0' && s.i-digits > 1) {
		return 0, false
	}
	if s.i < len(s.b) && (s.b[s.i] == '.' || s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		return 0, false
	}
	v, err := strconv.ParseInt(string(s.b[start:s.i]), 10, 64)
	return v, err == nil && v >= lo && v <= hi
}

// unsigned reads an unsigned integer up to hi.
func (s *jsonScan) unsigned(hi uint64) (uint64, bool) {
	s.ws()
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	if s.i == start || (s.b[start] == '0' && s.i-start > 1) {
		return 0, false
	}
	if s.i < len(s.b) && (s.b[s.i] == '.' || s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		return 0, false
	}
	v, err := strconv.ParseUint(string(s.b[start:s.i]), 10, 64)
	return v, err == nil && v <= hi
}

// boolean reads true or false.
func (s *jsonScan) boolean() (bool, bool) {
	switch s.peek() {
	case 't':
		return true, s.lit("true")
	case 'f':
		return false, s.lit("false")
	}
	return false, false
}

// null consumes a null (which sets a slice or pointer to nil).
func (s *jsonScan) null() bool { return s.peek() == 'n' && s.lit("null") }

// strs reads an array of strings; [] is an empty slice, not nil, as with
// encoding/json, and null is nil.
func (s *jsonScan) strs() ([]string, bool) { return scanArray(s, s.str) }

// ints reads an array of ints.
func (s *jsonScan) ints() ([]int, bool) {
	return scanArray(s, func() (int, bool) {
		v, ok := s.number(minInt, maxInt)
		return int(v), ok
	})
}

// scanArray reads an array whose elements elem reads: [] is an empty
// slice, not nil, as with encoding/json, and null is nil.
func scanArray[T any](s *jsonScan, elem func() (T, bool)) ([]T, bool) {
	if s.null() {
		return nil, true
	}
	if !s.lit("[") {
		return nil, false
	}
	out := []T{}
	if s.peek() == ']' {
		s.i++
		return out, true
	}
	for {
		v, ok := elem()
		if !ok {
			return nil, false
		}
		out = append(out, v)
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			return out, true
		default:
			return nil, false
		}
	}
}

// The range of int.
const (
	maxInt = int64(^uint(0) >> 1)
	minInt = -maxInt - 1
)

// maxSkipDepth bounds the nesting skip follows; deeper bodies go to
// encoding/json.
const maxSkipDepth = 64

// skip consumes one value of any kind (an unknown field's).
func (s *jsonScan) skip(depth int) bool {
	if depth > maxSkipDepth {
		return false
	}
	switch c := s.peek(); {
	case c == '"':
		_, ok := s.str()
		return ok
	case c == '{':
		return s.object(func(string) bool { return s.skip(depth + 1) })
	case c == '[':
		return s.skipArray(depth)
	case c == 't':
		return s.lit("true")
	case c == 'f':
		return s.lit("false")
	case c == 'n':
		return s.lit("null")
	case c == '-' || (c >= '0' && c <= '9'):
		return s.skipNumber()
	}
	return false
}

// skipArray consumes an array.
func (s *jsonScan) skipArray(depth int) bool {
	s.i++
	if s.peek() == ']' {
		s.i++
		return true
	}
	for {
		if !s.skip(depth + 1) {
			return false
		}
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			return true
		default:
			return false
		}
	}
}

// skipNumber consumes a number in JSON's grammar.
func (s *jsonScan) skipNumber() bool {
	if s.b[s.i] == '-' {
		s.i++
	}
	if s.i < len(s.b) && s.b[s.i] == '0' {
		s.i++
	} else if !s.digits() {
		return false
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if !s.digits() {
			return false
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		return s.digits()
	}
	return true
}

// digits consumes at least one digit.
func (s *jsonScan) digits() bool {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}
