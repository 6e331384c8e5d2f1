package streamgen

// cup appends CUP to the 1-based row and column.
func cup(b []byte, row, col int) []byte {
	b = append(b, "\x1b["...)
	b = appendInt(b, row)
	b = append(b, ';')
	b = appendInt(b, col)
	return append(b, 'H')
}

// csi appends CSI n final, e.g. CUU 3 is csi(b, 3, 'A').
func csi(b []byte, n int, final byte) []byte {
	b = append(b, "\x1b["...)
	b = appendInt(b, n)
	return append(b, final)
}

// statusRedraw is what an agent's TUI does on every tick: hide the cursor,
// jump to the bottom rows, repaint a spinner line, sometimes an input box in
// box drawing characters, and a status bar (each cleared with EL), step up with
// CUU to touch a line above, clear below with ED, and show the cursor again.
func (g *Generator) statusRedraw(b []byte) []byte {
	b = append(b, "\x1b[?25l"...)
	top := g.rows - g.r.between(4, 8)
	b = cup(b, top, 1)
	b = append(b, "\x1b[38;5;208m"...)
	b = append(b, pick(&g.r, spinner)...)
	b = append(b, " Thinking… \x1b[2m("...)
	b = appendInt(b, g.r.intn(600))
	b = append(b, "s · esc to interrupt)\x1b[0m\x1b[K"...)
	if g.r.chance(25) {
		b = g.inputBox(b, top+1) // most ticks leave the box as it was
	}
	b = csi(b, g.r.between(1, 3), 'A')
	b = append(b, '\r')
	b = csi(b, g.r.between(2, 40), 'C')
	b = g.appendWords(b, g.r.between(5, 30))
	b = append(b, "\x1b[K"...)
	b = cup(b, g.rows, 1)
	b = append(b, "\x1b[48;2;40;44;52m\x1b[38;5;250m "...)
	b = g.appendWords(b, g.r.between(20, 80))
	b = append(b, "\x1b[K\x1b[0m"...)
	if g.r.chance(30) {
		b = cup(b, g.rows-1, 1)
		b = append(b, "\x1b[J"...)
	}
	return append(b, "\x1b[?25h"...)
}

// inputBox draws a three-row rounded box starting at row.
func (g *Generator) inputBox(b []byte, row int) []byte {
	w := g.cols - 2
	b = cup(b, row, 1)
	b = append(b, "\x1b[38;5;244m╭"...)
	for i := 0; i < w; i++ {
		b = append(b, "─"...)
	}
	b = append(b, "╮"...)
	b = cup(b, row+1, 1)
	b = append(b, "│\x1b[0m > "...)
	b = g.appendWords(b, g.r.between(0, 60))
	b = append(b, "\x1b[K"...)
	b = cup(b, row+1, g.cols)
	b = append(b, "\x1b[38;5;244m│"...)
	b = cup(b, row+2, 1)
	b = append(b, "╰"...)
	for i := 0; i < w; i++ {
		b = append(b, "─"...)
	}
	return append(b, "╯\x1b[0m"...)
}

// fullRepaint clears the screen with ED 2 and paints every row by address,
// as a TUI does on start or resize.
func (g *Generator) fullRepaint(b []byte) []byte {
	b = append(b, "\x1b[H\x1b[2J"...)
	for row := 1; row <= g.rows; row++ {
		b = cup(b, row, 1)
		if row%7 == 0 {
			b = g.sgr(b)
		}
		b = g.appendWords(b, g.r.between(0, g.cols-20))
		b = append(b, "\x1b[0m"...)
	}
	return b
}

// scrollRegion sets a DECSTBM region that keeps a header and a footer fixed,
// scrolls some lines through it (LF at the bottom margin and a reverse index
// at the top), then resets the margins and homes the cursor, as pagers and
// log viewers do.
func (g *Generator) scrollRegion(b []byte) []byte {
	top := g.r.between(2, 6)
	bottom := g.rows - g.r.between(2, 6)
	b = append(b, "\x1b["...)
	b = appendInt(b, top)
	b = append(b, ';')
	b = appendInt(b, bottom)
	b = append(b, 'r')
	b = cup(b, bottom, 1)
	for i := g.r.between(3, 20); i > 0; i-- {
		b = append(b, '\n', '\r')
		b = g.appendWords(b, g.lineLength())
		b = append(b, "\x1b[K"...)
	}
	if g.r.chance(30) {
		b = cup(b, top, 1)
		b = append(b, "\x1bM"...)
		b = g.appendWords(b, 40)
	}
	b = append(b, "\x1b[r"...)
	return cup(b, g.rows, 1)
}

// title sets the window title with OSC 0, terminated by BEL or ST.
func (g *Generator) title(b []byte) []byte {
	b = append(b, "\x1b]0;"...)
	b = append(b, pick(&g.r, spinner)...)
	b = append(b, ' ')
	b = g.appendWords(b, g.r.between(5, 30))
	if g.r.chance(50) {
		return append(b, '\a')
	}
	return append(b, "\x1b\\"...)
}
