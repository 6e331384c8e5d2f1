package streamgen

// The vocabulary of agent output: code-ish ASCII words for most of it, some
// Latin with diacritics and typographic punctuation, and some wide CJK.
var (
	asciiWords = []string{
		"func", "return", "err", "nil", "if", "for", "range", "the", "a", "to",
		"of", "and", "in", "is", "file", "test", "build", "go", "main.go",
		"vtgrid.New(cols,", "rows)", "// TODO:", "fmt.Errorf(\"%w\",", "ctx",
		"Reading", "Editing", "src/parser/state.rs", "passed", "failed", "ok",
		"npm", "install", "--save-dev", "{", "}", "=>", "[]byte", "0x1b",
		"I'll", "update", "function", "handle", "case", "when", "should",
		"because", "layout", "pane", "window", "bufio.NewReader(os.Stdin)",
		"https://example.com/docs/api", "42", "3.14159", "line:", "col:",
	}
	utf8Words = []string{
		"café", "naïve", "über", "señor", "façade", "—", "→", "✓", "✗", "…",
		"“quoted”", "•", "½", "Δt", "λ", "π≈3.14", "résumé", "Ångström",
	}
	cjkWords = []string{
		"日本語", "中文", "테스트", "漢字", "変更", "完了", "错误", "文件",
		"ファイル", "한국어",
	}
	spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}
)

// word returns one word: 88% ASCII, 9% UTF-8 Latin and symbols, 3% CJK.
func (g *Generator) word() string {
	switch k := g.r.intn(100); {
	case k < 88:
		return pick(&g.r, asciiWords)
	case k < 97:
		return pick(&g.r, utf8Words)
	default:
		return pick(&g.r, cjkWords)
	}
}

// lineLength draws how many columns of text a line has: some blank lines,
// many short, a body of medium ones and some that wrap past the width.
func (g *Generator) lineLength() int {
	switch k := g.r.intn(100); {
	case k < 8:
		return 0
	case k < 40:
		return g.r.between(1, 40)
	case k < 85:
		return g.r.between(41, 120)
	default:
		return g.r.between(121, 2*g.cols)
	}
}

// appendWords appends words separated by spaces until about n bytes were
// written.
func (g *Generator) appendWords(b []byte, n int) []byte {
	start := len(b)
	for len(b)-start < n {
		if len(b) > start {
			b = append(b, ' ')
		}
		b = append(b, g.word()...)
	}
	return b
}

// plainLine is agent prose or code: indented words, then CR LF.
func (g *Generator) plainLine(b []byte) []byte {
	if g.r.chance(30) {
		b = append(b, "    "[:g.r.between(1, 4)]...)
	}
	b = g.appendWords(b, g.lineLength())
	return append(b, '\r', '\n')
}

// colouredLine is agent output with styled spans (syntax highlighting, tool
// call headers): each span gets a fresh SGR and the line ends reset.
func (g *Generator) colouredLine(b []byte) []byte {
	spans := g.r.between(1, 6)
	n := g.lineLength()
	for i := 0; i < spans; i++ {
		b = g.sgr(b)
		b = g.appendWords(b, n/spans+1)
		b = append(b, ' ')
	}
	b = append(b, "\x1b[0m"...)
	return append(b, '\r', '\n')
}

// diffHunk is an edit preview as agents show it: a header, then lines on a
// green or red truecolor background painted to the right edge with EL.
func (g *Generator) diffHunk(b []byte) []byte {
	b = append(b, "\x1b[1m@@ -"...)
	b = appendInt(b, g.r.between(1, 900))
	b = append(b, " +"...)
	b = appendInt(b, g.r.between(1, 900))
	b = append(b, " @@\x1b[0m\r\n"...)
	for i := g.r.between(2, 12); i > 0; i-- {
		switch g.r.intn(3) {
		case 0:
			b = append(b, "\x1b[48;2;34;92;43m+ "...)
		case 1:
			b = append(b, "\x1b[48;2;122;41;54m- "...)
		default:
			b = append(b, "  "...)
		}
		b = g.appendWords(b, g.r.between(10, 100))
		b = append(b, "\x1b[K\x1b[0m\r\n"...)
	}
	return b
}
