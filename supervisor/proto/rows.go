// This file encodes and decodes one row of cells as runs (the layout is in
// cells.go and docs/protocol.md, "Rows and cells"). The decoder is
// given a cell budget (the screen width) and never allocates past it.

package proto

import (
	"fmt"
	"slices"
	"unicode/utf8"
)

// FrameRow is one row of a screen frame or of history. Y is the row index
// on the screen (unused in HistoryRows, where rows are consecutive).
// Wrapped says the row's text continues on the next row (soft wrap). Cells
// may be fewer than the screen is wide: the rest of the row is blank cells
// of the default style.
type FrameRow struct {
	Y       uint16
	Wrapped bool
	Cells   []FrameCell
}

// rowWrapped is the row flag bit; the other bits are reserved (zero).
const rowWrapped = 1 << 0

// minRowBytes is the fewest bytes a row takes in a frame (index or none,
// flags, run count): it bounds how many rows a decoder preallocates.
const minRowBytes = 2

// appendRow encodes row flags, run count and runs. It finds the runs
// once, checking each cell as it goes (issue 12: an echo's frame is one
// row, and counting the runs, then finding them again to write them, was
// most of its encoding).
func appendRow(dst []byte, row *FrameRow) ([]byte, error) {
	var flags byte
	if row.Wrapped {
		flags |= rowWrapped
	}
	var stack [32]rowRun // a row of text and blanks has a few runs
	runs := stack[:0]
	checked := 0
	for i := 0; i < len(row.Cells); {
		kind, end := nextRun(row.Cells, i)
		for ; checked < end; checked++ {
			if c := &row.Cells[checked]; *c == blankCell {
				continue // valid
			} else if err := checkCell(c); err != nil {
				return dst, fmt.Errorf("row %d cell %d: %w", row.Y, checked, err)
			}
		}
		runs = append(runs, rowRun{kind: kind, start: i, end: end})
		i = end
	}
	dst = appendUvarint(append(dst, flags), uint64(len(runs)))
	for _, r := range runs {
		dst = appendRun(dst, r.kind, row.Cells[r.start:r.end])
	}
	return dst, nil
}

// rowRun is one run of a row being encoded: its kind and cells.
type rowRun struct {
	kind       int
	start, end int
}

// appendRun writes one run: head, style, then the kind's payload.
func appendRun(dst []byte, kind int, cells []FrameCell) []byte {
	dst = appendStyle(dst, byte(kind), &cells[0])
	switch kind {
	case runBlank:
		return appendUvarint(dst, uint64(len(cells)))
	case runNarrow, runWide:
		step := 1 + kind - runNarrow // 1 narrow, 2 wide
		n := 0
		for i := 0; i < len(cells); i += step {
			n += len(cells[i].Text)
		}
		dst = appendUvarint(dst, uint64(n))
		for i := 0; i < len(cells); i += step {
			dst = append(dst, cells[i].Text...)
		}
		return dst
	}
	dst = appendUvarint(dst, uint64(len(cells)))
	for i := range cells {
		dst = appendString(append(dst, cells[i].Width), cells[i].Text)
	}
	return dst
}

// appendStyle writes the head byte and the non-default style fields.
func appendStyle(dst []byte, head byte, c *FrameCell) []byte {
	at := len(dst)
	dst = append(dst, head)
	for _, f := range []struct {
		bit byte
		col FrameColor
	}{{headFg, c.Fg}, {headBg, c.Bg}, {headUL, c.UL}} {
		if f.col != ColorDefault {
			dst[at] |= f.bit
			dst = appendColor(dst, f.col)
		}
	}
	if c.Attrs != 0 {
		dst[at] |= headAttrs
		dst = appendUvarint(dst, uint64(c.Attrs))
	}
	if c.Link != 0 {
		dst[at] |= headLink
		dst = appendUvarint(dst, uint64(c.Link))
	}
	return dst
}

