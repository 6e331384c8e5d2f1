package vtgrid

// This file is SGR: attributes and colours, including the colon forms
// (4:3 curly underline, 38:2::r:g:b, 58:5:n) and the legacy semicolon forms
// of extended colours.

// sgr applies CSI ... m to the cursor's style.
func (t *Terminal) sgr() {
	n := t.p.count()
	if n == 0 {
		t.cur.st = Style{}
		return
	}
	for i := 0; i < n; {
		i = t.sgrOne(i)
	}
}

// subCount is how many colon sub-parameters follow parameter i.
func (t *Terminal) subCount(i int) int {
	k := 0
	for j := i + 1; j < t.p.count() && t.p.sub[j]; j++ {
		k++
	}
	return k
}

// sgrOne applies the parameter at i (with its sub-parameters) and returns the
// index of the next one.
func (t *Terminal) sgrOne(i int) int {
	st := &t.cur.st
	v := t.p.raw(i)
	subs := t.subCount(i)
	next := i + 1 + subs
	switch {
	case v == 0:
		*st = Style{}
	case v == 4:
		st.Underline = UnderlineSingle
		if subs > 0 {
			st.Underline = UnderlineStyle(min(t.p.raw(i+1), int(UnderlineDashed)))
		}
	case v == 38 || v == 48 || v == 58:
		c, end := t.extendedColor(i, subs)
		setColor(st, v, c)
		return end
	case v >= 30 && v <= 37:
		st.Fg = IndexedColor(uint8(v - 30))
	case v >= 40 && v <= 47:
		st.Bg = IndexedColor(uint8(v - 40))
	case v >= 90 && v <= 97:
		st.Fg = IndexedColor(uint8(v - 90 + 8))
	case v >= 100 && v <= 107:
		st.Bg = IndexedColor(uint8(v - 100 + 8))
	default:
		sgrSimple(st, v)
	}
	return next
}

// sgrSimple handles the parameters that take no arguments.
func sgrSimple(st *Style, v int) {
	switch v {
	case 1:
		st.Attrs |= AttrBold
	case 2:
		st.Attrs |= AttrDim
	case 3:
		st.Attrs |= AttrItalic
	case 5, 6:
		st.Attrs |= AttrBlink
	case 7:
		st.Attrs |= AttrReverse
	case 8:
		st.Attrs |= AttrHidden
	case 9:
		st.Attrs |= AttrStrike
	case 21:
		st.Underline = UnderlineDouble
	case 22:
		st.Attrs &^= AttrBold | AttrDim
	case 23:
		st.Attrs &^= AttrItalic
	case 24:
		st.Underline = UnderlineNone
	case 25:
		st.Attrs &^= AttrBlink
	case 27:
		st.Attrs &^= AttrReverse
	case 28:
		st.Attrs &^= AttrHidden
	case 29:
		st.Attrs &^= AttrStrike
	case 39:
		st.Fg = 0
	case 49:
		st.Bg = 0
	case 53:
		st.Attrs |= AttrOverline
	case 55:
		st.Attrs &^= AttrOverline
	case 59:
		st.UnderlineColor = 0
	}
}

func setColor(st *Style, which int, c Color) {
	if c == badColor {
		return
	}
	switch which {
	case 38:
		st.Fg = c
	case 48:
		st.Bg = c
	case 58:
		st.UnderlineColor = c
	}
}

// badColor marks an extended colour that could not be parsed; it is never a
// valid packed value.
const badColor = Color(0xffffffff)

// extendedColor parses the colour after 38/48/58 at index i, in colon form
// (subs > 0: 38:5:n, 38:2:r:g:b or 38:2:cs:r:g:b) or semicolon form
// (38;5;n, 38;2;r;g;b). It returns the colour and the next index. Like
// tmux, a semicolon form whose values are missing or out of range consumes
// only the 38 and its selector; the parameters after it apply as usual.
func (t *Terminal) extendedColor(i, subs int) (Color, int) {
	if subs > 0 {
		return t.colonColor(i, subs), i + 1 + subs
	}
	switch t.p.raw(i + 1) {
	case 5:
		if c := t.p.raw(i + 2); i+2 < t.p.count() && c <= 255 {
			return IndexedColor(uint8(c)), i + 3
		}
	case 2:
		if c, ok := t.rgbAt(i + 2); ok {
			return c, i + 5
		}
	}
	return badColor, i + 2
}

// rgbAt reads three parameters from j as an RGB colour.
func (t *Terminal) rgbAt(j int) (Color, bool) {
	if j+2 >= t.p.count() {
		return badColor, false
	}
	r, g, b := t.p.raw(j), t.p.raw(j+1), t.p.raw(j+2)
	if r > 255 || g > 255 || b > 255 {
		return badColor, false
	}
	return RGBColor(uint8(r), uint8(g), uint8(b)), true
}

func (t *Terminal) colonColor(i, subs int) Color {
	switch t.p.raw(i + 1) {
	case 5:
		if subs >= 2 {
			return IndexedColor(uint8(t.p.raw(i + 2)))
		}
	case 2:
		switch {
		case subs >= 5: // 38:2:colourspace:r:g:b
			return rgb(t.p.raw(i+3), t.p.raw(i+4), t.p.raw(i+5))
		case subs == 4: // 38:2:r:g:b
			return rgb(t.p.raw(i+2), t.p.raw(i+3), t.p.raw(i+4))
		}
	}
	return badColor
}

func rgb(r, g, b int) Color {
	return RGBColor(uint8(min(r, 255)), uint8(min(g, 255)), uint8(min(b, 255)))
}
