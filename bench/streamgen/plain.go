package streamgen

// PlainText returns exactly n bytes of plain ASCII lines as builds, test
// runners and agents print them through a tty (CR LF endings, no escape
// sequences, no UTF-8): lines of code-ish words, some blank, most shorter
// than the screen, some wrapping. It is a pure function of seed, like
// Generate, and a shorter stream is a prefix of a longer one.
func PlainText(seed uint64, n int) []byte {
	g := New(seed)
	b := make([]byte, 0, n+4<<10)
	for len(b) < n {
		b = g.plainASCIILine(b)
	}
	return b[:n]
}

// plainASCIILine appends one line of ASCII words and CR LF.
func (g *Generator) plainASCIILine(b []byte) []byte {
	n := g.lineLength()
	start := len(b)
	for len(b)-start < n {
		if len(b) > start {
			b = append(b, ' ')
		}
		b = append(b, pick(&g.r, asciiWords)...)
	}
	return append(b, '\r', '\n')
}