// appendColor writes a non-default colour: tag 1 + index, or tag 2 + RGB.
func appendColor(dst []byte, c FrameColor) []byte {
	if i, ok := c.Index(); ok {
		return append(dst, 1, i)
	}
	r, g, b, _ := c.RGB()
	return append(dst, 2, r, g, b)
}

// decodeRow reads a row of at most budget cells into row, without the
// default blanks that end it (the reader pads them back: a row may hold
// fewer cells than the columns), preallocating hint cells if it has more
// than one run.
func decodeRow(r *binReader, row *FrameRow, budget int, hint rowHint) error {
	flags, err := r.byte("row flags")
	if err != nil {
		return err
	}
	if flags&^rowWrapped != 0 {
		return fmt.Errorf("row %d: reserved flag bits %#x set", row.Y, flags)
	}
	row.Wrapped = flags&rowWrapped != 0
	runs, err := r.bounded("run count", uint64(budget))
	if err != nil {
		return err
	}
	if runs > 1 { // one run is the whole row: its own length sizes it
		row.Cells = make([]FrameCell, 0, min(int(hint), budget))
	}
	for i := range runs {
		if row.Cells, err = decodeRun(r, row.Cells, budget, i == runs-1); err != nil {
			return fmt.Errorf("row %d: %w", row.Y, err)
		}
	}
	row.Cells = trimBlanks(row.Cells)
	return nil
}

// trimBlanks drops the default blanks that end a row, as a row's last
// run of them is never expanded (decodeBlank): a decoded row ends the
// same however its blanks were split into runs, and a row of nothing
// else has no cells.
func trimBlanks(cells []FrameCell) []FrameCell {
	for len(cells) > 0 && cells[len(cells)-1] == blankCell {
		cells = cells[:len(cells)-1]
	}
	if len(cells) == 0 {
		return nil
	}
	return cells
}

// rowHint is the capacity decodeRow gives a row's cells, so that a row is
// allocated once instead of grown run after run (issue 12). The first row
// of a frame gets the screen width bounded by the bytes left in the frame;
// each later one as many cells as the row before it had (a flood's rows are
// all padded to the width). What is preallocated is thus bounded by the
// frame's bytes and the cells actually decoded, never by what a short
// frame claims.
type rowHint int

// firstRowHint is the hint for a frame's first row.
func firstRowHint(r *binReader, budget int) rowHint {
	return rowHint(min(budget, r.remaining()))
}

// next is the hint for the row after one that decoded to row.
func (h rowHint) next(row *FrameRow) rowHint {
	if len(row.Cells) == 0 {
		return h
	}
	return rowHint(len(row.Cells))
}

// decodeRun appends one run's cells, keeping len(cells) <= budget.
func decodeRun(r *binReader, cells []FrameCell, budget int, last bool) ([]FrameCell, error) {
	style, kind, err := decodeStyle(r)
	if err != nil {
		return cells, err
	}
	switch kind {
	case runBlank:
		return decodeBlank(r, cells, style, budget, last)
	case runNarrow, runWide:
		return decodeText(r, cells, style, budget, uint8(1+kind-runNarrow))
	}
	return decodeClusters(r, cells, style, budget)
}

// decodeStyle reads a head byte and its style fields into a cell template.
func decodeStyle(r *binReader) (FrameCell, int, error) {
	var c FrameCell
	head, err := r.byte("run head")
	if err != nil {
		return c, 0, err
	}
	if head&headReserved != 0 {
		return c, 0, fmt.Errorf("run head %#x has the reserved bit set", head)
	}
	for _, f := range []struct {
		bit byte
		col *FrameColor
	}{{headFg, &c.Fg}, {headBg, &c.Bg}, {headUL, &c.UL}} {
		if head&f.bit != 0 {
			if *f.col, err = decodeColor(r); err != nil {
				return c, 0, err
			}
		}
	}
	if head&headAttrs != 0 {
		a, err := r.bounded("attributes", 0xFFFF)
		if err != nil {
			return c, 0, err
		}
		c.Attrs = FrameAttr(a)
	}
	if head&headLink != 0 {
		l, err := r.bounded("hyperlink id", 0xFFFFFFFF)
		if err != nil {
			return c, 0, err
		}
		c.Link = uint32(l)
	}
	return c, int(head & 3), nil
}

