package tui

// This file turns the canvas into bytes for the outer terminal, row by
// row. It keeps what the terminal shows (every cell, the SGR pen, the
// cursor) and, for each row a frame changed, writes only the span of cells
// that differ there: one cursor position, the cells with the SGR changes
// between them, and an erase to the end of the line when the rest of the
// row is blank. The model knows which rows changed (repaint.go), so
// nothing else is compared. It replaced ultraviolet's renderer, which
// copied each changed row into a buffer of its own, compared it again and
// weighed cursor moves by cost: a third of the TUI's CPU in a flood (issue
// 12, bench/profiles/tuidraw.md). Nothing here scrolls or inserts: a
// clowder frame is rows, not a stream.
//
// Coordinates are cells of the outer terminal, (0, 0) top left.

import (
	"io"
	"strconv"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
)

// outer is what the outer terminal shows and the writer of the bytes that
// change it. Its methods append to a byte slice and return it; the caller
// writes it. Not safe for concurrent use (the terminal's drawMu guards it).
type outer struct {
	w, h   int
	cells  []uv.Cell // h rows of w cells, as the terminal shows them
	pen    uv.Style  // the terminal's SGR state, as the canvas styles it
	sgr    uv.Style  // pen converted to the profile: what was written
	x, y   int       // the cursor; x < 0 when unknown (after the last column)
	colors palette   // the terminal's colour profile
}

// newOuter is a terminal of unknown content whose colours are downsampled
// to what out (the terminal: a tty) and env (TERM, COLORTERM, NO_COLOR)
// say it takes.
func newOuter(out io.Writer, env []string) *outer {
	return &outer{x: -1, colors: palette{profile: colorprofile.Detect(out, env)}}
}

// clear makes the terminal w x h of blank cells: the pen reset, the
// screen erased, the cursor home.
func (o *outer) clear(dst []byte, w, h int) []byte {
	o.w, o.h = max(w, 0), max(h, 0)
	o.cells = make([]uv.Cell, o.w*o.h)
	for i := range o.cells {
		o.cells[i] = uv.EmptyCell
	}
	o.pen, o.sgr, o.x, o.y = uv.Style{}, uv.Style{}, 0, 0
	return append(dst, "\x1b[m\x1b[H\x1b[2J"...)
}

// row writes what differs between row y of cv and the terminal's row y.
func (o *outer) row(dst []byte, cv *lipgloss.Canvas, y int) []byte {
	return o.span(dst, cv, y, 0, o.w)
}

// span writes what differs between cells [lo, hi) of row y of cv and the
// terminal's: the caller knows nothing else of the row changed.
func (o *outer) span(dst []byte, cv *lipgloss.Canvas, y, lo, hi int) []byte {
	w := min(cv.Width(), o.w)
	hi = min(hi, w)
	if y < 0 || y >= o.h || y >= cv.Height() || lo < 0 || lo >= hi {
		return dst
	}
	shown := o.cells[y*o.w : y*o.w+w]
	x0 := lo
	for x0 < hi && *cv.CellAt(x0, y) == shown[x0] {
		x0++
	}
	if x0 == hi {
		return dst
	}
	x1 := hi - 1
	for x1 > x0 && *cv.CellAt(x1, y) == shown[x1] {
		x1--
	}
	if cv.CellAt(x1, y).Width > 1 {
		x1 = min(x1+cv.CellAt(x1, y).Width-1, w-1) // a wide character: its second half too
	}
	for x0 > 0 && (cv.CellAt(x0, y).Width == 0 || shown[x0].Width == 0) {
		x0-- // the second half of a wide character: write it whole
	}
	if end := o.blankFrom(cv, y, w); w == o.w && x1+1-max(end, x0) >= eraseMin {
		dst = o.put(dst, cv, y, x0, end)
		return o.erase(dst, shown, max(end, x0), y)
	}
	return o.put(dst, cv, y, x0, x1+1)
}

// eraseMin is the fewest blank cells an erase to the end of the line
// stands for: fewer are written as spaces.
const eraseMin = 4

// blankFrom is where the blank tail of row y of cv begins (w: none).
func (o *outer) blankFrom(cv *lipgloss.Canvas, y, w int) int {
	x := w
	for x > 0 && *cv.CellAt(x-1, y) == uv.EmptyCell {
		x--
	}
	return x
}

