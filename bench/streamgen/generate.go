package streamgen

// Default geometry the stream is shaped for (cursor addresses stay inside it).
// Any other size parses the same bytes; addresses beyond it are clamped by the
// terminal as usual.
const (
	DefaultCols = 200
	DefaultRows = 50
)

// segment appends one self-contained piece of the stream.
type segment func(g *Generator, b []byte) []byte

// mix is the stream's recipe: each segment kind with its relative weight
// (a segment is drawn with probability weight/mixTotal). By bytes it comes out at about 55% agent output (plain,
// coloured, diff) and 45% TUI redraw (status, repaint, scroll region, title).
var mix = []struct {
	weight int
	seg    segment
}{
	{500, (*Generator).plainLine},
	{260, (*Generator).colouredLine},
	{60, (*Generator).diffHunk},
	{100, (*Generator).statusRedraw},
	{4, (*Generator).fullRepaint},
	{25, (*Generator).scrollRegion},
	{15, (*Generator).title},
}

var mixTotal = func() int {
	n := 0
	for _, m := range mix {
		n += m.weight
	}
	return n
}()

// Generator produces the stream segment by segment. It is not safe for
// concurrent use.
type Generator struct {
	r          rng
	cols, rows int
}

// New returns a generator for seed, shaped for DefaultCols x DefaultRows.
func New(seed uint64) *Generator {
	return &Generator{r: rng{s: seed}, cols: DefaultCols, rows: DefaultRows}
}

// Generate returns exactly n bytes of the stream for seed. The cut at n may
// fall inside an escape sequence or a UTF-8 character; emulators must cope
// with that anyway.
func Generate(seed uint64, n int) []byte {
	g := New(seed)
	b := make([]byte, 0, n+64<<10)
	for len(b) < n {
		b = g.Append(b)
	}
	return b[:n]
}

// Append appends the next segment of the stream to b.
func (g *Generator) Append(b []byte) []byte {
	k := g.r.intn(mixTotal)
	for _, m := range mix {
		if k < m.weight {
			return m.seg(g, b)
		}
		k -= m.weight
	}
	panic("streamgen: weights do not cover mixTotal") // broken invariant
}