// decodeColor reads a tagged colour.
func decodeColor(r *binReader) (FrameColor, error) {
	tag, err := r.byte("colour tag")
	if err != nil {
		return 0, err
	}
	switch tag {
	case 1:
		i, err := r.byte("colour index")
		return IndexColor(i), err
	case 2:
		s, err := r.str("rgb colour", 3)
		if err != nil {
			return 0, err
		}
		return RGBColor(s[0], s[1], s[2]), nil
	}
	return 0, fmt.Errorf("colour tag %d is not 1 (index) or 2 (rgb)", tag)
}

// decodeBlank appends n >= 1 blank cells, except where they are the
// row's last run and of the default style: a row may hold fewer cells
// than the columns, the rest being such blanks (docs/protocol.md), so
// those are left to the reader to pad. Most rows end so (a prompt, an
// echo, a flood's lines), and expanding them made every echo's frame a
// row of cells (40 bytes each) on fresh memory in a young TUI, 2-3 page
// faults an echo (issue 12).
func decodeBlank(r *binReader, cells []FrameCell, style FrameCell, budget int, last bool) ([]FrameCell, error) {
	n, err := r.bounded("blank count", uint64(budget-len(cells)))
	if err != nil {
		return cells, err // n is then whatever the peer wrote: never loop on it
	}
	if n == 0 {
		return cells, fmt.Errorf("empty blank run")
	}
	style.Width = 1
	if last && style == blankCell {
		return cells, nil
	}
	cells = slices.Grow(cells, int(n)) // n <= budget-len(cells): cells the row really has
	for range n {
		cells = append(cells, style)
	}
	return cells, nil
}

// decodeText appends one cell per rune of a narrow (width 1) or wide
// (width 2 + continuation) text run.
func decodeText(r *binReader, cells []FrameCell, style FrameCell, budget int, width uint8) ([]FrameCell, error) {
	n, err := r.uvarint("run text length")
	if err != nil {
		return cells, err
	}
	s, err := r.str("run text", n)
	if err == nil && n == 0 {
		err = fmt.Errorf("empty text run")
	}
	if cells == nil && err == nil { // the row's one run: a rune is at least a byte, a wide one 3 for its 2 cells
		cells = make([]FrameCell, 0, min(len(s), budget))
	}
	for err == nil && s != "" {
		rn, size := utf8.DecodeRuneInString(s)
		if rn == utf8.RuneError && size == 1 {
			return cells, fmt.Errorf("run text is not valid UTF-8: % x", s[:min(len(s), 4)])
		}
		if len(cells)+int(width) > budget {
			return cells, fmt.Errorf("row has more than %d cells", budget)
		}
		cell := style
		cell.Text, cell.Width, s = s[:size], width, s[size:]
		if cells = append(cells, cell); width == 2 {
			cells = append(cells, style) // continuation: Width 0, no text
		}
	}
	return cells, err
}

// decodeClusters appends n >= 1 explicitly encoded cells.
func decodeClusters(r *binReader, cells []FrameCell, style FrameCell, budget int) ([]FrameCell, error) {
	n, err := r.bounded("cluster count", uint64(budget-len(cells)))
	if err == nil && n == 0 {
		err = fmt.Errorf("empty cluster run")
	}
	if cells == nil && err == nil { // the row's one run
		cells = make([]FrameCell, 0, n)
	}
	for i := uint64(0); err == nil && i < n; i++ {
		cell := style
		if cell.Width, err = r.byte("cell width"); err != nil {
			break
		}
		var l uint64
		if l, err = r.bounded("cell text length", maxCellText); err != nil {
			break
		}
		if cell.Text, err = r.str("cell text", l); err == nil {
			err = checkCell(&cell)
		}
		cells = append(cells, cell)
	}
	return cells, err
}