// erase blanks row y from x to its end with the pen reset.
func (o *outer) erase(dst []byte, shown []uv.Cell, x, y int) []byte {
	dst = o.moveTo(dst, x, y)
	dst = o.setPen(dst, uv.Style{})
	for i := x; i < len(shown); i++ {
		shown[i] = uv.EmptyCell
	}
	return append(dst, "\x1b[K"...)
}

// put writes cells [x0, x1) of row y of cv and records them as shown.
func (o *outer) put(dst []byte, cv *lipgloss.Canvas, y, x0, x1 int) []byte {
	if x0 >= x1 {
		return dst
	}
	dst = o.moveTo(dst, x0, y)
	shown := o.cells[y*o.w : y*o.w+o.w]
	x := x0
	for x < x1 {
		c := cv.CellAt(x, y)
		if c.Width == 0 { // a lone second half: nothing of its own to write
			shown[x] = *c
			x++
			continue
		}
		dst = o.setPen(dst, c.Style)
		if c.Content == "" {
			dst = append(dst, ' ')
		} else {
			dst = append(dst, c.Content...)
		}
		for i := 0; i < c.Width && x+i < len(shown); i++ {
			shown[x+i] = *cv.CellAt(x+i, y)
		}
		x += c.Width
	}
	o.x = x // past a wide character that began before x1
	if x >= o.w {
		o.x = -1 // past the last column: where the next cell goes is the terminal's business
	}
	return dst
}

// moveTo moves the cursor to (x, y) by the shortest of a cursor position
// and relative moves (a backspace or two back on the row, as after an
// echo; a carriage return; line feeds down).
func (o *outer) moveTo(dst []byte, x, y int) []byte {
	if o.x == x && o.y == y {
		return dst
	}
	var rel [24]byte
	r := rel[:0]
	if o.x >= 0 {
		r = relMove(r, o.x, o.y, x, y)
	}
	cup := appendCUP(dst, x, y)
	if o.x >= 0 && len(r) < len(cup)-len(dst) {
		cup = append(dst, r...)
	}
	o.x, o.y = x, y
	return cup
}

// appendCUP appends the cursor position (x, y).
func appendCUP(dst []byte, x, y int) []byte {
	dst = append(dst, "\x1b["...)
	dst = strconv.AppendInt(dst, int64(y+1), 10)
	if x > 0 {
		dst = append(dst, ';')
		dst = strconv.AppendInt(dst, int64(x+1), 10)
	}
	return append(dst, 'H')
}

// relMove appends relative moves from (fx, fy) to (x, y): within the
// screen, so a line feed never scrolls.
func relMove(dst []byte, fx, fy, x, y int) []byte {
	switch dy := y - fy; {
	case dy > 0 && dy <= 4:
		for range dy {
			dst = append(dst, '\n') // raw mode: down, same column
		}
	case dy > 0:
		dst = appendCSI(dst, dy, 'B')
	case dy < 0:
		dst = appendCSI(dst, -dy, 'A')
	}
	switch dx := x - fx; {
	case dx == 0:
	case x == 0:
		dst = append(dst, '\r')
	case dx < 0 && dx >= -2:
		for range -dx {
			dst = append(dst, '\b')
		}
	case dx < 0:
		dst = appendCSI(dst, -dx, 'D')
	default:
		dst = appendCSI(dst, dx, 'C')
	}
	return dst
}

// appendCSI appends CSI n final, n left out when 1.
func appendCSI(dst []byte, n int, final byte) []byte {
	dst = append(dst, "\x1b["...)
	if n != 1 {
		dst = strconv.AppendInt(dst, int64(n), 10)
	}
	return append(dst, final)
}

// setPen sets the terminal's SGR state to s, converted to the profile,
// writing only what changes.
func (o *outer) setPen(dst []byte, s uv.Style) []byte {
	if s == o.pen {
		return dst
	}
	to := o.colors.style(s)
	o.pen = s
	if to == o.sgr {
		return dst
	}
	dst = appendSGR(dst, &o.sgr, &to)
	o.sgr = to
	return dst
}
