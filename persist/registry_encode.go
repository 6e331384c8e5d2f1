package persist

// This file indents the JSON of a state file as json.MarshalIndent(v, "",
// "  ") does, byte for byte, from json.Marshal's compact output. The
// standard library's indenter runs its validating scanner over every
// byte; a save of agents.json with 100 panes spent 30% of its CPU there
// (issue 12). Marshal's output is valid and has no space outside
// strings, so a copy that knows only strings, brackets, commas and
// colons does the same work.

// indentJSON appends compact JSON src (as json.Marshal writes it) to dst,
// indented by two spaces per level with no prefix.
func indentJSON(dst, src []byte) []byte { return indentJSONAt(dst, src, 0) }

// indentJSONAt is indentJSON for a value that sits depth levels deep in
// the document it will be part of.
func indentJSONAt(dst, src []byte, depth int) []byte {
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '"':
			end := stringEnd(src, i)
			dst = append(dst, src[i:end]...)
			i = end - 1
		case '{', '[':
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				dst = append(dst, c, src[i+1]) // {} and [] stay as they are
				i++
				continue
			}
			depth++
			dst = newline(append(dst, c), depth)
		case '}', ']':
			depth--
			dst = append(newline(dst, depth), c)
		case ',':
			dst = newline(append(dst, c), depth)
		case ':':
			dst = append(dst, c, ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// stringEnd is the index just past the string that opens at src[i].
func stringEnd(src []byte, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++ // the escaped byte is never the closing quote
		case '"':
			return j + 1
		}
	}
	return len(src)
}

// newline appends a newline and depth levels of indentation.
func newline(dst []byte, depth int) []byte {
	dst = append(dst, '\n')
	for range depth {
		dst = append(dst, ' ', ' ')
	}
	return dst
}
